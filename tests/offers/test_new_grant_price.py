"""A grant a change adds is priced at today's share price, not at the first grant's
(docs/valuation.md, "A grant added today"). Through the scenario and negotiation pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.package_parts import EquityGrant
from compensation.terms import (
    NEGOTIATED_GRANT,
    GrantTerms,
    Money,
    PackageTerms,
    TermsChange,
    apply_change,
)
from offers.models import Offer, Preferences, Scenario
from offers.scenarios.evaluation import scenario_view
from offers.services_negotiation import negotiation_entry_create
from tests.factories import CompanyFactory, EquityGrantFactory, OfferFactory, PreferencesFactory
from tests.rendered_forms import form_values, post_as_rendered

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 12, 1)
EVEN = [25.0, 25.0, 25.0, 25.0]


@pytest.fixture
def stay(alice):
    # Staying at Northwind: USD 180 a share today (no growth, no volatility), a job whose
    # terms start on the decision date (as the demo's), one grant of history: USD 360,000
    # at USD 95 from 1 Dec 2022, vesting quarterly over 4 years: fully vested on the
    # decision date (its last tranche on 1 Dec 2026 is already yours).
    PreferencesFactory(
        owner=alice, horizon_years=1, home_currency="USD", basis=Preferences.Basis.GROSS
    )
    northwind = CompanyFactory(
        owner=alice,
        name="Northwind",
        ticker="NWND",
        share_price=Decimal("180"),
        growth_pct=Decimal("0"),
        volatility_pct=Decimal("0"),
    )
    offer = OfferFactory(
        owner=alice,
        kind=Offer.Kind.STAY,
        name="Stay at Northwind",
        package__owner=alice,
        package__company=northwind,
        package__is_current_job=True,
        package__currency="USD",
        package__base=Decimal("200000"),
        package__raise_pct=Decimal("0"),
        package__bonus_target_pct=Decimal("0"),
        package__start_date=TODAY,
    )
    EquityGrantFactory(
        package=offer.package,
        label="Initial grant (2022)",
        value=Decimal("360000"),
        grant_price=Decimal("95"),
        price_currency="USD",
        vest_start=dt.date(2022, 12, 1),
        weights=EVEN,
        frequency_months=3,
    )
    return offer


def test_a_scenario_s_extra_stock_is_priced_at_today_s_share_price(client_alice, alice, stay):
    # "USD 10,000 a year more stock" over the first grant's 4 years: a USD 40,000 grant at
    # today's USD 180 = 222.222 shares, 13.8889 a quarter, vesting 1 Mar, 1 Jun, 1 Sep and
    # 1 Dec 2027 (the window's last day counts) at USD 180: 4 x 2,500 = 10,000 more in year 1.
    # At the first grant's USD 95 it was 421.05 shares: 4 x 26.316 x 180 = 18,947.37.
    response = client_alice.post(
        reverse("offers:scenario_create"), {"offer": stay.pk, "name": "More stock"}
    )
    scenario = Scenario.objects.get(owner=alice, name="More stock")
    page = reverse("offers:scenario_detail", args=[scenario.pk])
    url = reverse("offers:scenario_update", args=[scenario.pk])
    data = form_values(client_alice.get(page).content, action=url, page=page)
    data.update(extra_stock_yearly="10,000")
    response = client_alice.post(url, data)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.extra_stock_yearly == Decimal("10000")

    view = scenario_view(user=alice, scenario=scenario, today=TODAY)
    assert not view.ev.error and not view.original_ev.error
    (added,) = [g for g in view.ev.spec.grants if g.value == pytest.approx(40_000.0)]
    assert added.grant_price == pytest.approx(180.0)
    more = view.ev.component("equity")[0] - view.original_ev.component("equity")[0]
    assert more == pytest.approx(10_000.0, abs=0.01)


def test_a_negotiated_grant_is_priced_at_today_s_share_price(client_alice, alice, stay):
    # A retention grant of USD 40,000 answered on the negotiation page: staying keeps the
    # grants it holds, so the answer adds a "Negotiated grant", at USD 180 (222.2222 shares),
    # not at the 2022 grant's USD 95 (421.0526 shares).
    entry = negotiation_entry_create(
        user=alice,
        offer=stay,
        data={
            "asked_on": dt.date(2026, 11, 20),
            "channel": "own_manager",
            "topic": "stock",
            "ask": "A retention grant.",
        },
    )
    url = reverse("offers:negotiation_entry_answer", args=[entry.pk])
    post_as_rendered(
        client_alice,
        url,
        outcome="accepted",
        answered_on="2026-11-27",
        answer="A retention grant of USD 40,000.",
        revised_stock="40,000",
    )
    grant = EquityGrant.objects.get(package=stay.package, label=NEGOTIATED_GRANT)
    assert grant.value == Decimal("40000.00")
    assert grant.grant_price == Decimal("180.0000")


@settings(max_examples=60, deadline=None)
@given(
    first_price=st.decimals(min_value="1", max_value="5000", places=2),
    today=st.decimals(min_value="1", max_value="5000", places=2),
    usd_sgd=st.decimals(min_value="0.5", max_value="3", places=4),
    yearly=st.decimals(min_value="1000", max_value="500000", places=0),
)
def test_an_added_grant_is_worth_its_value_at_today_s_price(first_price, today, usd_sgd, yearly):
    # Stock priced in USD today; the first grant stated in SGD at its own old price. The
    # grant a change adds is in the first grant's currency (SGD), priced at today's USD price
    # converted: its shares x today's price in SGD give back the value added.
    def rate(a: str, b: str) -> Decimal:
        return {("USD", "SGD"): usd_sgd, ("SGD", "USD"): 1 / usd_sgd}.get((a, b), Decimal(1))

    terms = PackageTerms(
        currency="SGD",
        base=Decimal("200000"),
        start_date=TODAY,
        grants=(
            GrantTerms(
                grant_price=first_price,
                vest_start=dt.date(2022, 12, 1),
                value=Decimal("100000"),
                price_currency="SGD",
            ),
        ),
        stock_currency="USD",
        share_price=today,
    )
    change = TermsChange(extra_stock_yearly=Money(yearly, "SGD"))
    added = apply_change(terms, change, rate).grants[-1]
    assert added.price_currency == "SGD"
    assert added.grant_price == max(
        (today * usd_sgd).quantize(Decimal("0.0001")), Decimal("0.0001")
    )
    assert added.value == yearly * 4
