"""A grant priced in USD on an SGD or TWD package, through the database and the forms."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from compensation import engine, selectors
from compensation.forms import GrantForm
from compensation.models import Package
from compensation.package_parts import EquityGrant
from tests.compensation.test_views import package_post
from tests.factories import CompanyFactory, EquityGrantFactory, FxRateFactory, PackageFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def usd_stock(alice):
    """A company priced at a flat USD 110 a share."""
    return CompanyFactory(owner=alice, share_price=Decimal("110"), growth_pct=Decimal("0"))


def package_in(alice, company, currency):
    """USD 400,000 of RSUs at USD 100 a share (blank price currency: the company's USD)."""
    package = PackageFactory(owner=alice, company=company, currency=currency, base=Decimal("0"))
    package.bonus_target_pct = Decimal("0")
    package.save()
    EquityGrantFactory(package=package, value=Decimal("400000"), grant_price=Decimal("100"))
    return selectors.package_get(user=alice, pk=package.pk)


def test_usd_grant_on_sgd_package_with_a_real_fx_table(alice, usd_stock):
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    package = package_in(alice, usd_stock, "SGD")
    spec = selectors.package_to_spec(package, horizon_years=4, fx=selectors.fx_table(user=alice))
    assert spec.stock.price == 110.0 and spec.stock_currency == "USD"
    assert spec.stock.fx_to_package == pytest.approx(1.35)
    # USD 400,000 / USD 100 = 4,000 shares; first vest 250 x USD 110 x 1.35 = SGD 37,125.
    (grant,) = spec.grants
    assert grant.share_count(spec.stock.price) == pytest.approx(4_000.0)
    assert engine.project(spec).loc[3, "equity_grants"] == pytest.approx(37_125.0)
    assert engine.project_yearly(spec).loc[1, "equity"] == pytest.approx(148_500.0)


def test_usd_grant_on_twd_package_with_a_real_fx_table(alice, usd_stock):
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    package = package_in(alice, usd_stock, "TWD")
    spec = selectors.package_to_spec(package, horizon_years=4, fx=selectors.fx_table(user=alice))
    # 250 shares x USD 110 x 32 = TWD 880,000 at the first vest; four vests a year.
    assert engine.project(spec).loc[3, "equity_grants"] == pytest.approx(880_000.0)
    assert engine.project_yearly(spec).loc[1, "equity"] == pytest.approx(3_520_000.0)


def test_grant_priced_in_another_currency_keeps_its_share_count(alice, usd_stock):
    # TWD 12,800,000 at TWD 3,200 a share is 4,000 shares, also after moving to USD.
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    package = PackageFactory(owner=alice, company=usd_stock, currency="TWD")
    EquityGrantFactory(
        package=package,
        value=Decimal("12800000"),
        grant_price=Decimal("3200"),
        price_currency="TWD",
    )
    package = selectors.package_get(user=alice, pk=package.pk)
    (grant,) = selectors.package_to_spec(package, horizon_years=4).grants
    assert grant.value == pytest.approx(400_000.0) and grant.grant_price == pytest.approx(100.0)
    # The yearly stock for the band is in the package currency: 12,800,000 / 4 years.
    assert selectors.yearly_stock_value(package) == Decimal("3200000")


def test_yearly_stock_value_converts_into_the_package_currency(alice, usd_stock):
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    package = package_in(alice, usd_stock, "SGD")
    # USD 400,000 over 4 years = USD 100,000 a year = SGD 135,000.
    assert selectors.yearly_stock_value(package) == Decimal("135000")


def test_missing_rate_is_an_error_not_a_wrong_number(alice, usd_stock):
    package = package_in(alice, usd_stock, "TWD")
    with pytest.raises(LookupError, match="USD to TWD"):
        selectors.package_to_spec(package, horizon_years=4)


def test_package_without_stock_needs_no_rate(alice, usd_stock):
    package = PackageFactory(owner=alice, company=usd_stock, currency="TWD")
    spec = selectors.package_to_spec(
        selectors.package_get(user=alice, pk=package.pk), horizon_years=4
    )
    assert spec.stock.fx_to_package == 1.0 and spec.stock_currency == "TWD"


def test_model_refuses_an_invalid_price_currency(alice):
    grant = EquityGrantFactory.build(package=PackageFactory(owner=alice), price_currency="usd")
    with pytest.raises(Exception, match="three-letter"):
        grant.full_clean()


def test_grant_form_takes_and_shows_the_price_currency(alice, usd_stock):
    package = PackageFactory(owner=alice, company=usd_stock, currency="SGD")
    form = GrantForm(instance=EquityGrant(package=package))
    assert form.fields["price_currency"].widget.attrs["placeholder"] == "USD"
    bound = GrantForm(
        {
            "value": "400000",
            "grant_price": "100",
            "price_currency": " usd ",
            "vest_start": "2027-01-04",
            "weights_text": "25,25,25,25",
        },
        instance=EquityGrant(package=package),
    )
    assert bound.is_valid(), bound.errors
    assert bound.row()["price_currency"] == "USD"
    bad = GrantForm({**bound.data, "price_currency": "U$"}, instance=EquityGrant(package=package))
    assert not bad.is_valid() and "price_currency" in bad.errors


def test_package_form_saves_the_price_currency(client_alice, alice):
    data = package_post(**{"currency": "SGD", "grants-0-price_currency": "usd"})
    response = client_alice.post(reverse("compensation:package_create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Package.objects.get(owner=alice).grants.get().price_currency == "USD"


def test_package_page_names_the_grant_currency(client_alice, alice, usd_stock):
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    package = package_in(alice, usd_stock, "SGD")
    page = client_alice.get(reverse("compensation:package_detail", args=[package.pk]))
    text = page.content.decode()
    assert "400,000 USD" in text and "1 USD = 1.35 SGD" in text
