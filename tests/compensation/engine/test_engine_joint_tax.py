"""A leaving option's two jobs in one place are taxed together in a shared tax year
(`segment_tax.option_tax`, `tax.joint_tax`): the brackets do not start again at the new job."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from compensation.engine import PackageSpec, Stock
from compensation.engine.ledger import window_ledger
from compensation.engine.segment_tax import tax_groups
from compensation.engine.segments import Segment
from compensation.engine.window import window_yearly

DECISION = dt.date(2026, 1, 1)
MOVE = dt.date(2026, 7, 1)

# Singapore resident tax (the YA 2026 table, earned income relief 1,000; a one-year window
# from 1 Jan 2026 is exactly the 2026 income year). SGD home currency, no stock, no bonus.
# Current job SGD 120,000 a year until 1 July: 6 x 10,000 = 60,000.
# New job SGD 180,000 a year from 1 July: 6 x 15,000 = 90,000.
# Together: 150,000, taxable 149,000:
#   2% x 10,000 = 200; 3.5% x 10,000 = 350; 7% x 40,000 = 2,800; 11.5% x 40,000 = 4,600;
#   15% x 29,000 = 4,350                                                   -> 12,300
# Shared by income: the current job 12,300 x 60/150 = 4,920, the new job 12,300 x 90/150 = 7,380.
# Taxed apart (the old code), each from the lowest bracket:
#   60,000: taxable 59,000: 200 + 350 + 7% x 19,000 = 1,330          -> 1,880
#   90,000: taxable 89,000: 200 + 350 + 2,800 + 11.5% x 9,000 = 1,035 -> 4,385
#   together 6,265, understated by 6,035.
JOINT_TAX = 12_300.0
CURRENT_SHARE = 12_300.0 * 60_000 / 150_000
NEW_SHARE = 12_300.0 * 90_000 / 150_000
APART_TAX = 1_880.0 + 4_385.0


def singapore(base: float, start: dt.date, regime: str = "sg") -> PackageSpec:
    fx_to_tax = None if regime.startswith("sg") else 24.0  # 1 SGD = 24 TWD
    return PackageSpec(
        name=f"sg{base:.0f}",
        start=start,
        horizon_years=1,
        currency="SGD",
        base=base,
        stock=Stock(price=1.0),
        tax_regime=regime,
        fx_to_tax=fx_to_tax,
    )


def leaving(new_regime: str = "sg") -> list[Segment]:
    current = singapore(120_000.0, DECISION)
    new = singapore(180_000.0, MOVE, new_regime)
    return [Segment(current, DECISION, MOVE, current=True), Segment(new, MOVE)]


def test_two_singapore_jobs_in_one_year_are_taxed_on_the_combined_income():
    segments = leaving()
    out = window_yearly(segments, window_start=DECISION, years=1, prices=[np.ones(12)] * 2)
    assert out["total"][0] == pytest.approx(150_000.0)
    assert out["tax"][0] == pytest.approx(JOINT_TAX, abs=0.01)
    assert out["tax"][0] != pytest.approx(APART_TAX, abs=1.0)
    assert out["net"][0] == pytest.approx(150_000.0 - JOINT_TAX, abs=0.01)


def test_the_ledger_shares_the_joint_tax_by_income_and_adds_up():
    segments = leaving()
    prices = [np.ones(12)] * 2
    out = window_yearly(segments, window_start=DECISION, years=1, prices=prices)
    ledger = window_ledger(segments, window_start=DECISION, years=1, prices=prices, currency="SGD")
    tax = {
        k: sum(x.amount for x in ledger.lines if x.item == "tax" and x.segment == k) for k in (0, 1)
    }
    assert tax[0] == pytest.approx(-CURRENT_SHARE, abs=0.01)
    assert tax[1] == pytest.approx(-NEW_SHARE, abs=0.01)
    assert ledger.total() == pytest.approx(float(out["net"][0]), abs=1e-6)
    assert round(ledger.total()) == round(150_000.0 - JOINT_TAX)
    # One working for 2026, on the two jobs' income together, its slices the hand figures.
    (working,) = [w for w in ledger.tax_years if w.tax_year == 2026]
    assert working.segments == (0, 1)
    assert working.cash == pytest.approx(150_000.0)
    assert working.tax == pytest.approx(JOINT_TAX, abs=0.01)
    slices = working.parts[0].brackets.slices
    assert [round(s.tax, 2) for s in slices if s.tax] == [200.0, 350.0, 2_800.0, 4_600.0, 4_350.0]
    for line in ledger.lines:
        assert abs(line.amount) == pytest.approx(
            line.quantity * line.unit_price * line.share * line.fx, rel=1e-9
        )


def test_jobs_under_different_rules_are_still_taxed_apart():
    # The new job in Taiwan: each place taxes its own income.
    assert tax_groups(leaving("tw")) == [[0], [1]]
    assert tax_groups(leaving()) == [[0, 1]]
    current = singapore(120_000.0, DECISION)
    alone = window_yearly(
        [Segment(current, DECISION, MOVE, current=True)],
        window_start=DECISION,
        years=1,
        prices=[np.ones(12)],
    )
    both = window_yearly(leaving("tw"), window_start=DECISION, years=1, prices=[np.ones(12)] * 2)
    # The Singapore part is the current job's own 1,880 (hand figures above) in both.
    assert alone["tax"][0] == pytest.approx(1_880.0, abs=0.01)
    ledger = window_ledger(
        leaving("tw"), window_start=DECISION, years=1, prices=[np.ones(12)] * 2, currency="SGD"
    )
    sg_tax = -sum(x.amount for x in ledger.lines if x.item == "tax" and x.segment == 0)
    assert sg_tax == pytest.approx(1_880.0, abs=0.01)
    assert ledger.total() == pytest.approx(float(both["net"][0]), abs=1e-6)
