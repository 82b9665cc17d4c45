"""Each payment is taxed in the tax year of its own date, whatever day the window starts
(`window.segment_tax_columns`, `tax.month_tax_years`): a month's base is paid in the calendar
month it starts in, a bonus, sign-on or vest on its day; the first tax year holds the whole
year's income of the job held on it, its base and bonus paid before the decision date too.

Every figure is computed by hand in the comments from the tables in
``compensation/engine/tax/data``.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import BonusCycle, Grant, PackageSpec, Stock, VestingSchedule
from compensation.engine.ledger import window_ledger
from compensation.engine.segment_tax import segment_tax_columns
from compensation.engine.segments import Segment, segment_values
from compensation.engine.tax.compute import month_tax_years
from compensation.engine.window import window_yearly

ONE_UNIT = 1.0
MOVE = dt.date(2027, 2, 15)


def taipei(start: dt.date) -> PackageSpec:
    """TWD 3,600,000 a year (300,000 a month) under Taiwan's rule, no stock, no bonus."""
    return PackageSpec(
        name="tw",
        start=start,
        horizon_years=1,
        currency="TWD",
        base=3_600_000.0,
        stock=Stock(price=1.0),
        tax_regime="tw",
    )


def test_a_window_from_2_december_has_a_2026_tax_year_holding_decembers_pay():
    # From 2 Dec 2026 the first month runs to 1 Jan 2027: December's pay, in tax year 2026
    # (dated by its last day it was 2027's, and 2026 had no month of the window).
    years = month_tax_years(dt.date(2026, 12, 2), 1, 3, 1)
    assert list(years) == [2026, 2027, 2027]
    decision = dt.date(2026, 12, 2)
    spec = taipei(decision)
    segment = Segment(spec, decision, current=True)
    columns = segment_tax_columns(
        segment, decision, 12, np.ones(12), segment_values(segment, decision, 12, np.ones(12))
    )
    assert columns is not None
    december = columns.lead  # the first window month's column
    assert columns.tax_years[december] == 2026
    assert columns.cash[december] == pytest.approx(300_000.0)
    # 2026 holds the whole year's base: 11 months before the window and December.
    assert columns.cash[columns.tax_years == 2026].sum() == pytest.approx(3_600_000.0)


def test_the_current_jobs_december_is_taxed_with_its_year_from_any_decision_day():
    # The current job in Taipei until 15 Feb 2027, then a job elsewhere (untaxed here: a flat
    # 0 %). Its window months are December and January, whichever day in early December the
    # window starts.
    # 2026 (2026 tables): 12 x 300,000 = 3,600,000, taxable 3,600,000 - 101,000 - 136,000 -
    #   227,000 = 3,136,000: 5% x 610,000 = 30,500; 12% x 770,000 = 92,400; 20% x 1,390,000 =
    #   278,000; 30% x 366,000 = 109,800 -> 510,700, of which December bears 1/12: 42,558.33
    # 2027: January's 300,000 alone is below the 464,000 of deductions: no tax.
    # Year 1: 42,558.33. (With December dated in 2027, 2027 held December and January,
    # 600,000, taxed from the lowest bracket: 5% x 136,000 = 6,800.)
    for decision in (dt.date(2026, 12, 1), dt.date(2026, 12, 2)):
        new = PackageSpec(name="new", start=MOVE, horizon_years=1, base=100_000.0)
        segments = [Segment(taipei(decision), decision, MOVE, current=True), Segment(new, MOVE)]
        out = window_yearly(segments, window_start=decision, years=1, prices=[np.ones(12)] * 2)
        assert out["tax"][0] == pytest.approx(42_558.33, abs=ONE_UNIT)


CALENDAR_MARCH = BonusCycle(start_month=1, payout_month=3, payout_day=15, prorate_first_year=False)


def test_a_bonus_paid_before_the_decision_date_is_in_the_first_tax_year():
    # The current job's package starts on the decision date, 1 Dec 2026 (as the demo's does):
    # USD 120,000 a year in Washington, a 10 % calendar-year bonus paid on 15 March.
    # 2026 (the 2026 tables): base 12 x 10,000 = 120,000 and the bonus paid on 15 Mar 2026,
    #   12,000: 132,000: federal 115,900 taxable: 10% x 12,400 (1,240) + 12% x 38,000 (4,560)
    #   + 22% x 55,300 (12,166) + 24% x 10,200 (2,448) = 20,414.00; FICA 7.65% x 132,000 =
    #   10,098.00; WA Cares 0.58% = 765.60 -> 31,277.60, of which December bears
    #   10,000 / 132,000 = 2,369.52
    # 2027 (the 2026 tables, the latest): base 120,000 and the bonus of 15 Mar 2027 (for
    #   2026), 12,000: 132,000 -> 31,277.60, of which the window's January to November
    #   (110,000 + 12,000) bear 28,908.08
    # Year 1: 2,369.52 + 28,908.08 = 31,277.60. (Without the March 2026 bonus, 2026 was taxed
    # on 120,000, 27,446.00, and December bore 2,287.17.)
    decision = dt.date(2026, 12, 1)
    spec = PackageSpec(
        name="wa",
        start=decision,
        horizon_years=1,
        base=120_000.0,
        bonus_target_pct=10.0,
        bonus_cycle=CALENDAR_MARCH,
        stock=Stock(price=1.0),
        tax_regime="us-wa",
    )
    segments = [Segment(spec, decision, current=True)]
    out = window_yearly(segments, window_start=decision, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(31_277.60, abs=ONE_UNIT)
    ledger = window_ledger(
        segments, window_start=decision, years=1, prices=[np.ones(12)], currency="USD"
    )
    (y2026,) = [w for w in ledger.tax_years if w.tax_year == 2026]
    assert y2026.cash == pytest.approx(132_000.0)
    assert y2026.tax == pytest.approx(31_277.60, abs=0.01)
    december = [x for x in ledger.lines if x.component == "tax" and x.tax_year == 2026]
    assert sum(-x.amount for x in december) == pytest.approx(2_369.52, abs=0.01)
    assert ledger.total() == pytest.approx(float(out["net"].sum()), abs=0.01)


QUARTERLY = VestingSchedule(total_months=48, frequency_months=3)


def _income_by_tax_year(
    spec: PackageSpec, decision: dt.date, months: int
) -> dict[int, tuple[float, float]]:
    """Return the cash and stock of each tax year the window holds income in, whole years."""
    segment = Segment(spec, decision, current=True)
    prices = np.ones(months)
    values = segment_values(segment, decision, months, prices)
    columns = segment_tax_columns(segment, decision, months, prices, values)
    assert columns is not None
    inside = (columns.months >= columns.lead) & (columns.months < columns.lead + months)
    held = {int(y) for y in columns.tax_years[inside & ((columns.cash + columns.equity) > 0)]}
    return {
        y: (
            round(float(columns.cash[columns.tax_years == y].sum()), 6),
            round(float(columns.equity[columns.tax_years == y].sum()), 6),
        )
        for y in held
    }


@settings(max_examples=40, deadline=None)
@given(
    month=st.integers(1, 12),
    day=st.integers(1, 27),
    payout=st.tuples(st.integers(1, 12), st.integers(1, 28)),
    vest_start=st.dates(dt.date(2023, 1, 1), dt.date(2025, 12, 31)),
    regime=st.sampled_from(["us-wa", "hk"]),
    months=st.sampled_from([12, 24]),
)
def test_moving_the_decision_date_by_a_day_inside_a_month_moves_no_payment(
    month, day, payout, vest_start, regime, months
):
    # A job held for years (a calendar-year or April-year rule), its bonus paid on any day and
    # its quarterly vests on any day: each tax year the window holds income in has the same
    # whole income (base by calendar month, each payment and vest on its own day) from the
    # decision date d as from d + 1. (Dated by its last day, the month from 2 Dec was
    # January's, from 1 Dec December's.)
    spec = PackageSpec(
        name="held",
        start=dt.date(2020, 1, 1),
        horizon_years=8,
        currency="USD" if regime == "us-wa" else "HKD",
        base=120_000.0,
        bonus_target_pct=10.0,
        bonus_cycle=BonusCycle(start_month=1, payout_month=payout[0], payout_day=payout[1]),
        grants=(Grant(shares=16_000.0, schedule=QUARTERLY, vest_start=vest_start),),
        stock=Stock(price=1.0),
        tax_regime=regime,
    )
    decision = dt.date(2026, month, day)
    before = _income_by_tax_year(spec, decision, months)
    after = _income_by_tax_year(spec, decision + dt.timedelta(days=1), months)
    # A payment on the day the later window gains (its last) may open a tax year for it
    # alone; every tax year both windows hold income in is the same.
    both = before.keys() & after.keys()
    assert len(both) >= months // 12
    assert {y: before[y] for y in both} == {y: after[y] for y in both}
