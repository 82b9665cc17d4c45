"""The board taxes the current job's first tax year on the whole year's pay (docs/valuation.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from offers.board import board_build
from offers.models import Offer, Preferences
from tests.factories import OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db

DECISION = dt.date(2025, 7, 1)


def test_staying_from_a_1_july_decision_date_is_taxed_on_the_whole_first_tax_year(alice):
    # SGD 120,000 a year, no raise, no bonus, regime `sg`, the current job's package starting
    # on the decision date 1 July 2025 (as the demo's does), a one-year window, home SGD.
    # Hand figures (tests/compensation/engine/test_engine_tax_years.py, SG_CURRENT_YEAR_1):
    # 2025's income is Jan-Jun at the current job + the window's Jul-Dec = 120,000, tax
    # 7,835, the window's half 3,917.50; 2026 likewise 3,917.50: year 1 tax 7,835
    # (5,797.50 before the months before the decision date counted).
    PreferencesFactory(
        owner=alice,
        decision_date=DECISION,
        horizon_years=1,
        home_currency="SGD",
        basis=Preferences.Basis.NET,
    )
    OfferFactory(
        owner=alice,
        kind=Offer.Kind.STAY,
        package__is_current_job=True,
        package__currency="SGD",
        package__base=Decimal("120000"),
        package__raise_pct=Decimal("0"),
        package__bonus_target_pct=Decimal("0"),
        package__start_date=DECISION,
        package__tax_regime="sg",
    )
    board = board_build(user=alice, mc_paths=0)
    ev = board.evaluations[0]
    assert not ev.error
    assert ev.component("total") == [pytest.approx(120_000.0)]
    assert ev.component("tax") == [pytest.approx(7_835.0, abs=1.0)]
    assert ev.value == pytest.approx(120_000.0 - 7_835.0, abs=1.0)


def test_a_new_job_from_the_decision_date_is_taxed_with_the_current_jobs_earlier_months(alice):
    # The same SGD 120,000 a year at a new employer from the decision date: 2025's return still
    # holds Jan-Jun at the current job (it taxes the whole year's 120,000), so the new job's
    # year-1 tax is staying's 7,835, not the 5,797.50 of a year that began on 1 July.
    PreferencesFactory(
        owner=alice,
        decision_date=DECISION,
        horizon_years=1,
        home_currency="SGD",
        basis=Preferences.Basis.NET,
    )
    terms = {
        "package__currency": "SGD",
        "package__base": Decimal("120000"),
        "package__raise_pct": Decimal("0"),
        "package__bonus_target_pct": Decimal("0"),
        "package__start_date": DECISION,
        "package__tax_regime": "sg",
    }
    OfferFactory(owner=alice, kind=Offer.Kind.STAY, package__is_current_job=True, **terms)
    new = OfferFactory(owner=alice, kind=Offer.Kind.EXTERNAL, name="New", **terms)
    board = board_build(user=alice, mc_paths=0)
    (ev,) = [e for e in board.evaluations if e.offer.pk == new.pk]
    assert not ev.error
    assert [s.current for s in ev.segments] == [True, False]
    assert ev.component("total") == [pytest.approx(120_000.0)]
    assert ev.component("tax") == [pytest.approx(7_835.0, abs=1.0)]
