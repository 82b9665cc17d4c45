"""Writes of offers: options and their packages, preferences, scenarios (offers/services.py)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.locking import StaleEditError
from accounts.models import Revision
from compensation.models import Package
from compensation.terms import Money, TermsChange
from offers import services
from offers.models import Offer, Preferences, Scenario
from tests.compensation.test_views import package_post
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    LevelFactory,
    OfferFactory,
    RefresherFactory,
    ScenarioFactory,
    SignOnFactory,
)
from tests.security.test_lost_updates import _form_post

pytestmark = pytest.mark.django_db


def _create(user, *, change=None, **package_fields):
    """Create "Acme", an external offer, with these package terms (the model's names)."""
    return services.offer_create(
        user=user,
        fields={"name": "Acme", "kind": Offer.Kind.EXTERNAL},
        package_fields={"currency": "USD", "base": Decimal("200000"), **package_fields},
        change=change or TermsChange(),
    )


# Creating ---------------------------------------------------------------------------------


def test_offer_create_writes_the_package_through_compensation(alice):
    company = CompanyFactory(owner=alice, share_price=Decimal("50"))
    offer = _create(
        alice,
        company=company,
        relocation=None,
        change=TermsChange(
            sign_on_year1=Money(Decimal("30000"), "USD"),
            sign_on_year2=Money(Decimal("10000"), "USD"),
            stock_grant=Money(Decimal("400000"), "USD"),
            grant_label="Initial grant",
            refresher_yearly=Money(Decimal("20000"), "USD"),
        ),
    )
    package = offer.package
    assert package.owner == alice and package.company == company and package.version == 1
    assert package.relocation == 0 and package.raise_pct == 3 and package.bonus_multiplier == 1
    assert sorted((s.year, s.amount, s.clawback_months) for s in package.sign_ons.all()) == [
        (1, Decimal("30000"), 12),
        (2, Decimal("10000"), 12),
    ]
    grant = package.grants.get()
    assert grant.value == 400000 and grant.grant_price == 50 and grant.label == "Initial grant"
    assert package.refreshers.get().yearly_value == 20000
    # One revision: the offer's, holding the package and its children.
    revision = Revision.objects.get(owner=alice)
    models = [row["model"] for row in revision.snapshot]
    assert models[:2] == ["offers.offer", "compensation.package"]
    assert sorted(models[2:]) == [
        "compensation.equitygrant",
        "compensation.refresher",
        "compensation.signon",
        "compensation.signon",
    ]


def test_offer_create_refuses_another_users_company_and_writes_nothing(alice, charlie):
    foreign = CompanyFactory(owner=charlie)
    with pytest.raises(ValidationError):
        _create(alice, company=foreign)
    assert not Package.objects.filter(owner=alice).exists()
    assert not Offer.objects.filter(owner=alice).exists()


def test_offer_create_refuses_a_level_of_another_company(alice):
    company = CompanyFactory(owner=alice)
    level = LevelFactory(company=CompanyFactory(owner=alice))
    with pytest.raises(ValidationError):
        _create(alice, company=company, level=level)
    assert not Offer.objects.filter(owner=alice).exists()


# Updating ---------------------------------------------------------------------------------


def test_offer_update_changes_offer_and_package_once(alice):
    offer = OfferFactory(owner=alice, notes="old")
    services.offer_update(
        user=alice,
        offer=offer,
        fields={"notes": "new"},
        package_fields={"base": Decimal("250000"), "relocation": None},
        expected_version=offer.version,
        expected_package_version=offer.package.version,
    )
    offer.refresh_from_db()
    offer.package.refresh_from_db()
    assert offer.notes == "new" and offer.version == 2
    assert offer.package.base == 250000 and offer.package.version == 2
    assert offer.package.relocation == 0
    assert Revision.objects.get(owner=alice).summary == "before edit"


def test_offer_update_refuses_a_stale_package_version_and_writes_nothing(alice):
    offer = OfferFactory(owner=alice, notes="old")
    package = offer.package
    seen = package.version
    Package.objects.filter(pk=package.pk).update(base=Decimal("210000"), version=seen + 1)
    with pytest.raises(StaleEditError):
        services.offer_update(
            user=alice,
            offer=offer,
            fields={"notes": "new"},
            package_fields={"base": Decimal("300000")},
            expected_version=offer.version,
            expected_package_version=seen,
        )
    offer.refresh_from_db()
    package.refresh_from_db()
    assert offer.notes == "old" and offer.version == 1
    assert package.base == 210000 and package.version == seen + 1
    assert not Revision.objects.filter(owner=alice).exists()


def test_offer_form_loaded_before_a_package_page_edit_is_refused(client_alice, alice):
    """The overwrite of issue 12: the offer form must not undo an edit made on the package page."""
    offer = OfferFactory(owner=alice, notes="original")
    package = offer.package
    stale = _form_post(client_alice, offer, base="300000", notes="from the offer form")
    assert stale["package_version"] == str(package.version)

    package_url = reverse("compensation:package_edit", args=[package.pk])
    edit = package_post(package, base="210000", company=str(package.company_id))
    assert client_alice.post(package_url, edit).status_code == 302
    package.refresh_from_db()
    assert package.base == 210000 and package.version == 2

    refused = client_alice.post(reverse("offers:offer_edit", args=[offer.pk]), stale)
    assert refused.status_code == 409
    assert "changed since you opened it" in refused.content.decode()
    package.refresh_from_db()
    offer.refresh_from_db()
    assert package.base == 210000 and package.version == 2
    assert offer.notes == "original" and offer.version == 1


def test_offer_form_reloaded_after_a_package_page_edit_saves(client_alice, alice):
    offer = OfferFactory(owner=alice)
    package = offer.package
    package_url = reverse("compensation:package_edit", args=[package.pk])
    edit = package_post(package, base="210000", company=str(package.company_id))
    assert client_alice.post(package_url, edit).status_code == 302
    fresh = _form_post(client_alice, offer, base="220000")
    response = client_alice.post(reverse("offers:offer_edit", args=[offer.pk]), fresh)
    assert response.status_code == 302
    package.refresh_from_db()
    assert package.base == 220000 and package.version == 3


def test_offer_delete_moves_offer_package_and_scenarios_to_the_trash(alice):
    scenario = ScenarioFactory(owner=alice)
    offer = scenario.offer
    services.offer_delete(user=alice, offer=offer)
    assert not Offer.objects.filter(pk=offer.pk).exists()
    assert not Package.objects.filter(pk=offer.package_id).exists()
    assert not Scenario.objects.filter(pk=scenario.pk).exists()
    revision = Revision.objects.get(owner=alice, action=Revision.Action.DELETED)
    assert {row["model"] for row in revision.snapshot} == {
        "offers.offer",
        "compensation.package",
        "offers.scenario",
    }


# Preferences ------------------------------------------------------------------------------


def test_preferences_save_creates_then_refuses_a_stale_version(alice):
    prefs = services.preferences_save(
        user=alice, data={"home_timezone": "Asia/Singapore"}, expected_version=None
    )
    assert prefs.home_timezone == "Asia/Singapore" and prefs.version == 1
    services.preferences_save(user=alice, data={"horizon_years": 5}, expected_version=1)
    with pytest.raises(StaleEditError):
        services.preferences_save(user=alice, data={"horizon_years": 7}, expected_version=1)
    prefs = Preferences.objects.get(owner=alice)
    assert prefs.horizon_years == 5 and prefs.version == 2


# Scenarios --------------------------------------------------------------------------------


def test_scenario_create_names_itself_and_refuses_another_users_offer(alice, charlie):
    offer = OfferFactory(owner=alice, name="Meta")
    scenario = services.scenario_create(user=alice, offer=offer, data={"base": Decimal("1")})
    assert scenario.name == "Meta: what if" and scenario.base == 1
    assert scenario.mc_status == Scenario.McStatus.NONE
    # Not a field a scenario form sets: refused, not dropped unseen.
    with pytest.raises(TypeError, match="mc_status"):
        services.scenario_create(user=alice, offer=offer, data={"mc_status": "done"})
    with pytest.raises(PermissionError):
        services.scenario_create(user=charlie, offer=offer)


def test_scenario_update_resets_the_monte_carlo_and_checks_the_version(alice):
    scenario = ScenarioFactory(owner=alice, mc_status=Scenario.McStatus.DONE, mc_result={"a": 1})
    services.scenario_update(
        user=alice, scenario=scenario, data={"base": Decimal("5")}, expected_version=1
    )
    scenario.refresh_from_db()
    assert scenario.base == 5 and scenario.mc_status == Scenario.McStatus.NONE
    assert scenario.mc_result is None and scenario.version == 2
    with pytest.raises(StaleEditError):
        services.scenario_update(
            user=alice, scenario=scenario, data={"base": Decimal("6")}, expected_version=1
        )


def test_scenario_accept_writes_the_package_through_compensation(alice):
    offer = OfferFactory(owner=alice, status=Offer.Status.RECEIVED)
    package = offer.package
    kept_sign_on = SignOnFactory(package=package)
    kept_grant = EquityGrantFactory(package=package, grant_price=Decimal("80"))
    RefresherFactory(package=package)
    scenario = ScenarioFactory(
        owner=alice,
        offer=offer,
        base=Decimal("260000"),
        extra_sign_on=Decimal("25000"),
        extra_stock_yearly=Decimal("10000"),
        refresher_yearly=Decimal("0"),
        start_date=dt.date(2027, 3, 1),
    )
    services.scenario_accept(user=alice, scenario=scenario)
    package.refresh_from_db()
    offer.refresh_from_db()
    assert package.base == 260000 and package.start_date == dt.date(2027, 3, 1)
    assert package.version == 2 and offer.version == 2
    assert offer.status == Offer.Status.NEGOTIATING
    sign_ons = list(package.sign_ons.order_by("id"))
    assert sign_ons[0].pk == kept_sign_on.pk and sign_ons[1].amount == 25000
    grants = list(package.grants.order_by("id"))
    assert grants[0].pk == kept_grant.pk
    # Priced at today's share price (the company's USD 100), not the 80 of the grant it copies.
    assert grants[1].value == 40000 and grants[1].grant_price == 100
    assert grants[1].vest_start == dt.date(2027, 3, 1)
    assert not package.refreshers.exists()
    scenario.refresh_from_db()
    assert scenario.base is None and scenario.extra_sign_on == 0


def test_scenario_accept_with_a_level_of_another_company_is_refused_cleanly(client_alice, alice):
    offer = OfferFactory(owner=alice)
    scenario = ScenarioFactory(
        owner=alice, offer=offer, level=LevelFactory(company=CompanyFactory(owner=None))
    )
    response = client_alice.post(
        reverse("offers:scenario_accept", args=[scenario.pk]), {"version": scenario.version}
    )
    assert response.status_code == 400
    assert "Choose a level of the package" in response.content.decode()
    offer.refresh_from_db()
    offer.package.refresh_from_db()
    assert offer.level_id is None and offer.version == 1 and offer.package.version == 1
