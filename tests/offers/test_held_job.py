"""Your own story: a job held for years, entered on the offer form as a person types it.

The frozen clock's today (1 Dec 2026) is the decision date. docs/valuation.md, "A job you hold".
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from offers.board import board_build
from offers.models import Offer, Preferences
from tests.factories import CompanyFactory, OfferFactory, PreferencesFactory
from tests.rendered_forms import form_values, post_as_rendered

pytestmark = pytest.mark.django_db


@pytest.fixture
def acme(alice):
    # USD 100 a share, no growth and no volatility: every vest at 100 on every basis.
    return CompanyFactory(
        owner=alice,
        name="Acme",
        currency="USD",
        share_price=Decimal("100"),
        growth_pct=Decimal("0"),
        volatility_pct=Decimal("0"),
        liquidity_discount_pct=Decimal("0"),
        vesting_preset="even_4y_quarterly",
    )


def post_stay(client, acme, **fields):
    url = reverse("offers:offer_create")
    page = client.get(url)
    # The page says which base it wants.
    assert "enter today's base" in page.content.decode()
    data = form_values(page.content, action=url, page=url)
    data.update(
        name="Stay at Acme",
        kind="stay",
        company=str(acme.pk),
        currency="USD",
        base="215,000",
        raise_pct="3",
        start_date="2023-01-09",
        work_timezone="America/Los_Angeles",
        **fields,
    )
    response = client.post(reverse("offers:offer_create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Offer.objects.get(name="Stay at Acme")


def test_staying_in_a_job_held_since_2023_pays_today_s_base(client_alice, alice, acme):
    # Hired 9 Jan 2023, today's base 215,000, raise 3 %, decision date 1 Dec 2026, one year,
    # gross. Window month 1 (Dec 2026) is package month 47 and month 2 package month 48, both
    # of package year 4: 215,000/12 each. The raise falls on 9 Jan 2027: months 3-12 are
    # package months 49-58 at 221,450/12. Year 1: 2 x 17,916.67 + 10 x 18,454.17 = 220,375.
    # (Before: 215,000 x 1.03^3 = 234,936.15 in month 1, 240,809.72 for the year.)
    # The refresher of USD 40,000 a year (first granted in package year 2): the grants of
    # 9 Jan 2024/2025/2026 are history, not modelled at today's price; the 9 Jan 2027 grant
    # at USD 100 vests 40,000/16 = 2,500 on 9 Apr, 9 Jul and 9 Oct 2027: 7,500
    # (37,500 with the past three's twelve tranches).
    PreferencesFactory(
        owner=alice, horizon_years=1, home_currency="USD", basis=Preferences.Basis.GROSS
    )
    offer = post_stay(client_alice, acme, refresher_yearly="40,000")
    assert offer.package.start_date == dt.date(2023, 1, 9)
    assert offer.package.is_current_job
    # The package page, where the grant history is entered, asks for today's base too.
    package_page = client_alice.get(
        reverse("compensation:package_edit", args=[offer.package.pk])
    ).content.decode()
    assert "(staying, the pay before a transfer): today's base" in package_page
    board = board_build(user=alice, mc_paths=0)
    (ev,) = board.evaluations
    assert not ev.error
    assert ev.basis.start == dt.date(2026, 12, 1)
    assert ev.component("base") == [pytest.approx(220_375.00, abs=0.01)]
    assert ev.component("equity") == [pytest.approx(7_500.00, abs=0.01)]
    assert ev.value == pytest.approx(227_875.00, abs=0.01)


def test_a_transfer_s_months_at_the_held_job_pay_today_s_base(alice, acme):
    # The same job held since 9 Jan 2023, left for an internal transfer on 1 Mar 2027
    # (USD 300,000 from then). The current job pays window months 1-3: Dec and Jan at
    # 215,000/12, Feb (package month 49, after the 9 Jan raise) at 221,450/12:
    # 17,916.67 x 2 + 18,454.17 = 54,287.50. The transfer pays months 4-12 (from its start,
    # its own year 1): 9 x 25,000 = 225,000. Base for the year: 279,287.50.
    PreferencesFactory(
        owner=alice, horizon_years=1, home_currency="USD", basis=Preferences.Basis.GROSS
    )
    terms = {
        "package__owner": alice,
        "package__company": acme,
        "package__currency": "USD",
        "package__raise_pct": Decimal("3"),
        "package__bonus_target_pct": Decimal("0"),
    }
    OfferFactory(
        owner=alice,
        kind=Offer.Kind.STAY,
        package__is_current_job=True,
        package__base=Decimal("215000"),
        package__start_date=dt.date(2023, 1, 9),
        **terms,
    )
    transfer = OfferFactory(
        owner=alice,
        kind=Offer.Kind.INTERNAL,
        package__base=Decimal("300000"),
        package__start_date=dt.date(2027, 3, 1),
        **terms,
    )
    board = board_build(user=alice, mc_paths=0)
    (ev,) = [e for e in board.evaluations if e.offer.pk == transfer.pk]
    assert not ev.error
    assert ev.bridge == pytest.approx(54_287.50, abs=0.01)
    assert ev.component("base") == [pytest.approx(279_287.50, abs=0.01)]


def test_a_grant_a_scenario_adds_to_a_held_job_vests_from_today_not_from_2023(
    client_alice, alice, acme
):
    # Staying since 9 Jan 2023 with no grant; a scenario asks USD 10,000 a year more stock:
    # one grant of 4 x 10,000 = 40,000 at today's USD 100 (400 shares), even over 4 years,
    # quarterly. Made on the decision date, 1 Dec 2026, it vests 2,500 on 1 Mar, 1 Jun, 1 Sep
    # and 1 Dec 2027 inside the one-year window (a vest on the horizon's last day counts:
    # docs/engine.md): 10,000. Vesting from the job's start instead (9 Jan 2023), 15 of its 16
    # tranches would fall before today and the window would hold one, 9 Jan 2027: 2,500.
    from offers.scenarios.evaluation import scenario_evaluation, scenario_spec
    from offers.services import scenario_accept
    from tests.factories import ScenarioFactory

    PreferencesFactory(
        owner=alice, horizon_years=1, home_currency="USD", basis=Preferences.Basis.GROSS
    )
    offer = post_stay(client_alice, acme)
    scenario = ScenarioFactory(owner=alice, offer=offer, extra_stock_yearly=Decimal("10000"))
    board = board_build(user=alice, mc_paths=0)
    spec = scenario_spec(scenario, board.prefs, fx_to_home=1.0, fx=board.fx)
    (grant,) = spec.grants
    assert grant.vest_start == dt.date(2026, 12, 1)
    ev = scenario_evaluation(
        scenario, board.prefs, board.fx, today=dt.date(2026, 12, 1), basis=board.basis
    )
    assert ev.component("equity") == [pytest.approx(10_000.00, abs=0.01)]
    # Accepting writes the grant the page valued: made today.
    scenario_accept(user=alice, scenario=scenario)
    assert [g.vest_start for g in offer.package.grants.all()] == [dt.date(2026, 12, 1)]


def test_a_new_job_s_added_grant_still_vests_from_its_start(client_alice, alice, acme):
    """A job that starts after today: a grant negotiated now vests from the start date."""
    from offers.scenarios.evaluation import scenario_spec
    from tests.factories import ScenarioFactory

    PreferencesFactory(owner=alice, horizon_years=1, home_currency="USD")
    offer = OfferFactory(
        owner=alice,
        package__owner=alice,
        package__company=acme,
        package__currency="USD",
        package__start_date=dt.date(2027, 3, 1),
    )
    scenario = ScenarioFactory(owner=alice, offer=offer, extra_stock_yearly=Decimal("10000"))
    board = board_build(user=alice, mc_paths=0)
    spec = scenario_spec(scenario, board.prefs, fx_to_home=1.0, fx=board.fx)
    assert [g.vest_start for g in spec.grants][-1] == dt.date(2027, 3, 1)


def test_a_retention_grant_answered_on_a_held_job_vests_from_the_answer(client_alice, alice, acme):
    # Staying since 9 Jan 2023; the manager's answer of 27 Nov 2026 grants USD 40,000 more.
    # The grant is made that day: it vests from 27 Nov 2026 (first tranche 27 Feb 2027).
    from offers.services_negotiation import negotiation_entry_create

    PreferencesFactory(owner=alice, horizon_years=1, home_currency="USD")
    offer = post_stay(client_alice, acme)
    entry = negotiation_entry_create(
        user=alice,
        offer=offer,
        data={
            "asked_on": dt.date(2026, 11, 20),
            "channel": "own_manager",
            "topic": "stock",
            "ask": "A retention grant.",
        },
    )
    url = reverse("offers:negotiation_entry_answer", args=[entry.pk])
    post_as_rendered(
        client_alice, url, outcome="accepted", answered_on="2026-11-27", revised_stock="40,000"
    )
    (grant,) = offer.package.grants.all()
    assert (grant.value, grant.vest_start) == (Decimal("40000.00"), dt.date(2026, 11, 27))
