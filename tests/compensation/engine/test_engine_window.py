"""The common valuation window, checked by hand: bridge months, tax per segment, price paths."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import Grant, PackageSpec, Stock, VestingSchedule
from compensation.engine.errors import EngineInputError
from compensation.engine.segments import Segment
from compensation.engine.window import (
    percentile_prices,
    summarise_paths,
    window_paths,
    window_yearly,
)

D = dt.date(2026, 12, 1)
START = dt.date(2027, 3, 1)  # three months after the decision date
FLAT = Stock(price=10.0)  # no growth, no volatility: the price stays 10


VEST_START = dt.date(2026, 11, 30)  # vests 28 Feb, 30 May, 30 Aug, 30 Nov: the day before START


def current_job(**kw: object) -> PackageSpec:
    """USD 120,000 base, 4,800 shares vesting 300 a quarter from 30 Nov 2026, 30 % tax."""
    grant = Grant(
        shares=4800.0, schedule=VestingSchedule(frequency_months=3), vest_start=VEST_START
    )
    args: dict[str, object] = {
        "name": "current",
        "start": D,
        "base": 120_000.0,
        "grants": (grant,),
        "stock": FLAT,
        "tax_rate_pct": 30.0,
    }
    args.update(kw)
    return PackageSpec(**args)  # type: ignore[arg-type]


def new_job() -> PackageSpec:
    """USD 240,000 base from 1 Mar 2027, no stock, 20 % tax."""
    return PackageSpec(name="new", start=START, base=240_000.0, stock=FLAT, tax_rate_pct=20.0)


def value(segments: list[Segment], years: int = 4) -> dict[str, np.ndarray]:
    prices = [percentile_prices(s.spec.stock, 12 * years) for s in segments]
    return window_yearly(segments, window_start=D, years=years, prices=prices)


def test_leaving_three_months_after_the_decision_counts_three_months_of_current_pay():
    out = value([Segment(current_job(), D, START), Segment(new_job(), START)])
    # Year 1: current base 3 x 10,000 and one quarterly vest of 300 shares x 10 = 3,000;
    # then 9 months of the new base at 20,000.
    assert out["base"][0] == pytest.approx(3 * 10_000 + 9 * 20_000)
    assert out["equity"][0] == pytest.approx(3_000)
    assert out["total"][0] == pytest.approx(213_000)
    # Years 2-4: the new job only; the current grant's later vests are forfeited.
    assert out["total"][1:].tolist() == pytest.approx([240_000] * 3)
    assert out["equity"][1:].sum() == 0


def test_after_tax_applies_each_jobs_own_rate_to_its_own_months():
    out = value([Segment(current_job(), D, START), Segment(new_job(), START)])
    # 33,000 taxed at 30 % and 180,000 at 20 %.
    assert out["tax"][0] == pytest.approx(33_000 * 0.30 + 180_000 * 0.20)
    assert out["net"][0] == pytest.approx(23_100 + 144_000)
    assert out["net"][1] == pytest.approx(240_000 * 0.8)
    assert out["net"].sum() == pytest.approx(out["total"].sum() - out["tax"].sum())


def test_staying_counts_the_whole_window_and_the_forfeit_shows_as_a_difference():
    stay = value([Segment(current_job(), D)])
    # 120,000 base and 4 vests of 300 shares x 10 each year.
    assert stay["total"].tolist() == pytest.approx([132_000] * 4)
    leave = value([Segment(current_job(), D, START), Segment(new_job(), START)])
    forfeited = 4800 * 10 - 3_000  # every vest after the start date
    assert stay["equity"].sum() - leave["equity"].sum() == pytest.approx(forfeited)


def test_a_job_that_started_years_ago_is_valued_from_the_decision_date_only():
    hired = dt.date(2022, 12, 1)
    grant = Grant(shares=4800.0, schedule=VestingSchedule(frequency_months=3), vest_start=hired)
    spec = PackageSpec(
        name="old", start=hired, base=120_000.0, raise_pct=10.0, grants=(grant,), stock=FLAT
    )
    out = value([Segment(spec, D)], years=2)
    # Package year 5 starts on 1 Dec 2026: base 120,000 x 1.1^4; the 4-year grant is done.
    assert out["base"][0] == pytest.approx(120_000 * 1.1**4)
    assert out["base"][1] == pytest.approx(120_000 * 1.1**5)
    assert out["equity"].sum() == 0


def test_stock_priced_in_another_currency_converts_at_its_own_rate():
    seg = Segment(current_job(tax_rate_pct=0.0, fx_to_home=0.5), D, stock_fx_to_home=2.0)
    out = value([seg])
    assert out["base"][0] == pytest.approx(120_000 * 0.5)
    assert out["equity"][0] == pytest.approx(4 * 3_000 * 2.0)


def test_the_median_price_path_is_the_gbm_median():
    stock = Stock(price=10.0, growth_pct=10.0, volatility_pct=20.0)
    path = percentile_prices(stock, 24)
    # P0 x exp((ln 1.1 - 0.2^2 / 2) t) at t = 1 and 2 years.
    assert path[11] == pytest.approx(10 * 1.1 * math.exp(-0.02))
    assert path[23] == pytest.approx(10 * 1.1**2 * math.exp(-0.04))
    cautious = percentile_prices(stock, 24, 10)
    assert cautious[11] == pytest.approx(10 * 1.1 * math.exp(-0.02 + 0.2 * -1.2815515655446004))


def test_monte_carlo_median_matches_the_median_path():
    stock = Stock(price=10.0, growth_pct=8.0, volatility_pct=35.0, ticker="X")
    grant = Grant(shares=4000.0, schedule=VestingSchedule(frequency_months=12), vest_start=D)
    spec = PackageSpec(name="s", start=D, base=0.0, grants=(grant,), stock=stock)
    sim = summarise_paths(
        window_paths(
            {"a": [Segment(spec, D)]},
            window_start=D,
            years=4,
            paths=40_000,
            rng=np.random.default_rng(7),
        )
    )
    deterministic = value([Segment(spec, D)])["total"]
    # Each year has one vest, so the yearly median is that vest at the median price.
    assert sim.yearly["a"][1] == pytest.approx(deterministic, rel=0.01)


def test_options_on_the_same_ticker_share_their_prices():
    stock = Stock(price=10.0, volatility_pct=40.0, ticker="NWD")
    grant = Grant(shares=1000.0, schedule=VestingSchedule(frequency_months=12), vest_start=D)
    a = PackageSpec(name="a", start=D, base=1.0, grants=(grant,), stock=stock)
    b = PackageSpec(name="b", start=D, base=0.0, grants=(grant,), stock=stock)
    sim = summarise_paths(
        window_paths(
            {"a": [Segment(a, D)], "b": [Segment(b, D)]},
            window_start=D,
            years=2,
            paths=500,
            rng=np.random.default_rng(1),
        )
    )
    # a is b plus one unit of base a year on the very same prices: it wins on every path.
    assert sim.prob_beats["a"]["b"] == 1.0


def test_bad_prices_are_refused():
    with pytest.raises(EngineInputError):
        window_yearly([Segment(new_job(), START)], window_start=D, years=1, prices=[np.zeros(12)])
    with pytest.raises(EngineInputError):
        window_yearly([Segment(new_job(), START)], window_start=D, years=1, prices=[])


@settings(max_examples=40, deadline=None)
@given(months=st.integers(min_value=0, max_value=60), base=st.floats(1_000, 1_000_000))
def test_the_window_always_holds_twelve_months_of_pay_a_year(months, base):
    """Whatever the start date, current job and new job together pay every month of the window."""
    start = dt.date(2026 + (11 + months) // 12, (11 + months) % 12 + 1, 1)
    cur = PackageSpec(name="c", start=D, base=base, stock=FLAT)
    new = PackageSpec(name="n", start=start, base=base, stock=FLAT)
    out = value([Segment(cur, D, start), Segment(new, start)], years=4)
    assert out["base"].tolist() == pytest.approx([base] * 4)


def test_win_shares_equal_the_pairwise_means():
    """The vectorised win shares are exactly the share of paths on which a beats b."""
    from compensation.engine.window import summarise_paths

    rng = np.random.default_rng(7)
    per_option = {k: rng.normal(100, 20, size=(500, 4)) for k in ("a", "b", "c")}
    per_option["d"] = per_option["a"].copy()  # ties never count as a win
    sim = summarise_paths(per_option)
    finals = {k: np.cumsum(v, axis=1)[:, -1] for k, v in per_option.items()}
    for a in finals:
        for b in finals:
            assert sim.prob_beats[a][b] == float(np.mean(finals[a] > finals[b]))


def test_each_simulated_path_is_valued_as_that_one_path_would_be():
    """Many paths are valued at once, what no share price changes (cash, contributions)
    worked out once for all of them: each path's figures must be those of that path alone."""
    from compensation.engine import Refresher, SignOn
    from compensation.engine.prices import simulate_price_paths

    jan = dt.date(2026, 1, 1)
    stock = Stock(price=100.0, growth_pct=6.0, volatility_pct=35.0, ticker="SIM")
    current = PackageSpec(
        name="current",
        start=dt.date(2024, 1, 1),
        currency="TWD",
        base=3_000_000.0,
        bonus_target_pct=20.0,
        grants=(Grant(shares=400.0, schedule=VestingSchedule(frequency_months=3)),),
        refreshers=(Refresher(300_000.0),),
        stock=stock,
        fx_to_home=1 / 32,
        tax_regime="tw",
    )
    singapore = PackageSpec(
        name="sg",
        start=dt.date(2026, 7, 1),
        currency="SGD",
        base=240_000.0,
        bonus_target_pct=15.0,
        sign_on=(SignOn(50_000.0, instalments=((0, 0.5), (6, 0.5))),),
        grants=(Grant(shares=4000.0, schedule=VestingSchedule(frequency_months=3)),),
        refreshers=(Refresher(40_000.0),),
        stock=stock,
        fx_to_home=0.75,
        tax_regime="sg-cpf",  # employee CPF contributions on the cash pay
    )
    leaving = [Segment(current, jan, dt.date(2026, 7, 1), current=True), Segment(singapore, jan)]
    staying = [Segment(current, jan, current=True)]
    drawn = simulate_price_paths(100.0, 0.06, 0.35, 48, 3, np.random.default_rng(3))
    for path in drawn:
        # Three paths whose month-by-month median is ``path`` (the months outside the window
        # are valued on the median path), so the middle one is valued exactly as ``path``.
        paths = np.stack([path * 0.5, path, path * 2.0])
        for segments in (leaving, staying):
            many = window_yearly(
                segments, window_start=jan, years=4, prices=[paths] * len(segments)
            )
            alone = window_yearly(
                segments, window_start=jan, years=4, prices=[path] * len(segments)
            )
            for column in ("total", "tax", "contributions", "net"):
                assert many[column].shape == (3, 4)
                # Equal but for the last bits of rounding (sums taken in another order).
                np.testing.assert_allclose(many[column][1], alone[column], rtol=1e-12)
            assert alone["contributions"].sum() > 0 or segments is staying
            assert many["net"][0].sum() < many["net"][1].sum() < many["net"][2].sum()
