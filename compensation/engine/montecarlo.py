"""Monte Carlo of offer values under geometric Brownian motion share prices."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from .errors import EngineInputError, check_int, check_kind, check_number
from .prices import DT, _check_rng, stream
from .projection import cashflow_matrix
from .spec import MAX_HORIZON_YEARS, PackageSpec

Basis = Literal["home", "package", "net_home"]
BASES: tuple[str, ...] = ("home", "package", "net_home")


@dataclass(frozen=True, eq=False)
class MonteCarloResult:
    """Percentiles of yearly and cumulative totals, and pairwise win probabilities.

    ``yearly`` and ``cumulative`` are long form with columns option, year, mean and
    one ``p<q>`` column per percentile; ``prob_beats.loc[a, b]`` is the probability
    that option a's cumulative total over ``years`` exceeds option b's.
    """

    yearly: pd.DataFrame
    cumulative: pd.DataFrame
    prob_beats: pd.DataFrame
    paths: int
    years: int
    percentiles: tuple[float, ...]
    basis: str
    median_price_paths: pd.DataFrame | None = None


@dataclass(eq=False)
class _StockGroup:
    """One distinct share-price process and the equity that vests against it."""

    noise: int  # row of the shared standard-normal block (one per ticker)
    s0: float
    scale: float  # sigma * sqrt(dt)
    log_path: np.ndarray  # (months,) log s0 + (mu - sigma^2 / 2) t, the zero-noise log price
    weights: np.ndarray  # (columns, months) value per unit price, month -> year
    terms: list[tuple[int, np.ndarray, np.ndarray]] = field(default_factory=list)
    grant_cols: list[tuple[int, slice]] = field(default_factory=list)
    refresher_cols: list[tuple[int, np.ndarray, slice]] = field(default_factory=list)


@dataclass(eq=False)
class _Plan:
    labels: list[str]
    years: int
    months: int
    baseline: np.ndarray  # (options, years): fixed cash plus equity on zero-volatility stock
    groups: list[_StockGroup]
    tickers: int  # rows of standard normals drawn per chunk
    noise_keys: list[object]  # the stable key of each row's random stream
    option_group: list[int | None]  # stochastic group of each option (None: deterministic)
    option_stock: list[tuple[float, float, float]]  # (s0, mu, sigma) per option


def _labels(specs: Sequence[PackageSpec]) -> list[str]:
    labels: list[str] = []
    for spec in specs:
        label = spec.name or "option"
        n = 2
        while label in labels:
            label = f"{spec.name or 'option'} ({n})"
            n += 1
        labels.append(label)
    return labels


def _check_basis(specs: Sequence[PackageSpec], basis: str) -> None:
    """Raise unless ``basis`` is known; the net basis takes flat tax rates only."""
    if basis not in BASES:
        raise EngineInputError("basis", f"must be one of {', '.join(BASES)} (got {basis!r})")
    if basis == "net_home":
        for i, spec in enumerate(specs):
            if spec.tax_regime is not None:
                raise EngineInputError(
                    f"options[{i}].tax_regime",
                    "the net_home basis takes flat tax rates only; value progressive tax "
                    "with window.window_paths",
                )


def _plan(specs: Sequence[PackageSpec], years: int, basis: str) -> _Plan:
    """Precompute everything that does not depend on the random draws."""
    _check_basis(specs, basis)
    months = 12 * years
    cm = cashflow_matrix(specs, months)
    factor = np.ones(len(specs))
    if basis in ("home", "net_home"):
        factor = factor * cm.fx_to_home
    value_factor = factor * cm.keep * cm.stock_fx
    if basis == "net_home":
        # Stock is taxed at its full value at vest; the liquidity discount is the decision's.
        value_factor = factor * (cm.keep - cm.tax_rate) * cm.stock_fx
        factor = factor * (1.0 - cm.tax_rate)
    to_year = np.zeros((months, years))
    to_year[np.arange(months), np.arange(months) // 12] = 1.0
    t = np.arange(1, months + 1) * DT

    baseline = cm.fixed.reshape(len(specs), years, 12).sum(axis=2) * factor[:, None]
    mu = np.log1p(cm.growth)
    labels = _labels(specs)
    groups: dict[tuple[object, ...], _StockGroup] = {}
    noise_rows: dict[object, int] = {}
    option_group: list[int | None] = []
    option_stock: list[tuple[float, float, float]] = []
    group_blocks: dict[tuple[object, ...], list[np.ndarray]] = {}
    for o in range(len(specs)):
        s0, drift, sigma = float(cm.price0[o]), float(mu[o]), float(cm.volatility[o])
        option_stock.append((s0, drift, sigma))
        log_path = math.log(s0) + (drift - 0.5 * sigma**2) * t
        grant_block = (cm.shares[o][:, None] * to_year) * value_factor[o]
        live = [g for g in range(years) if cm.refresher_value[o, g].any()]
        ref_blocks = [cm.refresher_value[o, g][:, None] * to_year * value_factor[o] for g in live]
        has_grants = bool(cm.shares[o].any())
        if not has_grants and not live:
            option_group.append(None)
            continue
        if sigma == 0.0:
            # No noise: fold this option's equity into the per-option baseline once.
            prices = np.exp(log_path)
            baseline[o] += prices @ grant_block
            at_grant = np.concatenate([[s0], prices[11 : months - 1 : 12]])
            for g, block in zip(live, ref_blocks, strict=True):
                baseline[o] += (prices @ block) / at_grant[g]
            option_group.append(None)
            continue
        # A stable key per stream: the ticker, or the option's own label without one.
        ticker = ("ticker", cm.tickers[o]) if cm.tickers[o] is not None else ("option", labels[o])
        row = noise_rows.setdefault(ticker, len(noise_rows))
        key: tuple[object, ...] = (ticker, s0, drift, sigma)
        if key not in groups:
            scale = sigma * math.sqrt(DT)  # the zero-noise log price and no columns yet
            groups[key] = _StockGroup(row, s0, scale, log_path, np.zeros((months, 0)))
            group_blocks[key] = []
        grants = grant_block if has_grants else None
        _add_columns(groups[key], group_blocks[key], o, years, grants, dict(zip(live, ref_blocks)))
        option_group.append(list(groups).index(key))
    for key, group in groups.items():
        group.weights = np.ascontiguousarray(np.concatenate(group_blocks[key], axis=1).T)
        group.terms = _weight_terms(group.weights)
    return _Plan(
        labels=labels,
        years=years,
        months=months,
        baseline=baseline,
        groups=list(groups.values()),
        tickers=len(noise_rows),
        noise_keys=list(noise_rows),
        option_group=option_group,
        option_stock=option_stock,
    )


def _add_columns(
    group: _StockGroup,
    blocks: list[np.ndarray],
    option: int,
    years: int,
    grants: np.ndarray | None,
    refreshers: dict[int, np.ndarray],
) -> None:
    """Add an option's weight blocks to its stock group's: its grants' (None: none), then its
    refreshers' by grant year, noting the columns each takes."""
    width = sum(b.shape[1] for b in blocks)
    if grants is not None:
        blocks.append(grants)
        group.grant_cols.append((option, slice(width, width + years)))
        width += years
    if refreshers:
        blocks.extend(refreshers.values())
        cols = slice(width, width + years * len(refreshers))
        group.refresher_cols.append((option, np.array(list(refreshers)), cols))


def _iter_chunks(
    plan: _Plan, paths: int, rng: np.random.Generator, chunk_size: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield the random part of yearly totals (options, years, n) and year-end prices per chunk.

    The random part excludes ``plan.baseline``; adding it back afterwards keeps
    deterministic figures exact in float64 while stored random parts are float32.
    Each ticker (or option without one) draws from its own stream (`stream`), path after
    path, so its paths do not depend on the other options nor on the chunk size.
    """
    years, months = plan.years, plan.months
    last_use = {g.noise: i for i, g in enumerate(plan.groups)}
    streams = [stream(rng, key) for key in plan.noise_keys]
    buffer: np.ndarray | None = None
    draws = np.empty((0, months))
    done = 0
    while done < paths:
        n = min(chunk_size, paths - done)
        done += n
        yearly = np.zeros((len(plan.labels), years, n))
        year_end = np.empty((len(plan.groups), years, n))
        if plan.tickers:
            if buffer is None or buffer.shape[2] != n:
                buffer = np.empty((plan.tickers, months, n))
                draws = np.empty((n, months))
            for row, generator in enumerate(streams):
                # Drawn path by path (so chunks concatenate), summed into months-first order.
                generator.standard_normal(out=draws)
                np.cumsum(draws, axis=1, out=buffer[row].T)
            z = buffer
            for i, group in enumerate(plan.groups):
                # Reuse the noise block in place when no later group needs it.
                if last_use[group.noise] == i:
                    prices = z[group.noise]
                    prices *= group.scale
                else:
                    prices = z[group.noise] * group.scale
                prices += group.log_path[:, None]
                np.exp(prices, out=prices)
                year_end[i] = prices[11::12]
                values = _apply_weights(group, prices)  # (columns, n)
                for o, cols in group.grant_cols:
                    yearly[o] += values[cols]
                for o, grant_years, cols in group.refresher_cols:
                    at_grant = np.empty((len(grant_years), n))
                    for j, g in enumerate(grant_years):
                        at_grant[j] = group.s0 if g == 0 else prices[12 * g - 1]
                    block = values[cols].reshape(len(grant_years), years, n)
                    yearly[o] += (block / at_grant[:, None, :]).sum(axis=0)
        yield yearly, year_end


def _weight_terms(weights: np.ndarray) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Return, per month with a vest, the columns it adds to and their weights."""
    terms = []
    for m in range(weights.shape[1]):
        cols = np.flatnonzero(weights[:, m])
        if cols.size:
            terms.append((m, cols, np.ascontiguousarray(weights[cols, m][:, None])))
    return terms


def _apply_weights(group: _StockGroup, prices: np.ndarray) -> np.ndarray:
    """Return ``group.weights @ prices`` summed over vest months only, without BLAS.

    Vests fall on a few months and each column on one year: the sparse sum is fewer
    operations than the dense product, and a multi-threaded BLAS on a busy machine spends
    more time waking its threads than multiplying these small matrices.
    """
    out = np.zeros((group.weights.shape[0], prices.shape[1]))
    for m, cols, coef in group.terms:
        if cols.size == 1:
            out[cols[0]] += coef[0, 0] * prices[m]
        else:
            out[cols] += coef * prices[m]
    return out


def select_percentiles(values: np.ndarray, percentiles: Sequence[float]) -> np.ndarray:
    """Return linear-interpolated percentiles along the last axis using np.partition."""
    n = values.shape[-1]
    position = np.asarray(percentiles, dtype=np.float64) / 100.0 * (n - 1)
    lo = np.floor(position).astype(np.intp)
    hi = np.minimum(lo + 1, n - 1)
    kth = np.unique(np.concatenate([lo, hi]))
    part = np.partition(values, kth, axis=-1)
    weight = position - lo
    low = part[..., lo].astype(np.float64)
    high = part[..., hi].astype(np.float64)
    return np.asarray(low + (high - low) * weight)


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


def _check_common(
    specs: Sequence[PackageSpec], paths: int, chunk_size: int, years: int | None
) -> tuple[int, int, int]:
    if not specs:
        raise EngineInputError("options", "needs at least one package")
    for i, spec in enumerate(specs):
        check_kind(f"options[{i}]", spec, PackageSpec)
    paths = check_int("paths", paths, minimum=1)
    chunk_size = check_int("chunk_size", chunk_size, minimum=1)
    if years is None:
        years = max(s.horizon_years for s in specs)
    years = check_int("years", years, minimum=1, maximum=MAX_HORIZON_YEARS)
    return paths, chunk_size, years


def simulate(
    specs: Sequence[PackageSpec],
    paths: int,
    rng: np.random.Generator,
    chunk_size: int = 20_000,
    percentiles: Sequence[float] = (10, 50, 90),
    *,
    years: int | None = None,
    basis: Basis = "home",
) -> MonteCarloResult:
    """Simulate share prices and return percentiles of yearly and cumulative totals.

    All options run over a common horizon (``years``, default the longest
    horizon); totals are gross in home currency unless ``basis`` says otherwise.
    Options whose stocks share a non-None ticker share price paths.
    """
    paths, chunk_size, years = _check_common(specs, paths, chunk_size, years)
    _check_rng(rng)
    pcts = tuple(
        check_number(f"percentiles[{i}]", p, minimum=0.0, maximum=100.0)
        for i, p in enumerate(percentiles)
    )
    plan = _plan(specs, years, basis)
    options = len(specs)
    base_cumulative = np.cumsum(plan.baseline, axis=1)
    # Only the random part is stored (float32); percentiles shift exactly by the baseline.
    yearly_store = np.empty((options, years, paths), dtype=np.float32)
    cumulative_store = np.empty((options, years, paths), dtype=np.float32)
    price_store = np.empty((len(plan.groups), years, paths), dtype=np.float32)
    yearly_sum = np.zeros((options, years))
    wins = np.zeros((options, options), dtype=np.int64)
    start = 0
    for random_part, year_end in _iter_chunks(plan, paths, rng, chunk_size):
        n = random_part.shape[2]
        cumulative = np.cumsum(random_part, axis=1)
        yearly_store[:, :, start : start + n] = random_part
        cumulative_store[:, :, start : start + n] = cumulative
        price_store[:, :, start : start + n] = year_end
        yearly_sum += random_part.sum(axis=2)
        final = cumulative[:, -1, :] + base_cumulative[:, -1, None]
        wins += (final[:, None, :] > final[None, :, :]).sum(axis=2)
        start += n

    columns = [f"p{p:g}" for p in pcts]

    def long_form(store: np.ndarray, base: np.ndarray, mean: np.ndarray) -> pd.DataFrame:
        flat = store.reshape(options * years, paths)
        values = select_percentiles(flat, pcts) + base.reshape(-1, 1)
        frame = pd.DataFrame(values, columns=columns)
        frame.insert(0, "mean", base.reshape(-1) + mean.reshape(-1))
        frame.insert(0, "year", np.tile(np.arange(1, years + 1), options))
        frame.insert(0, "option", np.repeat(plan.labels, years))
        return frame

    random_mean = yearly_sum / paths
    yearly_frame = long_form(yearly_store, plan.baseline, random_mean)
    del yearly_store
    cumulative_frame = long_form(cumulative_store, base_cumulative, np.cumsum(random_mean, axis=1))
    del cumulative_store
    prob = pd.DataFrame(wins / paths, index=plan.labels, columns=plan.labels)
    medians = _median_prices(plan, price_store)
    return MonteCarloResult(
        yearly=yearly_frame,
        cumulative=cumulative_frame,
        prob_beats=prob,
        paths=paths,
        years=years,
        percentiles=pcts,
        basis=basis,
        median_price_paths=medians,
    )


def _median_prices(plan: _Plan, price_store: np.ndarray) -> pd.DataFrame:
    """Return the median year-end share price of each option's stock, by year."""
    simulated = (
        select_percentiles(price_store, (50,))[..., 0] if plan.groups else np.empty((0, plan.years))
    )
    t = np.arange(1, plan.years + 1)
    columns: dict[str, np.ndarray] = {}
    for o, label in enumerate(plan.labels):
        group = plan.option_group[o]
        if group is not None:
            columns[label] = simulated[group]
        else:
            s0, mu, sigma = plan.option_stock[o]
            columns[label] = s0 * np.exp((mu - 0.5 * sigma**2) * t)
    return pd.DataFrame(columns, index=pd.RangeIndex(1, plan.years + 1, name="year"))


def cumulative_paths(
    specs: Sequence[PackageSpec],
    paths: int,
    rng: np.random.Generator,
    years: int,
    chunk_size: int = 20_000,
    basis: Basis = "home",
) -> np.ndarray:
    """Return each option's cumulative total over ``years`` for every path, (options, paths)."""
    paths, chunk_size, years = _check_common(specs, paths, chunk_size, years)
    _check_rng(rng)
    plan = _plan(specs, years, basis)
    out = np.empty((len(specs), paths))
    start = 0
    base = plan.baseline.sum(axis=1)[:, None]
    for random_part, _ in _iter_chunks(plan, paths, rng, chunk_size):
        n = random_part.shape[2]
        out[:, start : start + n] = random_part.sum(axis=1) + base
        start += n
    return out
