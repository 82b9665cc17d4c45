"""Private stock: taxed at its full value at vest, discounted for the decision only."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import Grant, PackageSpec, Stock, VestingSchedule
from compensation.engine.ledger import window_ledger
from compensation.engine.projection import project_yearly
from compensation.engine.segments import Segment
from compensation.engine.window import window_yearly

START = dt.date(2027, 1, 1)
EVEN = VestingSchedule(total_months=48, frequency_months=3)


def private(discount: float, **fields) -> PackageSpec:
    values = {
        "name": "private",
        "start": START,
        "horizon_years": 2,
        "currency": "SGD",
        "base": 180_000.0,
        "grants": (Grant(value=400_000.0, grant_price=100.0, schedule=EVEN),),
        "stock": Stock(price=100.0, liquidity_discount_pct=discount),
        "tax_regime": "sg",
    }
    values.update(fields)
    return PackageSpec(**values)


def window(spec: PackageSpec) -> dict[str, np.ndarray]:
    return window_yearly(
        [Segment(spec, START)], window_start=START, years=2, prices=[np.full(24, 100.0)]
    )


@settings(max_examples=25, deadline=None)
@given(
    discount=st.floats(min_value=0.0, max_value=100.0),
    regime=st.sampled_from(["sg", "us-ca", "tw", None]),
)
def test_the_discount_changes_the_value_never_the_tax(discount, regime):
    fields = {"tax_regime": regime, "tax_rate_pct": 20.0}
    if regime in ("us-ca",):
        fields["fx_to_tax"] = 0.75  # USD a SGD
    if regime == "tw":
        fields["fx_to_tax"] = 24.0  # TWD a SGD
    full = window(private(0.0, **fields))
    cut = window(private(discount, **fields))
    assert cut["tax"] == pytest.approx(full["tax"])
    assert cut["contributions"] == pytest.approx(full["contributions"])
    assert cut["equity"] == pytest.approx(full["equity"] * (1 - discount / 100))
    assert cut["net"] == pytest.approx(full["net"] - full["equity"] * discount / 100)


def test_a_projection_taxes_the_full_value_too():
    # Flat 20 %: package year 1 vests on 1 Apr, 1 Jul, 1 Oct 2027 and 1 Jan 2028 (a vest on
    # the year's last day, start + 12 months, is in its month 12): 4 x 250 shares x 100 =
    # 100,000 at full value, 75,000 after a 25 % discount. Tax 20 % x (180,000 + 100,000) =
    # 56,000 (not 20 % x 255,000 = 51,000).
    spec = private(25.0, tax_regime=None, tax_rate_pct=20.0)
    yearly = project_yearly(spec)
    assert yearly["equity"].iloc[0] == pytest.approx(75_000.0)
    assert yearly["tax"].iloc[0] == pytest.approx(56_000.0)
    assert yearly["total_net"].iloc[0] == pytest.approx(180_000 + 75_000 - 56_000)


def test_the_ledger_shows_the_taxable_and_the_discounted_value():
    spec = private(25.0)
    ledger = window_ledger(
        [Segment(spec, START)],
        window_start=START,
        years=2,
        prices=[np.full(24, 100.0)],
        currency="SGD",
    )
    vests = [line for line in ledger.lines if line.item == "grant_vest"]
    # 4,000 shares, 250 a quarter at SGD 100: 25,000 taxable, 18,750 counted.
    assert {round(v.taxable, 6) for v in vests} == {25_000.0}
    assert {round(v.amount, 6) for v in vests} == {18_750.0}
    # The tax years' stock income is the full value: 3 vests in 2027, 4 in 2028.
    equity = {w.tax_year: w.equity for w in ledger.tax_years}
    assert equity[2027] == pytest.approx(75_000.0)
    assert equity[2028] == pytest.approx(100_000.0)
    values = window(spec)
    assert ledger.total() == pytest.approx(float(values["net"].sum()))
    undiscounted = window(dataclasses.replace(spec, stock=Stock(price=100.0)))
    assert values["tax"] == pytest.approx(undiscounted["tax"])
