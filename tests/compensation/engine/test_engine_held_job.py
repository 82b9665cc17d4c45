"""A job held on the decision date: today's base, raises from the next anniversary after it,
refreshers modelled from it on (docs/valuation.md, "A job you hold")."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import PackageSpec, Refresher, Stock, VestingSchedule
from compensation.engine.segments import Segment, segment_base
from compensation.engine.transfer import held_grants
from compensation.engine.window import window_yearly

DECISION = dt.date(2026, 12, 1)
HIRED = dt.date(2023, 1, 9)
EVEN = VestingSchedule(total_months=48, frequency_months=3)


def held(**fields) -> PackageSpec:
    base = {
        "name": "current",
        "start": HIRED,
        "horizon_years": 1,
        "currency": "USD",
        "base": 215_000.0,
        "raise_pct": 3.0,
        "stock": Stock(price=100.0),
        "as_of": DECISION,
    }
    base.update(fields)
    return PackageSpec(**base)


def test_today_s_base_is_paid_in_the_window_s_first_month():
    # Hired 9 Jan 2023, 215,000 entered on 1 Dec 2026. Window month 1 is package month 47
    # (9 Nov-8 Dec 2026, package year 4), month 2 package month 48 (year 4), months 3-12
    # package months 49-58 (year 5, from the 9 Jan 2027 anniversary):
    # 2 x 215,000/12 + 10 x 215,000 x 1.03/12 = 35,833.33 + 184,541.67 = 220,375.00.
    # (Compounding the three anniversaries already past gave 215,000 x 1.03^3 = 234,936 in
    # month 1 and 240,809.72 for the year.)
    spec = held()
    base = segment_base(Segment(spec, DECISION, current=True), DECISION, 12)
    assert base[0] == pytest.approx(215_000 / 12)
    assert base[1] == pytest.approx(215_000 / 12)
    assert base[2] == pytest.approx(221_450 / 12)
    assert base.sum() == pytest.approx(220_375.00, abs=0.01)


def test_without_a_decision_date_the_package_is_a_new_job_raised_from_its_start():
    spec = held(as_of=None)
    base = segment_base(Segment(spec, DECISION), DECISION, 12)
    assert base[0] == pytest.approx(215_000 * 1.03**3 / 12)


def test_a_decision_date_on_an_anniversary_holds_that_day_s_raise():
    # Decision 9 Jan 2027, the fourth anniversary: 215,000 is the base from that day; the next
    # raise is on 9 Jan 2028, window month 13.
    day = dt.date(2027, 1, 9)
    spec = held(as_of=day, horizon_years=2)
    base = segment_base(Segment(spec, day, current=True), day, 24)
    assert set(np.round(base[:12] * 12, 6)) == {215_000.0}
    assert base[12] == pytest.approx(221_450 / 12)


def test_the_bonus_is_on_today_s_base_too():
    # Bonus 10 % on each package year's last day: 8 Jan 2027 ends package year 4, on the
    # base held today: 21,500 (not 23,493.6 on 215,000 x 1.03^3).
    spec = held(bonus_target_pct=10.0)
    values = window_yearly(
        [Segment(spec, DECISION, current=True)],
        window_start=DECISION,
        years=1,
        prices=[np.full(12, 100.0)],
    )
    assert values["bonus"][0] == pytest.approx(21_500.0)


def test_a_refresher_series_is_modelled_from_the_decision_date_on():
    # A yearly refresher of USD 40,000 from package year 2, 4 years quarterly, price 100
    # flat. Its grants of 9 Jan 2024, 2025 and 2026 are history (grants of their own, with
    # their prices): not modelled. The first modelled grant is 9 Jan 2027, priced at that
    # month's price; its tranches of 9 Apr, 9 Jul and 9 Oct 2027 fall in year 1:
    # 3 x 40,000/16 = 7,500 (37,500 with the three past grants' 12 tranches at today's price).
    spec = held(refreshers=(Refresher(yearly_value=40_000.0, schedule=EVEN, first_year=2),))
    values = window_yearly(
        [Segment(spec, DECISION, current=True)],
        window_start=DECISION,
        years=1,
        prices=[np.full(12, 100.0)],
    )
    assert values["equity"][0] == pytest.approx(7_500.0)


def test_a_transfer_keeps_only_the_refreshers_granted_from_the_decision_date():
    # Moving on 1 Mar 2027: of the modelled series only the 9 Jan 2027 grant is held.
    spec = held(refreshers=(Refresher(yearly_value=40_000.0, schedule=EVEN, first_year=2),))
    grants = held_grants(
        spec, dt.date(2027, 3, 1), window_start=DECISION, prices=np.full(12, 100.0)
    )
    assert [g.vest_start for g in grants] == [dt.date(2027, 1, 9)]


@settings(max_examples=60, deadline=None)
@given(
    hired=st.dates(min_value=dt.date(2000, 1, 1), max_value=DECISION),
    raise_pct=st.floats(min_value=0.0, max_value=20.0),
    base=st.floats(min_value=1_000.0, max_value=2_000_000.0),
)
def test_a_held_job_pays_the_base_entered_until_its_next_anniversary(hired, raise_pct, base):
    spec = held(start=hired, raise_pct=raise_pct, base=base, horizon_years=2)
    monthly = segment_base(Segment(spec, DECISION, current=True), DECISION, 24)
    assert monthly[0] == pytest.approx(base / 12)
    # Raised once a year at most: never more than one raise within a year of the decision.
    assert monthly[:12].max() <= base * (1 + raise_pct / 100) / 12 * (1 + 1e-12)
    assert np.all(np.diff(monthly) >= -1e-9)
