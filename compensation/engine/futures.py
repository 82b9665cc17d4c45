"""Simulated futures of every option's window value: correlated share prices, variance reduced.

Each share-price process (one per ticker: options on the same ticker share its path) is a
geometric Brownian motion whose monthly shocks are ``sqrt(rho) M + sqrt(1 - rho) E``: ``M``
the market's shock, shared by every stock, ``E`` the stock's own. Two different stocks'
shocks are so correlated by ``rho`` (the market correlation, stated and changeable).

Variance reduction: the shocks come in antithetic pairs (path i + n/2 is path i with every
shock negated), and each stock's simulated price, averaged over each window year and divided
by its known expectation ``P0 (1 + g)^t``, is a control variate whose exact mean is 1
(`offers.logic.choice.estimate_mean` uses both).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from .errors import EngineInputError, check_int, check_number
from .prices import DT, stream
from .segments import Segment
from .spec import Stock
from .window import check_column, price_processes, stock_key, window_yearly

DEFAULT_MARKET_CORRELATION = 0.5
MARKET_KEY = ("market",)
# The surrogate's features: each volatile stock's price (over its expectation) every half year.
FEATURE_MONTHS = 6
# How many more futures of the features alone than full futures (the surrogate's mean).
SAMPLE_FACTOR = 8


@dataclass(frozen=True)
class Reduction:
    """What variance reduction uses of simulated futures (`offers.logic.choice`).

    ``controls`` (paths, k) have exact means ``control_means`` (k,): each volatile stock's
    price over its expectation, averaged over each window year. ``features`` (paths, j) are
    the stocks' prices over their expectations every ``FEATURE_MONTHS`` months;
    ``feature_sample`` (SAMPLE_FACTOR x paths, j) the same features in independent futures
    drawn without the months between (cheap, many); ``antithetic``: paths come in pairs.
    """

    controls: np.ndarray
    control_means: np.ndarray
    features: np.ndarray
    feature_sample: np.ndarray
    antithetic: bool


@dataclass(frozen=True)
class PricePaths(Reduction):
    """Month-end prices of each share-price process, ``prices[key]`` (paths, months)."""

    prices: dict[tuple[object, ...], np.ndarray]


def _shocks(
    rng: np.random.Generator, key: tuple[object, ...], market: np.ndarray, rho: float
) -> np.ndarray:
    """Return one stock's standard-normal shocks moving with the market's by ``rho``."""
    own = stream(rng, key).standard_normal(market.shape)
    if rho > 0:
        own *= math.sqrt(1.0 - rho)
        own += math.sqrt(rho) * market
    return own


def correlated_prices(
    stocks: Mapping[tuple[object, ...], Stock],
    *,
    months: int,
    paths: int,
    rng: np.random.Generator,
    correlation: float = DEFAULT_MARKET_CORRELATION,
    antithetic: bool = True,
) -> PricePaths:
    """Return GBM month-end prices of each stock, (paths, months), moving with the market.

    Each stock draws its own shocks from its own stream (`prices.stream`, keyed by the
    stock's key) and the market from one more, so a stock's paths do not depend on which
    others are simulated beside it. With ``antithetic`` the second half of the paths negates
    the first half's shocks (``paths`` must then be even).
    """
    months = check_int("months", months, minimum=1)
    paths = check_int("paths", paths, minimum=2 if antithetic else 1)
    rho = check_number("correlation", correlation, minimum=0.0, maximum=1.0)
    if antithetic and paths % 2:
        raise EngineInputError("paths", "antithetic paths come in pairs: an even count")
    drawn = paths // 2 if antithetic else paths
    market = stream(rng, MARKET_KEY).standard_normal((drawn, months))
    steps = months // FEATURE_MONTHS
    big = SAMPLE_FACTOR * paths
    market_big = stream(rng, (*MARKET_KEY, "sample")).standard_normal((big, steps))
    years = -(-months // 12)
    t = np.arange(1, months + 1, dtype=np.float64) * DT
    t_steps = np.arange(1, steps + 1, dtype=np.float64) * FEATURE_MONTHS * DT
    prices: dict[tuple[object, ...], np.ndarray] = {}
    controls: list[np.ndarray] = []
    features: list[np.ndarray] = []
    sample: list[np.ndarray] = []
    for key, stock in stocks.items():
        mu = math.log1p(stock.growth_pct / 100.0)
        sigma = stock.volatility_pct / 100.0
        shocks = _shocks(rng, key, market, rho)
        if antithetic:
            shocks = np.concatenate([shocks, -shocks])
        np.cumsum(shocks, axis=1, out=shocks)
        shocks *= sigma * math.sqrt(DT)
        shocks += (mu - 0.5 * sigma**2) * t
        np.exp(shocks, out=shocks)
        shocks *= stock.price
        prices[key] = shocks
        if sigma > 0 and steps:
            # Price over its expectation P0 e^(mu t) = P0 (1 + g)^t: mean exactly 1.
            ratio = shocks / (stock.price * np.exp(mu * t))
            padded = np.ones((paths, 12 * years))
            padded[:, :months] = ratio
            controls.append(padded.reshape(paths, years, 12).mean(axis=2))
            features.append(ratio[:, FEATURE_MONTHS - 1 :: FEATURE_MONTHS][:, :steps])
            # The same ratios at the same dates, drawn directly: exp(s W_t - s^2 t / 2).
            w = np.cumsum(_shocks(rng, (*key, "sample"), market_big, rho), axis=1)
            w *= sigma * math.sqrt(FEATURE_MONTHS * DT)
            sample.append(np.exp(w - 0.5 * sigma**2 * t_steps))

    def stack(parts: list[np.ndarray], rows: int) -> np.ndarray:
        return np.concatenate(parts, axis=1) if parts else np.empty((rows, 0))

    stacked = stack(controls, paths)
    return PricePaths(
        stacked,
        np.ones(stacked.shape[1]),
        stack(features, paths),
        stack(sample, big),
        antithetic,
        prices,
    )


@dataclass(frozen=True)
class FutureValues(Reduction):
    """Each option's whole-window value in each simulated future, ``values`` (paths, options)
    in the order of ``keys``, its window years' ``yearly`` (paths, options, years), and the
    prices' `Reduction`."""

    keys: tuple[str, ...]
    values: np.ndarray
    yearly: np.ndarray


def window_futures(
    options: Mapping[str, Sequence[Segment]],
    *,
    window_start: datetime.date,
    years: int,
    paths: int,
    rng: np.random.Generator,
    column: str = "total",
    correlation: float = DEFAULT_MARKET_CORRELATION,
    antithetic: bool = True,
    year_weights: np.ndarray | None = None,
) -> FutureValues:
    """Return each option's window value (``total`` gross or ``net``) in simulated futures:
    the sum of its years, each times its weight in ``year_weights`` if given (a discount)."""
    check_column(column)
    if not options:
        raise EngineInputError("options", "needs at least one option")
    months = 12 * check_int("years", years, minimum=1)
    drawn = correlated_prices(
        price_processes(options),
        months=months,
        paths=paths,
        rng=rng,
        correlation=correlation,
        antithetic=antithetic,
    )
    keys = tuple(options)
    by_year = np.empty((paths, len(keys), years))
    for i, key in enumerate(keys):
        segments = options[key]
        prices = [drawn.prices[stock_key(s.spec.stock)] for s in segments]
        yearly = window_yearly(segments, window_start=window_start, years=years, prices=prices)
        by_year[:, i] = yearly[column] if year_weights is None else yearly[column] * year_weights
    reduction = {f.name: getattr(drawn, f.name) for f in fields(Reduction)}
    return FutureValues(**reduction, keys=keys, values=by_year.sum(axis=-1), yearly=by_year)


def stock_values(
    segments: Sequence[Segment],
    *,
    window_start: datetime.date,
    years: int,
    prices: Sequence[np.ndarray],
) -> dict[str, float]:
    """Return an option's gross equity over the window per stock: its ticker ('' without one),
    each segment valued on its month-end price path in ``prices`` (the basis's)."""
    out: dict[str, float] = {}
    for segment, path in zip(segments, prices, strict=True):
        yearly = window_yearly([segment], window_start=window_start, years=years, prices=[path])
        name = segment.spec.stock.ticker or ""
        out[name] = out.get(name, 0.0) + float(yearly["equity"].sum())
    return out
