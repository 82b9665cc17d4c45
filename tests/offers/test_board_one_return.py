"""A move from California to Washington is one federal return on the board and the offer
page's ledger (docs/valuation.md, "Two jobs in one tax year")."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from offers.board import board_build
from offers.ledger import ledger_view
from offers.models import Offer, Preferences
from tests.factories import OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db

DECISION = dt.date(2027, 1, 1)


@pytest.fixture
def seattle(alice):
    # The hand figures of tests/compensation/engine/test_engine_one_return.py: California at
    # USD 240,000 for January 2027, Washington at 300,000 from 15 Feb (February to December,
    # base by whole months), no bonus, stock or raise; one federal return on 295,000.
    PreferencesFactory(
        owner=alice,
        decision_date=DECISION,
        horizon_years=1,
        home_currency="USD",
        basis=Preferences.Basis.NET,
    )
    plain = {
        "package__currency": "USD",
        "package__raise_pct": Decimal("0"),
        "package__bonus_target_pct": Decimal("0"),
    }
    OfferFactory(
        owner=alice,
        kind=Offer.Kind.STAY,
        package__is_current_job=True,
        package__base=Decimal("240000"),
        package__start_date=DECISION,
        package__tax_regime="us-ca",
        **plain,
    )
    return OfferFactory(
        owner=alice,
        name="Seattle",
        package__base=Decimal("300000"),
        package__start_date=dt.date(2027, 2, 15),
        package__tax_regime="us-wa",
        **plain,
    )


def test_the_board_taxes_a_move_to_washington_on_one_federal_return(alice, seattle):
    board = board_build(user=alice, mc_paths=0)
    ev = board.evaluation(str(seattle.pk))
    assert not ev.error
    assert ev.component("total") == [pytest.approx(295_000.0)]
    # 2027 by the 2026 tables (the latest): 66,384.25 federal + 11,439 Social Security
    # + 5,132.50 Medicare + 175.09 California + 260 SDI + 1,595 WA Cares (two returns:
    # 79,435.84).
    assert ev.component("tax") == [pytest.approx(84_985.84, abs=0.01)]
    view = ledger_view(ev)
    assert view.total == pytest.approx(ev.value, abs=0.01)
    (year,) = [w for w in view.tax_years if w.working.tax_year == 2027]
    assert [p.name for p in year.parts].count("federal income tax") == 1


def test_the_offer_page_shows_both_jobs_together(client_alice, alice, seattle):
    response = client_alice.get(reverse("offers:offer_detail", args=[seattle.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('data-tax-year="2027"') == 1
    assert "Both jobs together" in html
