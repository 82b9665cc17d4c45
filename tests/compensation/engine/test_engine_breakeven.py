"""Break-even extra stock or sign-on."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest

from compensation.engine import (
    EngineInputError,
    Grant,
    PackageSpec,
    Stock,
    VestingSchedule,
    breakeven,
)

START = dt.date(2025, 1, 1)


def offer(name: str, base: float, volatility: float = 0.0, **kw) -> PackageSpec:
    fields = {
        "name": name,
        "start": START,
        "base": base,
        "grants": (Grant(value=400_000),),
        "stock": Stock(price=100.0, volatility_pct=volatility),
    }
    fields.update(kw)
    return PackageSpec(**fields)


def test_stock_breakeven_is_the_yearly_gap():
    result = breakeven(offer("A", 200_000), offer("B", 230_000), years=4)
    assert result["extra"] == pytest.approx(30_000)
    assert result["extra_grant_value"] == pytest.approx(120_000)
    assert result["a_cumulative_home"] == pytest.approx(4 * 300_000)
    assert result["b_cumulative_home"] == pytest.approx(4 * 330_000)
    assert result["monte_carlo"] is None


def test_sign_on_breakeven_and_negative_when_a_is_ahead():
    result = breakeven(offer("A", 200_000), offer("B", 230_000), years=2, component="sign_on")
    assert result["extra"] == pytest.approx(60_000)
    ahead = breakeven(offer("A", 250_000), offer("B", 230_000), years=2, component="sign_on")
    assert ahead["extra"] == pytest.approx(-40_000)


def test_breakeven_respects_fx_and_a_back_loaded_schedule():
    back_loaded = VestingSchedule.preset("amazon_5_15_40_40")
    a = offer("A", 200_000, grants=(Grant(value=400_000, schedule=back_loaded),), fx_to_home=0.5)
    b = offer("B", 130_000)
    result = breakeven(a, b, years=1)
    # Year 1 of A (home): 100,000 + 5% of 400,000 x 0.5 = 110,000; B: 230,000.
    # An extra X per year is a 4X grant on A's schedule: 5% of 4X x 0.5 = 0.1X in year 1.
    assert result["extra"] == pytest.approx(120_000 / 0.1)


def test_unreachable_when_the_extra_never_vests_in_time():
    cliffed = VestingSchedule(total_months=24, cliff_months=24, year_weights=(50, 50))
    a = offer("A", 100_000, grants=(Grant(value=1, schedule=cliffed),))
    result = breakeven(a, offer("B", 200_000), years=1)
    assert result["extra"] is None and result["reachable"] is False


def test_monte_carlo_median_breakeven():
    a, b = offer("A", 200_000, volatility=0.0), offer("B", 230_000, volatility=0.0)
    result = breakeven(a, b, years=4, rng=np.random.default_rng(1), paths=2_000)
    assert result["monte_carlo"]["extra"] == pytest.approx(30_000, rel=1e-6)
    a, b = offer("A", 200_000, volatility=30), offer("B", 230_000, volatility=60)
    result = breakeven(
        a, b, years=4, component="sign_on", rng=np.random.default_rng(1), paths=5_000
    )
    mc = result["monte_carlo"]
    assert mc["extra"] == pytest.approx(mc["b_median_home"] - mc["a_median_home"], rel=1e-6)
    stock = breakeven(a, b, years=4, rng=np.random.default_rng(1), paths=5_000)["monte_carlo"]
    assert stock["extra"] is not None and np.isfinite(stock["extra"])


def test_monte_carlo_breakeven_with_stock_is_reproducible():
    a = offer("A", 200_000, volatility=40)
    b = dataclasses.replace(a, name="B", base=240_000)
    first = breakeven(a, b, 4, rng=np.random.default_rng(5), paths=3_000)
    second = breakeven(a, b, 4, rng=np.random.default_rng(5), paths=3_000)
    assert first == second


def test_invalid_component():
    with pytest.raises(EngineInputError) as info:
        breakeven(offer("A", 1), offer("B", 2), 4, component="base")  # type: ignore[arg-type]
    assert info.value.field == "component"
