"""The offer form is a view of the package's terms (issue 33): no field of its own.

Each of its fields is an Offer field, a Package field under the model's name (the tax
location posted as `tax_location`, the one name an offer field already takes), a field of the
new option's terms change (`NewTermsForm`), or a hidden control; a term that reaches a writer
without a column raises instead of being dropped.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.text import capfirst

from compensation.models import Package
from compensation.terms import TermsChange
from offers import services
from offers.forms import PACKAGE_FORM_NAMES, NewTermsForm, OfferForm
from offers.imports import offers_import
from offers.models import OFFER_FIELDS, Offer
from tests.factories import CompanyFactory, LocationPresetFactory, OfferFactory, PreferencesFactory
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db

CONTROLS = {"version", "package_version", "form_token"}


def test_every_field_of_the_offer_form_is_a_model_field_a_change_or_a_control():
    package_fields = {f.name for f in Package._meta.get_fields()}
    assert set(PACKAGE_FORM_NAMES) <= package_fields
    for name, field in OfferForm.base_fields.items():
        if name in OFFER_FIELDS or name in CONTROLS or name in NewTermsForm.base_fields:
            continue
        model_name = next(m for m, form_name in PACKAGE_FORM_NAMES.items() if form_name == name)
        # Built from the model: its label is the model field's verbose name, capitalised (an
        # acronym such as "ESPP" stays as it is).
        verbose_name = str(Package._meta.get_field(model_name).verbose_name)
        assert str(field.label) == capfirst(verbose_name)


def test_every_new_terms_field_reaches_the_change():
    form = NewTermsForm(
        data={
            "sign_on_year1": "30,000",
            "sign_on_year2": "10,000",
            "clawback_months": "24",
            "stock_grant": "400,000",
            "stock_currency": "USD",
            "vesting_preset": "meta_quarterly",
            "refresher_yearly": "50,000",
        }
    )
    assert form.is_valid(), form.errors
    change = form.terms_change(pay_currency="SGD")
    assert (change.sign_on_year1.amount, change.sign_on_year1.currency) == (30000, "SGD")
    assert (change.sign_on_year2.amount, change.clawback_months) == (10000, 24)
    assert (change.stock_grant.amount, change.stock_grant.currency) == (400000, "USD")
    assert (change.refresher_yearly.amount, change.refresher_yearly.currency) == (50000, "USD")
    assert change.vesting is not None and change.vesting.vest_dates[0] == (2, 15)  # Meta's
    empty = NewTermsForm(data={})
    assert empty.is_valid()
    assert empty.terms_change(pay_currency="USD") == TermsChange(grant_label="Initial grant")


def test_a_term_without_a_column_is_an_error_not_dropped(alice):
    with pytest.raises(TypeError, match="unexpected fields"):
        services.offer_create(
            user=alice,
            fields={"name": "Acme", "kind": "external", "relocation_amount": Decimal("1")},
            package_fields={"currency": "USD", "base": Decimal("200000")},
            change=TermsChange(),
        )
    assert not Offer.objects.filter(owner=alice).exists()


def test_the_page_posts_the_package_terms_under_the_models_names(client_alice, alice):
    """Relocation and the tax location, entered on the page, are the package's."""
    PreferencesFactory(owner=alice)
    place = LocationPresetFactory(owner=alice, name="Seattle")
    url = reverse("offers:offer_create")
    values = form_values(client_alice.get(url).content, action=url, page=url)
    assert {"relocation", "tax_location"} <= set(values) and "relocation_amount" not in values
    values.update(
        name="Seattle offer",
        kind="external",
        base="230,000",
        relocation="25,000",
        tax_location=str(place.pk),
        start_date="2027-02-15",
    )
    assert client_alice.post(url, values).status_code == 302
    package = Offer.objects.get(owner=alice, name="Seattle offer").package
    assert (package.relocation, package.location, package.start_date) == (
        Decimal("25000"),
        place,
        dt.date(2027, 2, 15),
    )


def test_an_edit_keeps_an_emptied_figure_and_clears_an_emptied_choice(client_alice, alice):
    PreferencesFactory(owner=alice)
    place = LocationPresetFactory(owner=alice, name="Seattle")
    offer = OfferFactory(owner=alice, package__base=Decimal("200000"), package__location=place)
    url = reverse("offers:offer_edit", args=[offer.pk])
    values = form_values(client_alice.get(url).content, action=url, page=url)
    assert values["tax_location"] == str(place.pk) and values["raise_pct"] == "3.000"
    values.update(raise_pct="", tax_location="", relocation="")
    response = client_alice.post(url, values)
    assert response.status_code == 302, response.content.decode()[:2000]
    package = Package.objects.get(pk=offer.package_id)
    assert (package.raise_pct, package.location, package.relocation) == (Decimal("3"), None, 0)


def test_an_older_templates_relocation_amount_column_still_imports(alice):
    PreferencesFactory(owner=alice)
    CompanyFactory(owner=alice, name="Hooli")
    raw = (
        b"name,kind,status,company,currency,base_salary,relocation_amount\r\n"
        b"Hooli offer,external,received,Hooli,USD,200000,15000\r\n"
    )
    (offer,) = offers_import(user=alice, raw=raw)
    assert offer.package.relocation == Decimal("15000")
