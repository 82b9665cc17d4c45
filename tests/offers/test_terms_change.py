"""A scenario's value is the value accepting it writes: one change, applied once, two uses."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from offers.board import board_build
from offers.models import Offer, Scenario
from offers.scenarios.evaluation import scenario_evaluation
from offers.services import scenario_accept
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    OfferFactory,
    PreferencesFactory,
    RefresherFactory,
    SignOnFactory,
)

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 12, 1)


class _Rollback(Exception):
    """Undo one example's writes."""


@pytest.fixture
def setup(alice):
    PreferencesFactory(owner=alice, home_currency="TWD", decision_date=TODAY)
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(owner=alice, currency="USD", share_price=Decimal("120"))
    offers = {}
    for kind in (Offer.Kind.EXTERNAL, Offer.Kind.INTERNAL):
        offer = OfferFactory(
            owner=alice,
            kind=kind,
            company=company,
            package__company=company,
            package__currency="SGD",
            package__base=Decimal("300000"),
            start_date=dt.date(2027, 2, 15),
            package__start_date=dt.date(2027, 2, 15),
        )
        # Amazon's 5/15/40/40: yearly in years 1-2, every six months in years 3-4.
        EquityGrantFactory(
            package=offer.package,
            value=Decimal("100000"),
            grant_price=Decimal("100"),
            price_currency="USD",
            weights=[5, 15, 40, 40],
            frequency_months=6,
            year_frequencies=[12, 12, 6, 6],
            vest_start=dt.date(2027, 2, 15),
        )
        SignOnFactory(package=offer.package, amount=Decimal("40000"))
        RefresherFactory(package=offer.package, yearly_value=Decimal("20000"))
        offers[kind] = offer
    return alice, offers


money = st.decimals(min_value=0, max_value=200000, places=2, allow_nan=False)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from([Offer.Kind.EXTERNAL, Offer.Kind.INTERNAL]),
    base=st.none() | st.decimals(min_value=100000, max_value=500000, places=2),
    raise_pct=st.none() | st.decimals(min_value=0, max_value=10, places=1),
    extra_sign_on=money,
    extra_stock_yearly=money,
    refresher_yearly=st.none() | money,
    # The stock amounts' currency: the grant's (USD), the pay's (an older scenario's) or
    # another the user's rates reach (through USD).
    stock_currency=st.sampled_from(["USD", "SGD", "TWD"]),
    start_date=st.none() | st.dates(dt.date(2027, 1, 1), dt.date(2027, 12, 31)),
)
def test_the_value_a_scenario_shows_is_the_value_accepting_it_writes(
    setup,
    kind,
    base,
    raise_pct,
    extra_sign_on,
    extra_stock_yearly,
    refresher_yearly,
    stock_currency,
    start_date,
):
    user, offers = setup
    try:
        with transaction.atomic():
            offer = offers[kind]
            scenario = Scenario.objects.create(
                owner=user,
                offer=offer,
                name="What if",
                base=base,
                raise_pct=raise_pct,
                extra_sign_on=extra_sign_on,
                extra_stock_yearly=extra_stock_yearly,
                refresher_yearly=refresher_yearly,
                stock_currency=stock_currency,
                start_date=start_date,
            )
            board = board_build(user=user, today=TODAY, mc_paths=0)
            shown = scenario_evaluation(
                Scenario.objects.select_related("offer__package").get(pk=scenario.pk),
                board.prefs,
                board.fx,
                today=TODAY,
                basis=board.basis,
                current=board.current,
            )
            assert not shown.error
            scenario_accept(user=user, scenario=scenario, expected_version=scenario.version)
            accepted = board_build(user=user, today=TODAY, mc_paths=0).evaluation(str(offer.pk))
            assert accepted.value == pytest.approx(shown.value, rel=1e-12, abs=1e-6)
            raise _Rollback
    except _Rollback:
        pass
