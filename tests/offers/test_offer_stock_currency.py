"""“Add an offer” with pay in TWD and stock priced in USD; backups of the price currency."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from compensation import engine, selectors
from compensation.models import Package
from compensation.package_parts import EquityGrant
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from offers.models import Offer
from tests.factories import CompanyFactory, EquityGrantFactory, FxRateFactory, PackageFactory
from tests.offers.test_views_offers import offer_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def usd_company(alice):
    """A US-listed company at a flat USD 100 a share; 1 USD = 32 TWD."""
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    return CompanyFactory(owner=alice, share_price=Decimal("100"), growth_pct=Decimal("0"))


def twd_offer(client, usd_company, **fields):
    data = offer_post(
        company=usd_company.pk,
        currency="TWD",
        base="4800000",
        sign_on_year1="",
        bonus_target_pct="0",
        **fields,
    )
    return client.post(reverse("offers:offer_create"), data)


def first_year_stock(user) -> float:
    package = selectors.package_get(user=user, pk=Package.objects.get(owner=user).pk)
    spec = selectors.package_to_spec(package, horizon_years=4)
    return float(engine.project_yearly(spec).loc[1, "equity"])


def test_twd_grant_through_add_an_offer(client_alice, alice, usd_company):
    # TWD 12,800,000 of stock (the salary currency: the field is left empty) at the
    # company's USD 100 = TWD 3,200 a share is 4,000 shares, 1,000 a year, worth
    # 1,000 x USD 100 x 32 = TWD 3,200,000 in year 1. It used to be turned into shares at
    # 100 (as if TWD): 128,000 shares, 32 times too many.
    response = twd_offer(client_alice, usd_company, stock_grant="12800000", stock_currency="")
    assert response.status_code == 302, response.content.decode()[:2000]
    grant = EquityGrant.objects.get(package__owner=alice)
    assert grant.price_currency == "TWD" and grant.grant_price == Decimal("3200")
    assert grant.value / grant.grant_price == 4000
    assert first_year_stock(alice) == pytest.approx(3_200_000.0)


def test_usd_grant_through_add_an_offer(client_alice, alice, usd_company):
    # USD 400,000 at USD 100 = 4,000 shares: the same TWD 3,200,000 in year 1.
    response = twd_offer(client_alice, usd_company, stock_grant="400000", stock_currency="usd")
    assert response.status_code == 302, response.content.decode()[:2000]
    grant = EquityGrant.objects.get(package__owner=alice)
    assert (grant.price_currency, grant.value, grant.grant_price) == (
        "USD",
        Decimal("400000"),
        Decimal("100"),
    )
    assert first_year_stock(alice) == pytest.approx(3_200_000.0)


def test_refresher_is_stored_in_the_stock_currency(client_alice, alice, usd_company):
    # TWD 1,600,000 a year (the salary currency) / 32 = USD 50,000 of the USD-priced stock.
    response = twd_offer(
        client_alice, usd_company, stock_grant="400000", refresher_yearly="1600000"
    )
    assert response.status_code == 302
    assert Package.objects.get(owner=alice).refreshers.get().yearly_value == Decimal("50000")


def test_refresher_in_usd_is_kept_as_entered(client_alice, alice, usd_company):
    response = twd_offer(
        client_alice,
        usd_company,
        stock_grant="400000",
        stock_currency="USD",
        refresher_yearly="50000",
    )
    assert response.status_code == 302
    assert Package.objects.get(owner=alice).refreshers.get().yearly_value == Decimal("50000")


def test_missing_rate_is_a_form_error(client_alice, alice):
    company = CompanyFactory(owner=alice, share_price=Decimal("100"))
    response = twd_offer(client_alice, company, stock_grant="12800000")
    assert response.status_code == 400
    assert "No exchange rate from USD to TWD" in response.content.decode()
    assert not Offer.objects.exists() and not Package.objects.exists()


def test_bad_stock_currency_is_a_form_error(client_alice, alice, usd_company):
    response = twd_offer(client_alice, usd_company, stock_currency="U$D")
    assert response.status_code == 400 and b"not an ISO 4217 currency code" in response.content
    assert not Package.objects.exists()


def test_demo_tiktok_and_transfer_use_usd_priced_stock():
    from tests.offers.scenario_demo import seed_demo_user

    user = seed_demo_user()
    tiktok = Package.objects.get(owner=user, name__startswith="TikTok")
    (grant,) = tiktok.grants.all()
    # SGD 360,000 of band-median stock at 1 SGD = 0.74 USD: USD 266,400 at USD 200 = 1,332
    # shares (not 360,000 / 200 = 1,800, which was 35% too many).
    assert (grant.price_currency, grant.value, grant.grant_price) == (
        "USD",
        Decimal("266400"),
        Decimal("200"),
    )
    spec = selectors.package_to_spec(
        selectors.package_get(user=user, pk=tiktok.pk), horizon_years=4
    )
    assert spec.stock_currency == "USD" and spec.grants[0].share_count(200.0) == 1332
    transfer = Package.objects.get(owner=user, currency="TWD")
    assert transfer.refreshers.get().yearly_value == Decimal("118750")  # = TWD 3.8 million
    # The transfer keeps the four grants and this year's refresher the current job holds on
    # the move date, in their USD price currency, on the TWD package.
    from offers.board import board_build

    ev = board_build(user=user, mc_paths=0).evaluation(str(transfer.offer.pk))
    assert ev.spec.currency == "TWD" and ev.spec.stock_currency == "USD"
    assert len(ev.spec.grants) == 5


def test_backup_carries_the_price_currency_and_old_files_restore(alice, bob, charlie):
    package = PackageFactory(owner=alice, currency="TWD")
    EquityGrantFactory(package=package, price_currency="USD")
    doc = backup_build(user=alice)
    assert doc["grants"][0]["price_currency"] == "USD"
    backup_restore(user=bob, raw=json.dumps(doc))
    assert EquityGrant.objects.get(package__owner=bob).price_currency == "USD"
    # A file written before the field existed: the grant takes the company's currency.
    del doc["grants"][0]["price_currency"]
    backup_restore(user=charlie, raw=json.dumps(doc))
    assert EquityGrant.objects.get(package__owner=charlie).price_currency == ""


def test_restore_refuses_an_invalid_price_currency(alice, bob):
    EquityGrantFactory(package=PackageFactory(owner=alice), price_currency="USD")
    doc = backup_build(user=alice)
    doc["grants"][0]["price_currency"] = "usd"
    with pytest.raises(BackupError) as info:
        backup_restore(user=bob, raw=json.dumps(doc))
    assert info.value.errors == [
        "grants[0].price_currency: Use a three-letter ISO 4217 code, e.g. USD."
    ]
    assert not Package.objects.filter(owner=bob).exists()


def test_accepting_a_scenario_converts_its_stock_into_the_grant_currency(alice):
    from offers import services
    from tests.factories import OfferFactory, ScenarioFactory

    # SGD pay, USD stock, 1 USD = 1.35 SGD. SGD 13,500 more stock a year over a 4-year
    # schedule is SGD 54,000 = USD 40,000 of stock; SGD 27,000 of refreshers = USD 20,000.
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    company = CompanyFactory(owner=alice, share_price=Decimal("100"))
    package = PackageFactory(owner=alice, company=company, currency="SGD")
    EquityGrantFactory(package=package, grant_price=Decimal("100"))
    offer = OfferFactory(owner=alice, package=package, company=company)
    scenario = ScenarioFactory(
        owner=alice,
        offer=offer,
        extra_stock_yearly=Decimal("13500"),
        refresher_yearly=Decimal("27000"),
        stock_currency="SGD",  # stated in the pay currency (as scenarios were before)
    )
    services.scenario_accept(user=alice, scenario=scenario)
    added = package.grants.get(label__startswith="Negotiated")
    assert (added.price_currency, added.value) == ("USD", Decimal("40000.00"))
    assert package.refreshers.get().yearly_value == Decimal("20000.00")


def test_accepting_without_a_rate_is_a_message_not_a_crash(client_alice, alice):
    from tests.factories import OfferFactory, ScenarioFactory

    company = CompanyFactory(owner=alice, share_price=Decimal("100"))
    package = PackageFactory(owner=alice, company=company, currency="SGD")
    EquityGrantFactory(package=package, grant_price=Decimal("100"))
    offer = OfferFactory(owner=alice, package=package, company=company)
    scenario = ScenarioFactory(
        owner=alice, offer=offer, extra_stock_yearly=Decimal("13500"), stock_currency="SGD"
    )
    response = client_alice.post(
        reverse("offers:scenario_accept", args=[scenario.pk]), {"version": scenario.version}
    )
    assert response.status_code == 400
    assert "No exchange rate" in response.content.decode()
    assert package.grants.count() == 1  # nothing written
