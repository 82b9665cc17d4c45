"""Value options over one common window: from a decision date, for whole years, in home currency.

An option is a sequence of :class:`Segment` s: for a leaving option, the current job until the
new start date, then the new package; for staying, the current job for the whole window. Each
segment counts only its own months of the window, so pay and vesting until a start date are not
lost and nothing is counted twice. Share prices are given per window month (month-end, month 1
ends one month after the window starts): one deterministic path (shape ``(months,)``) or many
simulated paths (``(paths, months)``); the same code values both, so a Monte Carlo over the window
and the deterministic figures agree by construction.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .dates import whole_months_between
from .errors import EngineInputError, check_int
from .projection import fixed_components, grant_shares, refresher_values, refresher_vest_value
from .spec import PackageSpec, Stock

COMPONENTS = ("base", "bonus", "sign_on", "relocation", "equity")


@dataclass(frozen=True)
class Segment:
    """One package counted from ``start`` (inclusive) until ``end`` (exclusive, None: window end).

    ``stock_fx_to_home`` converts the stock's currency into home currency (None: through the
    package currency, ``spec.stock.fx_to_package * spec.fx_to_home``).
    """

    spec: PackageSpec
    start: datetime.date
    end: datetime.date | None = None
    stock_fx_to_home: float | None = None


def window_months(window_start: datetime.date, day: datetime.date) -> int:
    """Return the whole months from the window start to ``day`` (0 if before the start)."""
    return max(0, whole_months_between(window_start, day))


def quantile_z(percentile: float) -> float:
    """Return the standard-normal quantile of ``percentile`` (0 < p < 100)."""
    from statistics import NormalDist

    if not 0.0 < percentile < 100.0:
        raise EngineInputError("percentile", f"must be between 0 and 100 (got {percentile!r})")
    return float(NormalDist().inv_cdf(percentile / 100.0))


def percentile_prices(stock: Stock, months: int, percentile: float = 50.0) -> np.ndarray:
    """Return the month-end share price at ``percentile`` of its GBM outcomes, months 1..months.

    The simulated price is ``P0 exp((mu - s^2/2) t + s sqrt(t) Z)`` with ``mu = ln(1 + growth)``;
    its percentile q at each date is the same expression with Z at the normal quantile of q.
    At the median (q = 50) this is the Monte Carlo's median price of every vest.
    """
    months = check_int("months", months, minimum=1)
    t = np.arange(1, months + 1, dtype=np.float64) / 12.0
    mu = math.log1p(stock.growth_pct / 100.0)
    sigma = stock.volatility_pct / 100.0
    z = quantile_z(percentile)
    return np.asarray(stock.price * np.exp((mu - 0.5 * sigma**2) * t + sigma * np.sqrt(t) * z))


def _segment_values(
    segment: Segment, window_start: datetime.date, months: int, prices: np.ndarray
) -> dict[str, np.ndarray]:
    """Return this segment's monthly home-currency gross components over the window months."""
    spec = segment.spec
    lead = prices.shape[:-1]
    zero = {c: np.zeros((*lead, months)) for c in COMPONENTS}
    lo = window_months(window_start, segment.start)
    hi = months if segment.end is None else min(months, window_months(window_start, segment.end))
    if hi <= lo:
        return zero
    # Package month n (1-based) is window month n - offset.
    offset = whole_months_between(spec.start, window_start)
    n_pkg = offset + months
    if n_pkg <= 0:
        return zero
    k = np.arange(1, n_pkg + 1) - offset  # window month of each package month
    before = k < 1
    idx = np.clip(k, 1, months) - 1
    pkg_prices = np.where(before, spec.stock.price, prices[..., idx])
    fixed = fixed_components(spec, n_pkg)
    shares = np.zeros(n_pkg)
    for grant in spec.grants:
        shares += grant_shares(spec, grant, n_pkg)
    equity = shares * pkg_prices
    if spec.refreshers:
        values = sum(refresher_values(r, n_pkg) for r in spec.refreshers)
        assert isinstance(values, np.ndarray)
        price0 = pkg_prices[..., 0] if offset < 0 else spec.stock.price
        equity = equity + refresher_vest_value(values, pkg_prices, price0)
    keep = 1.0 - spec.stock.liquidity_discount_pct / 100.0
    stock_fx = (
        spec.stock.fx_to_package * spec.fx_to_home
        if segment.stock_fx_to_home is None
        else segment.stock_fx_to_home
    )
    active = (k >= lo + 1) & (k <= hi)
    out: dict[str, np.ndarray] = {}
    for name in ("base", "bonus", "sign_on", "relocation"):
        # The same on every simulated path: one row, broadcast when summed with the equity.
        monthly = np.where(active, fixed[name] * spec.fx_to_home, 0.0)
        out[name] = _to_window(monthly, k, months)
    out["equity"] = _to_window(np.where(active, equity * keep * stock_fx, 0.0), k, months)
    return out


def _to_window(values: np.ndarray, k: np.ndarray, months: int) -> np.ndarray:
    """Place package-month values at their window months (those inside the window)."""
    inside = (k >= 1) & (k <= months)
    out = np.zeros((*values.shape[:-1], months))
    out[..., k[inside] - 1] = values[..., inside]
    return out


def window_yearly(
    segments: Sequence[Segment],
    *,
    window_start: datetime.date,
    years: int,
    prices: Sequence[np.ndarray],
) -> dict[str, np.ndarray]:
    """Return gross home-currency components and tax per window year, shaped (..., years).

    ``prices[i]`` is segment i's share price per window month. Keys: the five components,
    ``total`` (gross), ``tax`` (each segment's flat rate on its own income) and ``net``.
    """
    years = check_int("years", years, minimum=1)
    if not segments:
        raise EngineInputError("segments", "needs at least one segment")
    if len(prices) != len(segments):
        raise EngineInputError("prices", "needs one price array per segment")
    months = 12 * years
    total: dict[str, np.ndarray] = {}
    tax: np.ndarray | float = 0.0
    for segment, path in zip(segments, prices, strict=True):
        path = np.asarray(path, dtype=np.float64)
        if path.shape[-1] < months:
            raise EngineInputError("prices", f"needs {months} monthly prices (got {path.shape})")
        if not np.all(np.isfinite(path)) or np.any(path <= 0):
            raise EngineInputError("prices", "prices must be positive and finite")
        values = _segment_values(segment, window_start, months, path[..., :months])
        gross = sum(values.values())
        tax = tax + gross * segment.spec.tax_rate_pct / 100.0
        for name, monthly in values.items():
            total[name] = total[name] + monthly if name in total else monthly
    out = {name: _per_year(monthly, years) for name, monthly in total.items()}
    out["total"] = sum(out[c] for c in COMPONENTS)  # type: ignore[assignment]
    for name in COMPONENTS:  # pay without stock is one row for all paths: give it their shape
        if out[name].shape != out["total"].shape:
            out[name] = np.broadcast_to(out[name], out["total"].shape)
    out["tax"] = _per_year(np.broadcast_to(tax, out["total"].shape[:-1] + (months,)), years)
    out["net"] = out["total"] - out["tax"]
    return out


def _per_year(monthly: np.ndarray, years: int) -> np.ndarray:
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


def _stock_key(stock: Stock) -> tuple[object, ...]:
    """Return what identifies one share-price process: options on the same ticker share it."""
    if stock.ticker:
        return ("ticker", stock.ticker)
    return ("stock", stock.price, stock.growth_pct, stock.volatility_pct)


def window_paths(
    options: dict[str, Sequence[Segment]],
    *,
    window_start: datetime.date,
    years: int,
    paths: int,
    rng: np.random.Generator,
    column: str = "total",
) -> dict[str, np.ndarray]:
    """Return each option's value per window year on simulated prices, shaped (paths, years).

    Options on the same ticker see the same simulated prices, so a comparison between them
    (staying against an internal transfer) moves together as it would in life.
    """
    from .montecarlo import simulate_prices

    if column not in ("total", "net"):
        raise EngineInputError("column", f"must be 'total' or 'net' (got {column!r})")
    months = 12 * check_int("years", years, minimum=1)
    stocks: dict[tuple[object, ...], Stock] = {}
    for segments in options.values():
        for segment in segments:
            stocks.setdefault(_stock_key(segment.spec.stock), segment.spec.stock)
    keys = list(stocks)
    s0 = np.array([stocks[k].price for k in keys])
    mu = np.log1p(np.array([stocks[k].growth_pct / 100.0 for k in keys]))
    sigma = np.array([stocks[k].volatility_pct / 100.0 for k in keys])
    simulated = simulate_prices(s0, mu, sigma, months, paths, rng)  # (paths, months, stocks)
    out: dict[str, np.ndarray] = {}
    for key, segments in options.items():
        prices = [simulated[:, :, keys.index(_stock_key(s.spec.stock))] for s in segments]
        values = window_yearly(segments, window_start=window_start, years=years, prices=prices)
        out[key] = values[column]
    return out


def summarise_paths(
    per_option: dict[str, np.ndarray], percentiles: tuple[float, ...] = (10.0, 50.0, 90.0)
) -> WindowSimulation:
    """Return the percentiles and win shares of per-option (paths, years) values."""
    qs = np.asarray(percentiles, dtype=np.float64)
    yearly: dict[str, np.ndarray] = {}
    cumulative: dict[str, np.ndarray] = {}
    finals: dict[str, np.ndarray] = {}
    paths = years = 0
    for key, per_year in per_option.items():
        paths, years = per_year.shape
        yearly[key] = np.percentile(per_year, qs, axis=0)
        running = np.cumsum(per_year, axis=1)
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


def simulate_window(
    options: dict[str, Sequence[Segment]],
    *,
    window_start: datetime.date,
    years: int,
    paths: int,
    rng: np.random.Generator,
    column: str = "total",
    percentiles: tuple[float, ...] = (10.0, 50.0, 90.0),
) -> WindowSimulation:
    """Return Monte Carlo percentiles of every option's window value; one price path per ticker."""
    per_option = window_paths(
        options, window_start=window_start, years=years, paths=paths, rng=rng, column=column
    )
    return summarise_paths(per_option, percentiles)
