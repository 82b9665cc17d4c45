"""The seams where terms change hands: each defect of the package-terms issue, through the page."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from compensation.package_parts import EquityGrant
from offers.board import board_build
from offers.board_cache import board_get
from offers.models import NegotiationEntry, Offer
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    OfferFactory,
    PreferencesFactory,
)
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db

START = dt.date(2027, 2, 15)


@pytest.fixture
def sgd_offer(alice):
    """An offer paid in SGD with a USD-priced grant of USD 100,000 (1,000 shares at USD 100)."""
    PreferencesFactory(owner=alice, home_currency="TWD")
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(owner=alice, name="TikTok", currency="USD", share_price=100)
    offer = OfferFactory(
        owner=alice,
        company=company,
        package__company=company,
        package__currency="SGD",
        package__base=Decimal("300000"),
        package__start_date=START,
        start_date=START,
    )
    EquityGrantFactory(
        package=offer.package,
        value=Decimal("100000"),
        grant_price=Decimal("100"),
        price_currency="USD",
        vest_start=START,
    )
    return offer


def value_of(user, offer) -> float:
    return board_get(user=user).evaluation(str(offer.pk)).value


def log_answer(client, offer: Offer, **answer: str):
    """Log an ask with its answer through the negotiation log's form, as the page renders it."""
    url = reverse("offers:negotiation_log", args=[offer.pk])
    page = client.get(url)
    data = form_values(page.content, action=url, page=url)
    data.update(
        asked_on="2026-11-20",
        channel="recruiter",
        topic="stock",
        ask="More stock?",
        answered_on="2026-11-25",
        **answer,
    )
    return page, client.post(url, data)


def test_a_counter_in_the_grants_currency_is_a_raise_not_a_cut(client_alice, alice, sgd_offer):
    before = value_of(alice, sgd_offer)
    page, response = log_answer(
        client_alice, sgd_offer, outcome="countered", revised_stock="130000"
    )
    assert "Revised stock grant (total) (USD)" in page.content.decode()
    assert response.status_code == 302
    grant = EquityGrant.objects.get(package=sgd_offer.package)
    assert (grant.value, grant.price_currency) == (Decimal("130000.00"), "USD")
    entry = NegotiationEntry.objects.get(offer=sgd_offer)
    assert entry.stock_currency == "USD" and entry.terms_currency == "SGD"
    assert entry.value_after > entry.value_before
    # 300 more shares at USD 100 and 32 TWD to the USD, at most all vesting inside the 4-year
    # window, at the assumed price (the default basis): USD 100 grown 5 % a year
    # (CompanyFactory's growth) for at most 4 years.
    assert 0 < value_of(alice, sgd_offer) - before < 300 * 100 * 1.05**4 * 32
    log = client_alice.get(reverse("offers:negotiation_log", args=[sgd_offer.pk])).content
    assert "USD 130,000" in log.decode()


AMAZON = {  # 5/15/40/40: yearly in years 1-2, then every six months, after a 1-year cliff
    "weights": [5, 15, 40, 40],
    "cliff_months": 12,
    "frequency_months": 6,
    "year_frequencies": [12, 12, 6, 6],
    "vest_dates": None,
}
META = {  # quarterly on fixed days
    "weights": [25, 25, 25, 25],
    "cliff_months": 0,
    "frequency_months": 3,
    "year_frequencies": None,
    "vest_dates": [[2, 15], [5, 15], [8, 15], [11, 15]],
}


@pytest.mark.parametrize("schedule", [AMAZON, META], ids=["amazon", "meta"])
def test_a_negotiated_grant_keeps_the_whole_schedule_it_is_like(client_alice, alice, schedule):
    PreferencesFactory(owner=alice)
    company = CompanyFactory(owner=alice, name="Northwind", currency="USD", share_price=100)
    transfer = OfferFactory(
        owner=alice,
        kind=Offer.Kind.INTERNAL,
        company=company,
        package__company=company,
        package__start_date=START,
        start_date=START,
    )
    EquityGrantFactory(
        package=transfer.package,
        label="Initial grant (kept)",
        value=Decimal("400000"),
        vest_start=dt.date(2025, 2, 15),
        **schedule,
    )
    _, response = log_answer(client_alice, transfer, outcome="accepted", revised_stock="200000")
    assert response.status_code == 302
    kept, negotiated = EquityGrant.objects.filter(package=transfer.package).order_by("id")
    assert kept.value == Decimal("400000")  # the grant held keeps vesting as it was
    assert negotiated.label == "Negotiated grant" and negotiated.value == Decimal("200000")
    assert {f: getattr(negotiated, f) for f in schedule} == schedule
    assert negotiated.vest_start == START


def test_a_transfer_keeps_every_grant_held_on_the_move_date(alice, client_alice):
    """A refresher granted on 1 Dec 2026 by the current job goes on vesting after a transfer
    on 14 Feb 2027: the transfer gains exactly what staying gains from it."""
    today = dt.date(2026, 12, 1)
    PreferencesFactory(
        owner=alice,
        home_currency="USD",
        basis="gross",
        decision_date=today,
        horizon_years=4,
    )
    company = CompanyFactory(
        owner=alice,
        name="Northwind",
        currency="USD",
        share_price=100,
        growth_pct=0,
        volatility_pct=0,
    )
    stay = OfferFactory(
        owner=alice,
        kind=Offer.Kind.STAY,
        company=company,
        package__company=company,
        package__is_current_job=True,
        package__start_date=today,
    )
    transfer = OfferFactory(
        owner=alice,
        kind=Offer.Kind.INTERNAL,
        company=company,
        package__company=company,
        package__start_date=dt.date(2027, 2, 14),
        start_date=dt.date(2027, 2, 14),
    )
    board = board_build(user=alice, mc_paths=0)
    before = {o.pk: board.evaluation(str(o.pk)).value for o in (stay, transfer)}
    # 1,600 shares at USD 100: 100 shares (USD 10,000) a quarter from 1 Mar 2027, none of them
    # before the move.
    EquityGrantFactory(
        package=stay.package,
        label="Refresher 2026",
        value=Decimal("160000"),
        grant_price=Decimal("100"),
        vest_start=today,
    )
    board = board_build(user=alice, mc_paths=0)
    gained = {o.pk: board.evaluation(str(o.pk)).value - before[o.pk] for o in (stay, transfer)}
    quarters = 16  # 1 Mar 2027 to 1 Dec 2030, the window's last day
    assert gained[stay.pk] == pytest.approx(quarters * 10_000)
    assert gained[transfer.pk] == pytest.approx(quarters * 10_000)
    page = client_alice.get(reverse("offers:offer_detail", args=[transfer.pk])).content.decode()
    assert "It keeps the grant your current job holds on 14 Feb 2027" in page


def test_copies_of_the_held_grants_in_a_transfer_are_removed_once(alice):
    """The migration that came with held grants removes a transfer's copies of them."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("offers.migrations.0009_transfer_held_grants")
    stay = OfferFactory(owner=alice, kind=Offer.Kind.STAY)
    transfer = OfferFactory(owner=alice, kind=Offer.Kind.INTERNAL)
    held = EquityGrantFactory(package=stay.package, value=Decimal("360000"))
    copy = EquityGrantFactory(
        package=transfer.package, label="Initial grant (kept)", value=Decimal("360000")
    )
    own = EquityGrantFactory(package=transfer.package, label="Retention", value=Decimal("50000"))
    migration.forwards(apps, None)
    assert set(EquityGrant.objects.values_list("pk", flat=True)) == {held.pk, own.pk}
    assert not EquityGrant.objects.filter(pk=copy.pk).exists()


def test_every_scenario_amount_says_its_currency(client_alice, alice, sgd_offer):
    from tests.factories import ScenarioFactory

    scenario = ScenarioFactory(owner=alice, offer=sgd_offer)
    page = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk])).content.decode()
    # Pay in the pay currency; stock in the grant's price currency (USD, not SGD).
    for label in ("Base salary", "Extra sign-on"):
        assert f"{label} (SGD)" in page
    for label in ("Extra stock a year", "Refreshers a year"):
        assert f"{label} (USD)" in page and f"{label} (SGD)" not in page
