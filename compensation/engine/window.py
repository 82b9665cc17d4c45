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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .components import COMPONENTS, EQUITY_COMPONENTS, ORDINARY_COMPONENTS
from .dates import add_months, whole_months_between
from .errors import EngineInputError, check_int
from .events import (
    ONE_DAY,
    cash_month,
    cash_payments,
    grant_tranches,
    refresher_grant_days,
    refresher_tranches,
    vest_month,
)
from .projection import fixed_components_base
from .spec import PackageSpec, Stock
from .tax import (
    month_other_tax_years,
    month_tax_years,
    monthly_tax_and_contributions,
    regime_get,
    tax_year_of,
)

# Which dated events to count: called with an event's day and its month; None counts all.
EventFilter = Callable[[datetime.date, int], bool] | None


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
    At the median (q = 50) this is the Monte Carlo's median price of every vest. The other
    basis is the assumed price (`projection.assumed_prices`), the outcomes' mean.
    """
    months = check_int("months", months, minimum=1)
    t = np.arange(1, months + 1, dtype=np.float64) / 12.0
    mu = math.log1p(stock.growth_pct / 100.0)
    sigma = stock.volatility_pct / 100.0
    z = quantile_z(percentile)
    return np.asarray(stock.price * np.exp((mu - 0.5 * sigma**2) * t + sigma * np.sqrt(t) * z))


def _segment_values(
    segment: Segment,
    window_start: datetime.date,
    months: int,
    prices: np.ndarray,
    only: EventFilter = None,
) -> dict[str, np.ndarray]:
    """Return this segment's monthly home-currency gross components over the window months.

    Base is counted by whole months (`window_months`). Everything else is placed by its real
    day (see `events`): a payment on a day the segment covers, in the month holding it
    (`cash_month`); a vest after the window start on a day the segment covers, in the month
    holding it (`vest_month`). A leaving option's current job covers the days before the new
    job's start: a tranche vesting on the start date is forfeited, and a bonus paid on or
    after it is not paid unless its bonus cycle pays the share worked (``paid_if_left``).
    With ``only``, just the payments and vests it accepts (by day and month), without base.
    """
    spec = segment.spec
    lead = prices.shape[:-1]
    out = {c: np.zeros((*lead, months)) for c in COMPONENTS}
    lo = window_months(window_start, segment.start)
    hi = months if segment.end is None else min(months, window_months(window_start, segment.end))
    window_end = add_months(window_start, months)
    first = max(segment.start, window_start)
    last = window_end if segment.end is None else min(window_end, segment.end - ONE_DAY)
    if last < first:
        return out
    fx = spec.fx_to_home
    # Base, by whole months: package month n (1-based) is window month n - offset.
    offset = whole_months_between(spec.start, window_start)
    n_pkg = offset + months
    if only is None and n_pkg > 0 and hi > lo:
        k = np.arange(1, n_pkg + 1) - offset
        base = fixed_components_base(spec, n_pkg)
        active = (k >= lo + 1) & (k <= hi)
        monthly = np.where(active, base * fx, 0.0)
        out["base"] = np.broadcast_to(_to_window(monthly, k, months), (*lead, months)).copy()
    _place_payments(segment, window_start, window_end, first, last, months, out, only)
    keep = 1.0 - spec.stock.liquidity_discount_pct / 100.0
    stock_fx = (
        spec.stock.fx_to_package * spec.fx_to_home
        if segment.stock_fx_to_home is None
        else segment.stock_fx_to_home
    )
    equity = _equity(spec, window_start, first, last, months, prices, only)
    out["equity"] = equity * keep * stock_fx
    return out


def _place_payments(
    segment: Segment,
    window_start: datetime.date,
    window_end: datetime.date,
    first: datetime.date,
    last: datetime.date,
    months: int,
    out: dict[str, np.ndarray],
    only: EventFilter = None,
) -> None:
    """Add the segment's payments (home currency) to ``out`` at their window months."""
    spec = segment.spec
    for payment in cash_payments(spec, window_end - ONE_DAY):
        amount = payment.amount
        if not first <= payment.day <= last or payment.day == window_end:
            if not (
                payment.paid_if_left
                and segment.end is not None
                and segment.end <= payment.day < window_end
            ):
                continue
            # Paid after leaving: the share of its bonus year worked before the end.
            amount *= payment.earned_share_before(segment.end)
        m = cash_month(window_start, payment.day)
        if 1 <= m <= months and (only is None or only(payment.day, m)):
            out[payment.kind][..., m - 1] += amount * spec.fx_to_home


def _equity(
    spec: PackageSpec,
    window_start: datetime.date,
    first: datetime.date,
    last: datetime.date,
    months: int,
    prices: np.ndarray,
    only: EventFilter = None,
) -> np.ndarray:
    """Return the stock-currency value of the vests on days ``first`` to ``last`` by month.

    A vest on the window start is already vested. A refresher tranche is worth its
    grant-price value times the price at vest over the price at grant (today's price for a
    grant made on or before the window start).
    """
    lead = prices.shape[:-1]
    first = max(first, window_start + ONE_DAY)
    shares = np.zeros(months)
    for grant in spec.grants:
        for day, count in grant_tranches(spec, grant):
            m = vest_month(window_start, day)
            if first <= day <= last and (only is None or only(day, m)):
                shares[m - 1] += count
    equity = shares * prices
    if not spec.refreshers:
        return np.asarray(equity)
    values: list[np.ndarray] = []
    grant_months: list[int] = []
    for refresher in spec.refreshers:
        for _, granted in refresher_grant_days(spec.start, refresher, last):
            row = np.zeros(months)
            for day, value in refresher_tranches(refresher, granted):
                m = vest_month(window_start, day)
                if first <= day <= last and (only is None or only(day, m)):
                    row[m - 1] += value
            if row.any():
                values.append(row)
                grant_months.append(max(0, vest_month(window_start, granted)))
    if not values:
        return np.asarray(equity)
    rows = np.stack(values)  # (grants, months)
    today = np.broadcast_to(np.asarray(spec.stock.price, dtype=np.float64), lead)[..., None]
    with_today = np.concatenate([today, prices], axis=-1)  # index 0: today's price
    at_grant = with_today[..., np.asarray(grant_months)]  # (..., grants)
    ratio = (rows[None] if lead else rows) / at_grant[..., :, None]
    return np.asarray(equity + (ratio * prices[..., None, :]).sum(axis=-2))


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
    ``total`` (gross), ``tax`` (each segment's tax on its own income: see `segment_tax`),
    ``contributions`` (the employee contributions its tax tables levy on its pay, such as
    Hong Kong's MPF) and ``net`` (take-home: ``total - tax - contributions``).
    """
    years = check_int("years", years, minimum=1)
    if not segments:
        raise EngineInputError("segments", "needs at least one segment")
    if len(prices) != len(segments):
        raise EngineInputError("prices", "needs one price array per segment")
    months = 12 * years
    total: dict[str, np.ndarray] = {}
    tax: np.ndarray | float = 0.0
    contributions: np.ndarray | float = 0.0
    for segment, path in zip(segments, prices, strict=True):
        path = np.asarray(path, dtype=np.float64)
        if path.shape[-1] < months:
            raise EngineInputError("prices", f"needs {months} monthly prices (got {path.shape})")
        if not np.all(np.isfinite(path)) or np.any(path <= 0):
            raise EngineInputError("prices", "prices must be positive and finite")
        values = _segment_values(segment, window_start, months, path[..., :months])
        levied = segment_tax(segment, window_start, months, path[..., :months], values)
        tax = tax + levied[0]
        contributions = contributions + levied[1]
        for name, monthly in values.items():
            total[name] = total[name] + monthly if name in total else monthly
    out = {name: _per_year(monthly, years) for name, monthly in total.items()}
    out["total"] = sum(out[c] for c in COMPONENTS)  # type: ignore[assignment]
    for name in COMPONENTS:  # pay without stock is one row for all paths: give it their shape
        if out[name].shape != out["total"].shape:
            out[name] = np.broadcast_to(out[name], out["total"].shape)
    shape = out["total"].shape[:-1] + (months,)
    out["tax"] = _per_year(np.broadcast_to(tax, shape), years)
    out["contributions"] = _per_year(np.broadcast_to(contributions, shape), years)
    out["net"] = out["total"] - out["tax"] - out["contributions"]
    return out


def _tax_padding(
    window_start: datetime.date, months: int, year_starts_month: int
) -> tuple[int, int]:
    """Return the months before and after the window in the tax years of its first and last
    months (each month's own year and the other it touches: a 1 Jan vest in December's)."""

    def year(m: int) -> int:
        return int(month_tax_years(window_start, m, m, year_starts_month)[0])

    def touched(m: int) -> set[int]:
        return {year(m), int(month_other_tax_years(window_start, m, m, year_starts_month)[0])}

    first, last = touched(1), touched(months)
    lead = 0
    while lead < 12 and year(-lead) in first:
        lead += 1
    tail = 0
    while tail < 12 and year(months + tail + 1) in last:
        tail += 1
    return lead, tail


def _in_other_tax_year(origin: datetime.date, year_starts_month: int) -> EventFilter:
    """Return the filter of events on a day of another tax year than their month's.

    Month m counted from ``origin`` is in the tax year of its last payment day (see
    `month_tax_years`); a vest on ``origin + m months`` (1 Jan in the month from 1 Dec) or a
    payment early in a month that a tax year starts inside is not.
    """

    def other(day: datetime.date, m: int) -> bool:
        own = tax_year_of(add_months(origin, m) - ONE_DAY, year_starts_month)
        return tax_year_of(day, year_starts_month) != own

    return other


def _cash_and_equity(values: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the cash, the equity and the ordinary wages (the part of cash paid monthly)."""
    equity = sum(v for k, v in values.items() if k in EQUITY_COMPONENTS)
    cash = sum(v for k, v in values.items() if k not in EQUITY_COMPONENTS)
    ordinary = sum(v for k, v in values.items() if k in ORDINARY_COMPONENTS)
    return np.asarray(cash), np.asarray(equity), np.asarray(ordinary)


def segment_tax(
    segment: Segment,
    window_start: datetime.date,
    months: int,
    prices: np.ndarray,
    values: dict[str, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """Return the segment's home-currency tax and employee contributions per window month.

    Without a tax regime: the flat ``tax_rate_pct`` on each month's gross and no
    contributions. With one: the contributions its tables levy on each month's cash pay
    (`monthly_tax_and_contributions`; base is the ordinary wages, the other cash pay the
    additional wages), and each tax
    year's income from this segment (stock taxed at vest, everything else when paid) is taxed
    with that year's tables in the regime's currency and the tax shared among the year's
    months in proportion to their income. Each payment and vest is in the tax year of its own
    day, even when its month is mostly in another (a vest on 1 Jan in the month from 1 Dec).
    A tax year cut by the window's edges also counts the segment's income in its months
    outside the window (before the window at today's share price, after it at the last one;
    on the median path when ``prices`` holds many paths), so a window starting in December
    does not tax that December as if it were the year's only income.
    """
    spec = segment.spec
    gross = sum(values.values())
    if spec.tax_regime is None:
        flat = np.asarray(gross * spec.tax_rate_pct / 100.0)
        return flat, np.zeros_like(flat)
    regime = regime_get(spec.tax_regime)
    starts = regime.year_starts_month
    lead, tail = _tax_padding(window_start, months, starts)
    n = lead + months + tail
    # Income in its month's tax year ("own") and on days of the other year the month touches.
    other = _segment_values(
        segment, window_start, months, prices, _in_other_tax_year(window_start, starts)
    )
    other_cash, other_equity, other_ordinary = _cash_and_equity(other)
    cash, equity, ordinary = _cash_and_equity(values)
    arrays = [
        cash - other_cash,
        equity - other_equity,
        other_cash,
        other_equity,
        ordinary - other_ordinary,
        other_ordinary,
    ]
    if lead or tail:
        outer_start = add_months(window_start, -lead)
        outer = Segment(
            spec,
            outer_start if segment.start <= window_start else segment.start,
            segment.end,
            segment.stock_fx_to_home,
        )
        # The months outside the window only set the rate: value them once, on the median
        # simulated path when there are many (exact for one deterministic path).
        path = prices if prices.ndim == 1 else np.median(prices.reshape(-1, months), axis=0)
        outer_prices = np.concatenate(
            [np.full(lead, spec.stock.price), path, np.full(tail, path[-1])]
        )
        around = _segment_values(outer, outer_start, n, outer_prices)
        around_other = _segment_values(
            outer, outer_start, n, outer_prices, _in_other_tax_year(outer_start, starts)
        )
        a_cash, a_equity, a_ordinary = _cash_and_equity(around)
        o_cash, o_equity, o_ordinary = _cash_and_equity(around_other)
        outsides = (
            a_cash - o_cash,
            a_equity - o_equity,
            o_cash,
            o_equity,
            a_ordinary - o_ordinary,
            o_ordinary,
        )
        padded = []
        # Inside the window the exact values stand; outside, the padded run's.
        for inside, outside in zip(arrays, outsides, strict=True):
            full = np.array(np.broadcast_to(outside, (*prices.shape[:-1], n)))
            full[..., lead : lead + months] = inside
            padded.append(full)
        arrays = padded
    own_cash, own_equity, other_cash, other_equity, own_ordinary, other_ordinary = (
        np.broadcast_arrays(*arrays)
    )
    tax_years = month_tax_years(window_start, 1 - lead, months + tail, starts)
    cash, equity, ordinary, columns = own_cash, own_equity, own_ordinary, np.arange(n)
    if np.any(other_cash) or np.any(other_equity):  # else the other columns would all be 0
        tax_years = np.concatenate(
            [tax_years, month_other_tax_years(window_start, 1 - lead, months + tail, starts)]
        )
        cash = np.concatenate([own_cash, other_cash], axis=-1)
        equity = np.concatenate([own_equity, other_equity], axis=-1)
        ordinary = np.concatenate([own_ordinary, other_ordinary], axis=-1)
        # A month's two columns share its contribution caps; a tax year's columns stay in date
        # order (cash on days of another year is at that year's end, after its own months).
        columns = np.tile(columns, 2)
    to_regime = spec.to_tax_currency / spec.fx_to_home  # home currency -> the regime's currency
    tax, contributions = monthly_tax_and_contributions(
        regime, tax_years, cash, equity, to_regime, months=columns, ordinary=ordinary
    )
    if columns.shape[0] > n:
        tax, contributions = (
            tax[..., :n] + tax[..., n:],
            contributions[..., :n] + contributions[..., n:],
        )
    inside = slice(lead, lead + months)
    return np.asarray(tax[..., inside]), np.asarray(contributions[..., inside])


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
    from .montecarlo import simulate_price_paths, stream

    if column not in ("total", "net"):
        raise EngineInputError("column", f"must be 'total' or 'net' (got {column!r})")
    months = 12 * check_int("years", years, minimum=1)
    paths = check_int("paths", paths, minimum=1)
    stocks: dict[tuple[object, ...], Stock] = {}
    for segments in options.values():
        for segment in segments:
            stocks.setdefault(_stock_key(segment.spec.stock), segment.spec.stock)
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
    out: dict[str, np.ndarray] = {}
    for key, segments in options.items():
        prices = [simulated[_stock_key(s.spec.stock)] for s in segments]
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
