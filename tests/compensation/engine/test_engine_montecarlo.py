"""Monte Carlo of packages (the CLI's `simulate`, on the app's `window.chunked_paths`): GBM
prices, zero-volatility equivalence, shared tickers, reproducibility, chunks."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
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
)
from compensation.engine.cli import simulate
from compensation.engine.prices import simulate_price_paths
from compensation.engine.segments import Segment
from compensation.engine.window import chunked_paths

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


def rows(result: dict, key: str, option: str) -> dict[str, list[float]]:
    """Return one option's yearly (or cumulative) rows as columns."""
    found = [row for row in result[key] if row["option"] == option]
    return {column: [row[column] for row in found] for column in ("mean", "p10", "p50", "p90")}


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
    result = simulate(specs, 500, seed=7)
    for spec in specs:
        expected = project_yearly(spec)
        yearly, cumulative = (
            rows(result, "yearly", spec.name),
            rows(result, "cumulative", spec.name),
        )
        for column in ("p10", "p50", "p90", "mean"):
            np.testing.assert_allclose(yearly[column], expected["total_home"], rtol=1e-12)
            np.testing.assert_allclose(cumulative[column], expected["cumulative_home"], rtol=1e-12)


def test_mean_matches_deterministic_projection_with_volatility():
    # E[price] is the deterministic projection, so the mean yearly total matches it.
    spec = offer(volatility=25.0)
    yearly = rows(simulate([spec], 40_000, seed=3), "yearly", "Acme")
    np.testing.assert_allclose(yearly["mean"], project_yearly(spec)["total"], rtol=0.01)
    assert all(lo < mid < hi for lo, mid, hi in zip(yearly["p10"], yearly["p50"], yearly["p90"]))


def test_gbm_median_matches_closed_form():
    for s0, mu, sigma in ((100.0, 0.08, 0.30), (40.0, 0.02, 0.50)):
        prices = simulate_price_paths(s0, mu, sigma, 48, 100_000, np.random.default_rng(11))
        assert prices.shape == (100_000, 48)
        for month in (12, 24, 48):
            expected = s0 * np.exp((mu - sigma**2 / 2) * month / 12)
            assert np.median(prices[:, month - 1]) == pytest.approx(expected, rel=0.01)
        assert prices[:, 11].mean() == pytest.approx(s0 * np.exp(mu), rel=0.01)


def test_same_ticker_shares_paths():
    result = simulate([offer("A", ticker="ACME"), offer("B", ticker="ACME")], 5_000, seed=5)
    assert result["prob_beats"]["A"]["B"] == 0 and result["prob_beats"]["B"]["A"] == 0
    assert rows(result, "cumulative", "A") == rows(result, "cumulative", "B")
    # On two tickers the two stocks move independently.
    independent = simulate([offer("A", ticker="AAA"), offer("B", ticker="BBB")], 5_000, seed=5)
    assert 0.45 < independent["prob_beats"]["A"]["B"] < 0.55


def test_same_ticker_more_stock_always_wins():
    small = offer("small", ticker="ACME")
    big = dataclasses.replace(
        small, name="big", grants=(Grant(value=500_000, schedule=small.grants[0].schedule),)
    )
    result = simulate([small, big], 2_000, seed=1)
    assert result["prob_beats"]["big"]["small"] == 1.0
    assert result["prob_beats"]["small"]["big"] == 0.0


def test_reproducible_with_same_seed_and_labels_made_unique():
    specs = [offer("A"), offer("A", volatility=50), offer("C", volatility=0)]
    first, second = simulate(specs, 3_000, seed=42), simulate(specs, 3_000, seed=42)
    assert first == second
    assert simulate(specs, 3_000, seed=43)["yearly"] != first["yearly"]
    assert list(first["prob_beats"]) == ["A", "A (2)", "C"]
    assert len(first["yearly"]) == 3 * 4 and first["years"] == 4 and first["paths"] == 3_000
    probs = np.array([list(row.values()) for row in first["prob_beats"].values()])
    assert (np.diag(probs) == 0).all() and (probs + probs.T <= 1.0 + 1e-12).all()


def test_a_later_start_counts_from_its_own_start_in_the_one_window():
    later = offer("Later", volatility=0.0, start=dt.date(2026, 1, 1), grants=(), refreshers=())
    result = simulate([offer(volatility=0.0), later], 100, seed=0)
    # The window runs 2025-2028 from the earliest start: nothing in 2025, then 180,000 base
    # + 15 % bonus (paid in the year it is earned, as the projection pays it) + 40,000 sign-on.
    yearly = rows(result, "yearly", "Later")["mean"]
    assert yearly[0] == 0.0
    assert yearly[1] == pytest.approx(project_yearly(later)["total_home"].iloc[0])


def test_chunks_are_reproducible_and_do_not_change_the_statistics():
    options = {"a": [Segment(offer(), START)]}
    kw = {"window_start": START, "years": 4, "paths": 20_000}
    whole = chunked_paths(options, **kw, rng=np.random.default_rng(9), chunk=20_000)
    chunked = chunked_paths(options, **kw, rng=np.random.default_rng(9), chunk=3_000)
    again = chunked_paths(options, **kw, rng=np.random.default_rng(9), chunk=3_000)
    assert whole is not None and chunked is not None and again is not None
    assert chunked["a"].shape == (20_000, 4) and np.array_equal(chunked["a"], again["a"])
    np.testing.assert_allclose(
        np.median(whole["a"].sum(axis=1)), np.median(chunked["a"].sum(axis=1)), rtol=0.01
    )


def test_a_stopped_run_returns_nothing_after_its_first_chunk():
    seen: list[int] = []
    stopped = chunked_paths(
        {"a": [Segment(offer(), START)]},
        window_start=START,
        years=4,
        paths=1_000,
        rng=np.random.default_rng(0),
        chunk=300,
        progress=lambda percent: seen.append(percent) or False,
    )
    assert stopped is None and seen == [25]


def test_invalid_arguments():
    with pytest.raises(EngineInputError) as info:
        simulate([offer()], 0, seed=0)
    assert info.value.field == "paths"
    with pytest.raises(EngineInputError) as info:
        simulate([], 10, seed=0)
    assert info.value.field == "options"
    with pytest.raises(EngineInputError) as info:
        chunked_paths(
            {"a": [Segment(offer(), START)]},
            window_start=START,
            years=4,
            paths=10,
            rng=np.random.RandomState(0),
        )  # type: ignore[arg-type]
    assert info.value.field == "rng"
