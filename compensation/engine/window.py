"""Value options over one common window: from a decision date, for whole years, in home currency.

An option is a sequence of `segments.Segment` s: for a leaving option, the current job until
the new start date, then the new package; for staying, the current job for the whole window.
Each segment counts only its own months of the window, so nothing is lost or counted twice.
Share prices are given per window month (month-end, month 1 ends one month after the window
starts): one deterministic path (shape ``(months,)``) or many simulated paths (``(paths,
months)``); the same code values both, so a Monte Carlo over the window and the deterministic
figures agree by construction.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from .components import COMPONENTS
from .errors import EngineInputError, check_int
from .prices import median_path, simulate_price_paths, stream
from .segment_tax import option_tax
from .segments import (
    Segment,
    decision_values,
    package_segment,
    segment_values,
    sourced_segments,
)
from .spec import PackageSpec, Stock


def percentile_prices(stock: Stock, months: int, percentile: float = 50.0) -> np.ndarray:
    """Return the month-end share price at ``percentile`` of its GBM outcomes, months 1..months.

    The simulated price is ``P0 exp((mu - s^2/2) t + s sqrt(t) Z)`` with ``mu = ln(1 + growth)``;
    its percentile q at each date is the same expression with Z at the normal quantile of q.
    At the median (q = 50) this is the Monte Carlo's median price of every vest. The other
    basis is the assumed price (`projection.assumed_prices`), the outcomes' mean.
    """
    months = check_int("months", months, minimum=1)
    if not 0.0 < percentile < 100.0:
        raise EngineInputError("percentile", f"must be between 0 and 100 (got {percentile!r})")
    t = np.arange(1, months + 1, dtype=np.float64) / 12.0
    mu = math.log1p(stock.growth_pct / 100.0)
    sigma = stock.volatility_pct / 100.0
    z = float(NormalDist().inv_cdf(percentile / 100.0))
    return np.asarray(stock.price * np.exp((mu - 0.5 * sigma**2) * t + sigma * np.sqrt(t) * z))


def checked_prices(
    segments: Sequence[Segment], years: int, prices: Sequence[np.ndarray], one_path: bool = False
) -> tuple[int, list[np.ndarray]]:
    """Return the window's years and each segment's prices cut to its months, or raise: one
    array per segment (with ``one_path``, one path each), positive and finite."""
    years = check_int("years", years, minimum=1)
    if not segments:
        raise EngineInputError("segments", "needs at least one segment")
    if len(prices) != len(segments):
        raise EngineInputError("prices", "needs one price array per segment")
    months = 12 * years
    paths: list[np.ndarray] = []
    for path in prices:
        path = np.asarray(path, dtype=np.float64)
        if one_path and (path.ndim != 1 or path.shape[0] < months):
            raise EngineInputError("prices", f"needs one path of {months} monthly prices")
        if path.shape[-1] < months:
            raise EngineInputError("prices", f"needs {months} monthly prices (got {path.shape})")
        if not np.all(np.isfinite(path)) or np.any(path <= 0):
            raise EngineInputError("prices", "prices must be positive and finite")
        paths.append(path[..., :months])
    return years, paths


def window_yearly(
    segments: Sequence[Segment],
    *,
    window_start: datetime.date,
    years: int,
    prices: Sequence[np.ndarray],
    medians: Sequence[np.ndarray | None] | None = None,
) -> dict[str, np.ndarray]:
    """Return gross home-currency components and tax per window year, shaped (..., years).

    ``prices[i]`` is segment i's share price per window month; on many simulated paths,
    ``medians[i]`` may give their median path (`prices.median_path`, else worked out here).
    Keys: the pay components (stock less its liquidity discount: `decision_values`), ``total``
    (gross), ``tax`` (each tax year's, stock at its full value at vest: `option_tax`),
    ``contributions`` (the employee contributions its tax tables levy on its pay, such as Hong
    Kong's MPF) and ``net`` (take-home: ``total - tax - contributions``). A ``transfer``
    segment's vests are taxed in each place by the days worked there (`sourced_segments`).
    """
    years, paths = checked_prices(segments, years, prices)
    segments, origins = sourced_segments(segments)
    paths = [paths[k] for k, _ in origins]
    if medians is not None:
        medians = [medians[k] for k, _ in origins]
    months = 12 * years
    total: dict[str, np.ndarray] = {}
    tax: np.ndarray | float = 0.0
    contributions: np.ndarray | float = 0.0
    all_values: list[dict[str, np.ndarray]] = []
    for segment, path in zip(segments, paths, strict=True):
        if path.ndim == 1:
            all_values.append(_one_path_values(segment, window_start, months, _key(path)))
        else:
            all_values.append(segment_values(segment, window_start, months, path))
        for name, monthly in decision_values(segment.spec, all_values[-1]).items():
            total[name] = total[name] + monthly if name in total else monthly
    if all(p.ndim == 1 for p in paths):
        levies = _one_path_tax(tuple(segments), window_start, months, tuple(_key(p) for p in paths))
    else:
        levies = tuple(option_tax(segments, window_start, months, paths, all_values, medians))
    for levied in levies:
        tax = tax + levied[0]
        contributions = contributions + levied[1]
    out = {name: per_year(monthly, years) for name, monthly in total.items()}
    out["total"] = sum(out[c] for c in COMPONENTS)  # type: ignore[assignment]
    for name in COMPONENTS:  # pay without stock is one row for all paths: give it their shape
        if out[name].shape != out["total"].shape:
            out[name] = np.broadcast_to(out[name], out["total"].shape)
    shape = out["total"].shape[:-1] + (months,)
    out["tax"] = per_year(np.broadcast_to(tax, shape), years)
    out["contributions"] = per_year(np.broadcast_to(contributions, shape), years)
    out["net"] = out["total"] - out["tax"] - out["contributions"]
    return out


def _key(path: np.ndarray) -> bytes:
    """Return one price path as the bytes its remembered figures are keyed by."""
    return np.ascontiguousarray(path, dtype=np.float64).tobytes()


# A board values every option on one price path, the current job's months once for each
# leaving option and again for its bridge, and an edit changes one option: each segment's
# monthly figures on a path, and each option's tax on its segments' paths, are remembered
# (read-only), a few KB each. The tax is the option's, not a segment's: the segments of one
# tax regime are taxed together (`option_tax`).
@lru_cache(maxsize=1024)
def _one_path_values(
    segment: Segment, window_start: datetime.date, months: int, prices: bytes
) -> dict[str, np.ndarray]:
    """Return a segment's monthly components on one price path (``prices``: the float64
    bytes of its ``months`` month-end prices)."""
    path = np.frombuffer(prices, dtype=np.float64)
    values = segment_values(segment, window_start, months, path)
    for array in values.values():
        array.setflags(write=False)
    return values


@lru_cache(maxsize=512)
def _one_path_tax(
    segments: tuple[Segment, ...],
    window_start: datetime.date,
    months: int,
    prices: tuple[bytes, ...],
) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Return each segment's monthly tax and contributions when the option's segments are
    valued on one price path each (`option_tax`)."""
    paths = [np.frombuffer(p, dtype=np.float64) for p in prices]
    values = [
        _one_path_values(s, window_start, months, p) for s, p in zip(segments, prices, strict=True)
    ]
    levies = tuple(option_tax(segments, window_start, months, paths, values))
    for tax, contributions in levies:
        tax.setflags(write=False)
        contributions.setflags(write=False)
    return levies


def per_year(monthly: np.ndarray, years: int) -> np.ndarray:
    """Return the sums of ``years`` window years of (..., 12 x years) monthly figures."""
    return np.asarray(monthly.reshape(*monthly.shape[:-1], years, 12).sum(axis=-1))


@dataclass(frozen=True)
class WindowSimulation:
    """Percentiles of each option's window value over simulated share prices.

    ``yearly[key]`` and ``cumulative[key]`` are (len(percentiles), years) arrays of the chosen
    column (``total`` gross or ``net``); ``prob_beats[a][b]`` is the share of paths on which
    option a's whole-window value exceeds option b's.
    """

    yearly: dict[str, np.ndarray]
    cumulative: dict[str, np.ndarray]
    prob_beats: dict[str, dict[str, float]]
    percentiles: tuple[float, ...]
    paths: int
    years: int


def check_column(column: str) -> None:
    """Raise unless ``column`` is a window value a simulation reports: ``total`` or ``net``."""
    if column not in ("total", "net"):
        raise EngineInputError("column", f"must be 'total' or 'net' (got {column!r})")


def stock_key(stock: Stock) -> tuple[object, ...]:
    """Return what identifies one share-price process: options on the same ticker share it."""
    if stock.ticker:
        return ("ticker", stock.ticker)
    return ("stock", stock.price, stock.growth_pct, stock.volatility_pct)


def price_processes(
    options: Mapping[str, Sequence[Segment]],
) -> dict[tuple[object, ...], Stock]:
    """Return the stock each share-price process follows, by `stock_key`: the first seen of
    its ticker."""
    stocks: dict[tuple[object, ...], Stock] = {}
    for segments in options.values():
        for segment in segments:
            stocks.setdefault(stock_key(segment.spec.stock), segment.spec.stock)
    return stocks


def path_stocks(options: Mapping[str, Sequence[Segment]]) -> dict[str, tuple[Stock, ...]]:
    """Return, by option, the stock whose simulated prices each of its segments sees in
    `window_paths` (with its segments and the seed, all its simulated values depend on)."""
    stocks = price_processes(options)
    return {
        key: tuple(stocks[stock_key(s.spec.stock)] for s in segments)
        for key, segments in options.items()
    }


def window_paths(
    options: Mapping[str, Sequence[Segment]],
    *,
    window_start: datetime.date,
    years: int,
    paths: int,
    rng: np.random.Generator,
    column: str = "total",
    only: Collection[str] | None = None,
) -> dict[str, np.ndarray]:
    """Return each option's value per window year on simulated prices, shaped (paths, years).

    Options on the same ticker see the same simulated prices, so a comparison between them
    (staying against an internal transfer) moves together as it would in life. With ``only``,
    just those options are valued, on the very paths they have among all of ``options`` (a
    ticker's prices follow the first of its stocks in ``options``): a caller that kept the
    others' values from an earlier run values only the options that changed.
    """
    check_column(column)
    months = 12 * check_int("years", years, minimum=1)
    paths = check_int("paths", paths, minimum=1)
    stocks = price_processes(options)
    valued = {k: v for k, v in options.items() if only is None or k in only}
    needed = {stock_key(s.spec.stock) for segments in valued.values() for s in segments}
    stocks = {key: stock for key, stock in stocks.items() if key in needed}
    # One random stream per share-price process, keyed by it: an option's paths do not
    # depend on which other options are simulated beside it.
    simulated = {
        key: simulate_price_paths(
            stock.price,
            math.log1p(stock.growth_pct / 100.0),
            stock.volatility_pct / 100.0,
            months,
            paths,
            stream(rng, key),
        )
        for key, stock in stocks.items()
    }
    # The months outside the window set a tax table's rate on the median path: one per price
    # process that a taxed segment sees (a flat rate needs none).
    taxed = {stock_key(s.spec.stock) for v in valued.values() for s in v if s.spec.tax_regime}
    medians = {key: median_path(simulated[key][..., :months]) for key in taxed}
    out: dict[str, np.ndarray] = {}
    for key, segments in valued.items():
        keys = [stock_key(s.spec.stock) for s in segments]
        values = window_yearly(
            segments,
            window_start=window_start,
            years=years,
            prices=[simulated[k] for k in keys],
            medians=[medians.get(k) for k in keys],
        )
        out[key] = values[column]
    return out


def chunked_paths(
    options: Mapping[str, Sequence[Segment]],
    *,
    window_start: datetime.date,
    years: int,
    paths: int,
    rng: np.random.Generator,
    column: str = "total",
    chunk: int = 20_000,
    progress: Callable[[int], bool] | None = None,
) -> dict[str, np.ndarray] | None:
    """Return `window_paths` over many paths, ``chunk`` at a time: (paths, years) per option.

    Chunk k draws from its own stream of ``rng`` (`prices.stream`), so a rerun with the same
    seed gives the same figures and memory holds one chunk's months at a time. After each
    chunk ``progress(percent)`` is called; when it returns False the run stops with None.
    """
    paths = check_int("paths", paths, minimum=1)
    chunk = check_int("chunk", chunk, minimum=1)
    out = {key: np.empty((paths, years), dtype=np.float64) for key in options}
    chunks = -(-paths // chunk)
    for k in range(chunks):
        lo, n = k * chunk, min(chunk, paths - k * chunk)
        values = window_paths(
            options,
            window_start=window_start,
            years=years,
            paths=n,
            rng=stream(rng, ("chunk", k)),
            column=column,
        )
        for key, value in values.items():
            out[key][lo : lo + n] = value
        if progress is not None and not progress(min(99, int(100 * (k + 1) / chunks))):
            return None
    return out


def package_paths(
    specs: Mapping[str, PackageSpec], *, years: int, paths: int, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Return each package valued alone (`package_segment`) on simulated prices, (paths,
    years) each, over one window from the earliest start (`chunked_paths`)."""
    values = chunked_paths(
        {key: [package_segment(spec)] for key, spec in specs.items()},
        window_start=min(spec.start for spec in specs.values()),
        years=years,
        paths=paths,
        rng=rng,
    )
    assert values is not None  # no progress callback: the run is never stopped
    return values


def percentile_standard_error(values: np.ndarray, percentile: float) -> float:
    """Return the standard error of the ``percentile`` of 1-D simulated ``values``.

    Distribution-free, from the order statistics: the q-quantile of n independent draws has
    a 95 % confidence interval between the order statistics of rank n q -/+ 1.96 sqrt(n q
    (1 - q)); the standard error is that interval's width over 2 x 1.96. (For n normal draws
    of spread s the median's comes out near sqrt(pi / 2) s / sqrt(n).)
    """
    values = np.asarray(values, dtype=np.float64).ravel()
    n = values.shape[0]
    if n < 2:
        raise EngineInputError("values", "needs at least two simulated values")
    q = float(percentile) / 100.0
    if not 0.0 < q < 1.0:
        raise EngineInputError("percentile", f"must be between 0 and 100 (got {percentile!r})")
    z = 1.959963984540054
    half = z * math.sqrt(n * q * (1.0 - q))
    lo = max(0, math.floor(n * q - half))
    hi = min(n - 1, math.ceil(n * q + half))
    part = np.partition(values, (lo, hi))
    return float((part[hi] - part[lo]) / (2.0 * z))


def summarise_paths(
    per_option: dict[str, np.ndarray], percentiles: tuple[float, ...] = (10.0, 50.0, 90.0)
) -> WindowSimulation:
    """Return the percentiles and win shares of per-option (paths, years) values."""
    qs = np.asarray(percentiles, dtype=np.float64)
    yearly: dict[str, np.ndarray] = {}
    cumulative: dict[str, np.ndarray] = {}
    finals: dict[str, np.ndarray] = {}
    paths = years = 0
    for key, values in per_option.items():
        paths, years = values.shape
        yearly[key] = np.percentile(values, qs, axis=0)
        running = np.cumsum(values, axis=1)
        cumulative[key] = np.percentile(running, qs, axis=0)
        finals[key] = running[:, -1]
    # One vectorised row per option (a loop of n x n means took minutes at 1,000 options).
    keys = list(finals)
    stacked = np.stack([finals[k] for k in keys]) if keys else np.empty((0, 0))
    prob = {
        a: dict(zip(keys, (float(v) for v in (stacked[i] > stacked).mean(axis=1)), strict=True))
        for i, a in enumerate(keys)
    }
    return WindowSimulation(yearly, cumulative, prob, tuple(percentiles), paths, years)
