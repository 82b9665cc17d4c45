"""Futures for the chance of the best choice: correlated prices and variance reduction."""

from __future__ import annotations

import datetime
import math

import numpy as np
import pytest

from compensation.engine import VESTING_PRESETS, Grant, PackageSpec, Stock
from compensation.engine.errors import EngineInputError
from compensation.engine.futures import correlated_prices, window_futures
from compensation.engine.segments import Segment
from offers.logic.choice import Futures, choice_chances, estimate_mean
from offers.logic.ranking import OptionFacts, RankingPrefs

START = datetime.date(2026, 1, 1)
A = Stock(price=100.0, growth_pct=8.0, volatility_pct=40.0, ticker="AAA")
B = Stock(price=50.0, growth_pct=5.0, volatility_pct=30.0, ticker="BBB")


def log_returns(prices: np.ndarray) -> np.ndarray:
    """Return monthly log returns, flattened."""
    return np.diff(np.log(prices), axis=1).ravel()


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.8])
def test_different_tickers_move_together_by_the_stated_correlation(rho: float) -> None:
    drawn = correlated_prices(
        {("ticker", "AAA"): A, ("ticker", "BBB"): B},
        months=24,
        paths=4000,
        rng=np.random.default_rng(1),
        correlation=rho,
    )
    a, b = drawn.prices[("ticker", "AAA")], drawn.prices[("ticker", "BBB")]
    got = np.corrcoef(log_returns(a), log_returns(b))[0, 1]
    # 92,000 monthly returns: the sample correlation's error is below 0.005.
    assert got == pytest.approx(rho, abs=0.02)


def test_expected_price_is_the_closed_form_and_pairs_mirror() -> None:
    drawn = correlated_prices(
        {("ticker", "AAA"): A}, months=48, paths=20_000, rng=np.random.default_rng(2)
    )
    prices = drawn.prices[("ticker", "AAA")]
    # E[P_t] = P0 (1 + g)^t: after 4 years 100 x 1.08^4 = 136.05.
    mean, se = estimate_mean(prices[:, -1], pairs=True)
    assert abs(mean - 100 * 1.08**4) <= 4 * se
    # Antithetic: path i + n/2 has the opposite shocks, so the log prices mirror the drift.
    drift = np.log(100) + (math.log(1.08) - 0.5 * 0.4**2) * np.arange(1, 49) / 12
    assert np.allclose(np.log(prices[:10_000]) - drift, -(np.log(prices[10_000:]) - drift))
    assert np.allclose(drawn.control_means, 1.0) and drawn.controls.shape == (20_000, 4)


def spec(name: str, stock: Stock, base: float, grant: float) -> PackageSpec:
    return PackageSpec(
        name=name,
        start=START,
        horizon_years=4,
        base=base,
        grants=(Grant(value=grant, schedule=VESTING_PRESETS["meta_quarterly"]),),
        stock=stock,
    )


def test_the_same_ticker_shares_one_path() -> None:
    options = {
        "stay": [Segment(spec("stay", A, 200_000, 400_000), START)],
        "move": [Segment(spec("move", A, 220_000, 200_000), START)],
    }
    fv = window_futures(
        options, window_start=START, years=4, paths=2000, rng=np.random.default_rng(3)
    )
    # Same stock: the values are one linear function of the other (base and grant differ).
    slope, intercept = np.polyfit(fv.values[:, 1], fv.values[:, 0], 1)
    assert np.allclose(fv.values[:, 0], slope * fv.values[:, 1] + intercept, rtol=1e-9)


def facts(key: str, overlap: float) -> OptionFacts:
    return OptionFacts(
        key=key,
        name=key,
        kind="external",
        comp_value=0.0,
        first_year_total=0.0,
        remote_weeks_allowed=0.0,
        remote_policy="hybrid",
        overlap_hours=overlap,
    )


def test_variance_reduced_chances_agree_with_plain_and_need_a_quarter_of_the_paths() -> None:
    options = {
        "a": [Segment(spec("a", A, 200_000, 600_000), START)],
        "b": [Segment(spec("b", B, 260_000, 420_000), START)],
        "c": [
            Segment(
                spec("c", Stock(price=20.0, volatility_pct=50.0, ticker="C"), 240_000, 450_000),
                START,
            )
        ],
    }
    prefs = RankingPrefs(weights={"comp": 3, "timezone": 1})
    ranked = [facts("a", 3), facts("b", 6), facts("c", 5)]
    n = 6000

    def chances(vr: bool, seed: int) -> dict[str, tuple[float, float]]:
        fv = window_futures(
            options,
            window_start=START,
            years=4,
            paths=n,
            rng=np.random.default_rng(seed),
            antithetic=vr,
        )
        futures = (
            Futures(
                money=fv.values,
                pairs=True,
                controls=fv.controls,
                control_means=fv.control_means,
                features=fv.features,
                feature_sample=fv.feature_sample,
            )
            if vr
            else Futures(money=fv.values)
        )
        result = choice_chances(ranked, prefs, futures)
        return {k: (e.value, e.se) for k, e in result.chances.items()}

    reduced, plain = chances(True, 10), chances(False, 11)
    for key in "abc":
        (r, r_se), (p, p_se) = reduced[key], plain[key]
        assert abs(r - p) <= 3 * math.hypot(r_se, p_se), key
    contender = max(plain, key=lambda k: plain[k][0])
    assert 0.2 < plain[contender][0] < 0.8  # a real contest, not a sure thing
    # The same standard error needs (SE ratio)^2 of the paths: at most a quarter.
    assert (reduced[contender][1] / plain[contender][1]) ** 2 <= 0.25


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(EngineInputError):
        correlated_prices({("t",): A}, months=12, paths=3, rng=np.random.default_rng(0))
    with pytest.raises(EngineInputError):
        correlated_prices(
            {("t",): A}, months=12, paths=4, rng=np.random.default_rng(0), correlation=1.5
        )
