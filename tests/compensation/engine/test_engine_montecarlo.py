"""Monte Carlo: GBM prices, zero-volatility equivalence, shared tickers, reproducibility."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pandas as pd
import pytest

from compensation.engine import (
    VESTING_PRESETS,
    EngineInputError,
    Grant,
    PackageSpec,
    Refresher,
    SignOn,
    Stock,
    project_yearly,
    simulate,
)
from compensation.engine.montecarlo import select_percentiles
from compensation.engine.prices import simulate_price_paths

START = dt.date(2025, 1, 1)


def offer(
    name: str = "Acme", volatility: float = 30.0, ticker: str | None = None, **kw
) -> PackageSpec:
    fields = {
        "name": name,
        "start": START,
        "base": 180_000.0,
        "raise_pct": 3.0,
        "bonus_target_pct": 15.0,
        "sign_on": (SignOn(40_000, 1),),
        "grants": (Grant(value=400_000, schedule=VESTING_PRESETS["google_33_33_22_12"]),),
        "refreshers": (Refresher(60_000, VESTING_PRESETS["even_4y_quarterly"]),),
        "stock": Stock(price=120.0, growth_pct=8.0, volatility_pct=volatility, ticker=ticker),
    }
    fields.update(kw)
    return PackageSpec(**fields)


def test_zero_volatility_equals_deterministic_projection():
    specs = [
        offer(volatility=0.0),
        offer(
            "Beta",
            volatility=0.0,
            base=150_000,
            fx_to_home=0.8,
            grants=(Grant(shares=3000, schedule=VESTING_PRESETS["amazon_5_15_40_40"]),),
            stock=Stock(price=80, growth_pct=-5, liquidity_discount_pct=30),
        ),
        offer("Cash", volatility=0.0, grants=(), refreshers=()),
    ]
    result = simulate(specs, 500, np.random.default_rng(7))
    for spec in specs:
        expected = project_yearly(spec)
        rows = result.yearly[result.yearly["option"] == spec.name]
        cumulative = result.cumulative[result.cumulative["option"] == spec.name]
        for column in ("p10", "p50", "p90", "mean"):
            np.testing.assert_allclose(rows[column], expected["total_home"], rtol=1e-12)
            np.testing.assert_allclose(cumulative[column], expected["cumulative_home"], rtol=1e-12)


def test_mean_matches_deterministic_projection_with_volatility():
    # E[price] is the deterministic projection, so the mean yearly total matches it.
    spec = offer(volatility=25.0)
    result = simulate([spec], 40_000, np.random.default_rng(3))
    np.testing.assert_allclose(result.yearly["mean"], project_yearly(spec)["total"], rtol=0.01)
    assert (result.yearly["p10"] < result.yearly["p50"]).all()
    assert (result.yearly["p50"] < result.yearly["p90"]).all()


def test_gbm_median_matches_closed_form():
    for s0, mu, sigma in ((100.0, 0.08, 0.30), (40.0, 0.02, 0.50)):
        prices = simulate_price_paths(s0, mu, sigma, 48, 100_000, np.random.default_rng(11))
        assert prices.shape == (100_000, 48)
        for month in (12, 24, 48):
            expected = s0 * np.exp((mu - sigma**2 / 2) * month / 12)
            assert np.median(prices[:, month - 1]) == pytest.approx(expected, rel=0.01)
        assert prices[:, 11].mean() == pytest.approx(s0 * np.exp(mu), rel=0.01)


def test_same_ticker_shares_paths():
    a, b = offer("A", ticker="ACME"), offer("B", ticker="ACME")
    result = simulate([a, b], 5_000, np.random.default_rng(5))
    assert result.prob_beats.loc["A", "B"] == 0 and result.prob_beats.loc["B", "A"] == 0
    left = result.cumulative[result.cumulative["option"] == "A"].drop(columns="option")
    right = result.cumulative[result.cumulative["option"] == "B"].drop(columns="option")
    pd.testing.assert_frame_equal(left.reset_index(drop=True), right.reset_index(drop=True))
    # Without a ticker the two stocks move independently.
    independent = simulate([offer("A"), offer("B")], 5_000, np.random.default_rng(5))
    assert 0.45 < independent.prob_beats.loc["A", "B"] < 0.55


def test_same_ticker_more_stock_always_wins():
    small = offer("small", ticker="ACME")
    big = dataclasses.replace(
        small, name="big", grants=(Grant(value=500_000, schedule=small.grants[0].schedule),)
    )
    result = simulate([small, big], 2_000, np.random.default_rng(1))
    assert result.prob_beats.loc["big", "small"] == 1.0
    assert result.prob_beats.loc["small", "big"] == 0.0


def test_reproducible_with_same_seed():
    specs = [offer("A"), offer("B", volatility=50)]
    first = simulate(specs, 3_000, np.random.default_rng(42), chunk_size=700)
    second = simulate(specs, 3_000, np.random.default_rng(42), chunk_size=700)
    pd.testing.assert_frame_equal(first.yearly, second.yearly)
    pd.testing.assert_frame_equal(first.prob_beats, second.prob_beats)
    other = simulate(specs, 3_000, np.random.default_rng(43), chunk_size=700)
    assert not first.yearly.equals(other.yearly)


def test_result_shape_and_labels():
    specs = [offer("A"), offer("A"), offer("C", volatility=0)]
    result = simulate(specs, 1_000, np.random.default_rng(0), percentiles=(5, 50, 95))
    assert list(result.yearly.columns) == ["option", "year", "mean", "p5", "p50", "p95"]
    assert list(result.prob_beats.index) == ["A", "A (2)", "C"]
    assert len(result.yearly) == 3 * 4 and result.years == 4 and result.paths == 1_000
    assert result.median_price_paths is not None
    assert result.median_price_paths.shape == (4, 3)
    probs = result.prob_beats.to_numpy()
    assert (np.diag(probs) == 0).all()
    assert (probs + probs.T <= 1.0 + 1e-12).all()


def test_chunking_does_not_change_statistics():
    specs = [offer()]
    whole = simulate(specs, 20_000, np.random.default_rng(9), chunk_size=20_000)
    chunked = simulate(specs, 20_000, np.random.default_rng(9), chunk_size=3_000)
    np.testing.assert_allclose(whole.cumulative["p50"], chunked.cumulative["p50"], rtol=0.01)


def test_select_percentiles_matches_numpy():
    values = np.random.default_rng(2).standard_normal((3, 1001)).astype(np.float32)
    got = select_percentiles(values, (0, 10, 33.3, 50, 90, 100))
    expected = np.percentile(values.astype(np.float64), [0, 10, 33.3, 50, 90, 100], axis=1).T
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_invalid_arguments():
    with pytest.raises(EngineInputError) as info:
        simulate([offer()], 0, np.random.default_rng(0))
    assert info.value.field == "paths"
    with pytest.raises(EngineInputError) as info:
        simulate([], 10, np.random.default_rng(0))
    assert info.value.field == "options"
    with pytest.raises(EngineInputError) as info:
        simulate([offer()], 10, np.random.default_rng(0), basis="euros")  # type: ignore[arg-type]
    assert info.value.field == "basis"
    with pytest.raises(EngineInputError) as info:
        simulate([offer()], 10, np.random.RandomState(0))  # type: ignore[arg-type]
    assert info.value.field == "rng"
