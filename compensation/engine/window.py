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
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from .components import COMPONENTS, EQUITY_COMPONENTS, ORDINARY_COMPONENTS
from .dates import add_months, whole_months_between
from .errors import EngineInputError, check_int
from .events import (
    ONE_DAY,
    Payment,
    bonus_payments,
    cash_month,
    cash_payments,
    grant_tranches,
    refresher_grant_days,
    refresher_tranches,
    vest_month,
)
from .prices import simulate_price_paths, stream
from .spec import PackageSpec, Stock, monthly_base
from .tax import (
    TaxedIncome,
    TaxRegime,
    column_contributions,
    joint_tax,
    month_other_tax_years,
    month_tax_years,
    regime_get,
    tax_year_of,
)

# Which dated events to count: called with an event's day and its month; None counts all.
EventFilter = Callable[[datetime.date, int], bool] | None


@dataclass(frozen=True)
class Segment:
    """One package counted from ``start`` (inclusive) until ``end`` (exclusive, None: window end).

    ``stock_fx_to_home`` converts the stock's currency into home currency (None: through the
    package currency, ``spec.stock.fx_to_package * spec.fx_to_home``). ``current`` marks the
    job held on the decision date (staying, or a leaving option's months until its start):
    the first tax year's months before its package started were paid by it too
    (`pay_before_start`); a new job is not, whatever its start date.
    """

    spec: PackageSpec
    start: datetime.date
    end: datetime.date | None = None
    stock_fx_to_home: float | None = None
    current: bool = False


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


@dataclass(frozen=True)
class SegmentBounds:
    """The window months and days a segment counts: months ``lo``+1..``hi`` of its base and
    the days ``first`` to ``last`` of its payments and vests (``last < first``: none)."""

    lo: int
    hi: int
    first: datetime.date
    last: datetime.date
    window_end: datetime.date


def segment_bounds(segment: Segment, window_start: datetime.date, months: int) -> SegmentBounds:
    """Return the months and days of the window ``segment`` counts."""
    lo = window_months(window_start, segment.start)
    hi = months if segment.end is None else min(months, window_months(window_start, segment.end))
    window_end = add_months(window_start, months)
    first = max(segment.start, window_start)
    last = window_end if segment.end is None else min(window_end, segment.end - ONE_DAY)
    return SegmentBounds(lo, hi, first, last, window_end)


def segment_base(segment: Segment, window_start: datetime.date, months: int) -> np.ndarray:
    """Return the segment's monthly base (package currency) in window months 1..months.

    Base is counted by whole months (`window_months`): package month n (1-based) is window
    month n - offset; months the segment does not cover are 0.
    """
    spec = segment.spec
    bounds = segment_bounds(segment, window_start, months)
    offset = whole_months_between(spec.start, window_start)
    n_pkg = offset + months
    if bounds.last < bounds.first or n_pkg <= 0 or bounds.hi <= bounds.lo:
        return np.zeros(months)
    k = np.arange(1, n_pkg + 1) - offset
    base = monthly_base(spec, n_pkg)
    active = (k >= bounds.lo + 1) & (k <= bounds.hi)
    return _to_window(np.where(active, base, 0.0), k, months)


def stock_fx_to_home(segment: Segment) -> float:
    """Return home currency per unit of the segment's stock currency."""
    spec = segment.spec
    if segment.stock_fx_to_home is None:
        return spec.stock.fx_to_package * spec.fx_to_home
    return segment.stock_fx_to_home


def _segment_values(
    segment: Segment,
    window_start: datetime.date,
    months: int,
    prices: np.ndarray,
    only: EventFilter = None,
) -> dict[str, np.ndarray]:
    """Return this segment's monthly home-currency gross components over the window months.

    Base is counted by whole months (`segment_base`). Everything else is placed by its real
    day (see `events`): a payment on a day the segment covers, in the month holding it
    (`cash_month`); a vest after the window start on a day the segment covers, in the month
    holding it (`vest_month`). A leaving option's current job covers the days before the new
    job's start: a tranche vesting on the start date is forfeited, and a bonus paid on or
    after it is not paid unless its bonus cycle pays the share worked (``paid_if_left``).
    With ``only``, just the payments and vests it accepts (by day and month), without base.
    Equity is shaped like ``prices``, at its full (taxable) value: `decision_values` takes
    the liquidity discount off; the cash components, the same on every price path, are
    one row (months,).
    """
    spec = segment.spec
    lead = prices.shape[:-1]
    out = {c: np.zeros((*lead, months) if c in EQUITY_COMPONENTS else months) for c in COMPONENTS}
    bounds = segment_bounds(segment, window_start, months)
    if bounds.last < bounds.first:
        return out
    fx = spec.fx_to_home
    if only is None:
        out["base"] = segment_base(segment, window_start, months) * fx
    for placed in segment_payments(segment, window_start, months, only):
        out[placed.payment.kind][..., placed.month - 1] += placed.amount * fx
    equity = _equity(spec, window_start, bounds.first, bounds.last, months, prices, only)
    # At its full value: the taxable income at vest (`decision_values` applies the discount).
    out["equity"] = equity * stock_fx_to_home(segment)
    return out


def liquidity_keep(spec: PackageSpec) -> float:
    """Return the share of a vest's value a decision counts: 1 - the liquidity discount."""
    return 1.0 - spec.stock.liquidity_discount_pct / 100.0


def decision_values(spec: PackageSpec, values: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return a segment's monthly components as a decision counts them: its stock less the
    liquidity discount.

    Private stock is taxed at its full value at vest (`_segment_values` is that value, which
    `option_tax` taxes); the discount, a haircut for selling it only in buybacks, lowers the
    value the options are compared on, never the income a tax table sees.
    """
    keep = liquidity_keep(spec)
    if keep == 1.0:
        return values
    return {k: v * keep if k in EQUITY_COMPONENTS else v for k, v in values.items()}


@dataclass(frozen=True)
class PlacedPayment:
    """A payment the window counts: its ``amount`` (package currency; a bonus paid after
    leaving is the ``share`` of its bonus year worked, else 1) in window month ``month``."""

    payment: Payment
    amount: float
    share: float
    month: int


def segment_payments(
    segment: Segment, window_start: datetime.date, months: int, only: EventFilter = None
) -> list[PlacedPayment]:
    """Return the segment's payments the window counts, each at its window month."""
    spec = segment.spec
    bounds = segment_bounds(segment, window_start, months)
    first, last, window_end = bounds.first, bounds.last, bounds.window_end
    out: list[PlacedPayment] = []
    if last < first:
        return out
    for payment in cash_payments(spec, window_end - ONE_DAY):
        share = 1.0
        if not first <= payment.day <= last or payment.day == window_end:
            if not (
                payment.paid_if_left
                and segment.end is not None
                and segment.end <= payment.day < window_end
            ):
                continue
            # Paid after leaving: the share of its bonus year worked before the end.
            share = payment.earned_share_before(segment.end)
        m = cash_month(window_start, payment.day)
        if 1 <= m <= months and (only is None or only(payment.day, m)):
            out.append(PlacedPayment(payment, payment.amount * share, share, m))
    return out


@dataclass(frozen=True)
class GrantVest:
    """A tranche of a grant the window counts: its day, window month and shares."""

    grant: int
    day: datetime.date
    month: int
    shares: float


@dataclass(frozen=True)
class RefresherVest:
    """A tranche of a refresher grant the window counts: its value at the grant price.

    ``granted_month`` is the window month whose price is the grant price (0: today's).
    """

    refresher: int
    granted: datetime.date
    granted_month: int
    day: datetime.date
    month: int
    value: float


def segment_vests(
    spec: PackageSpec,
    window_start: datetime.date,
    first: datetime.date,
    last: datetime.date,
    only: EventFilter = None,
) -> tuple[list[GrantVest], list[list[RefresherVest]]]:
    """Return the grant tranches and, by refresher grant, the refresher tranches vesting on
    days ``first`` to ``last`` (a vest on the window start is already vested)."""
    first = max(first, window_start + ONE_DAY)
    grants: list[GrantVest] = []
    for i, grant in enumerate(spec.grants):
        for day, count in grant_tranches(spec, grant):
            if not first <= day <= last:
                continue
            m = vest_month(window_start, day)
            if only is None or only(day, m):
                grants.append(GrantVest(i, day, m, count))
    refreshers: list[list[RefresherVest]] = []
    for j, refresher in enumerate(spec.refreshers):
        for _, granted in refresher_grant_days(spec.start, refresher, last, spec.as_of):
            at = max(0, vest_month(window_start, granted))
            row = []
            for day, value in refresher_tranches(refresher, granted):
                if not first <= day <= last:
                    continue
                m = vest_month(window_start, day)
                if only is None or only(day, m):
                    row.append(RefresherVest(j, granted, at, day, m, value))
            if any(v.value for v in row):
                refreshers.append(row)
    return grants, refreshers


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
    grant_vests, refresher_vests = segment_vests(spec, window_start, first, last, only)
    shares = np.zeros(months)
    for vest in grant_vests:
        shares[vest.month - 1] += vest.shares
    equity = shares * prices
    if not refresher_vests:
        return np.asarray(equity)
    values: list[np.ndarray] = []
    grant_months: list[int] = []
    for tranches in refresher_vests:
        row = np.zeros(months)
        for tranche in tranches:
            row[tranche.month - 1] += tranche.value
        values.append(row)
        grant_months.append(tranches[0].granted_month)
    today = np.broadcast_to(np.asarray(spec.stock.price, dtype=np.float64), lead)[..., None]
    with_today = np.concatenate([today, prices], axis=-1)  # index 0: today's price
    # One refresher grant at a time, added in grant order: the sums of a (..., grants, months)
    # array over its grants, without building it (paths x grants x months on many paths).
    refreshed = None
    for row, at in zip(values, grant_months, strict=True):
        vested = row / with_today[..., at, None] * prices
        refreshed = vested if refreshed is None else refreshed + vested
    return np.asarray(equity + refreshed)


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
    medians: Sequence[np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Return gross home-currency components and tax per window year, shaped (..., years).

    ``prices[i]`` is segment i's share price per window month; on many simulated paths,
    ``medians[i]`` may give their median path (`median_path`, else worked out here). Keys:
    the five components (stock less its liquidity discount: `decision_values`), ``total``
    (gross), ``tax`` (each tax year's tax on the income of the segments its regime taxes in
    it, together, stock at its full value at vest: see `option_tax`),
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
    paths: list[np.ndarray] = []
    all_values: list[dict[str, np.ndarray]] = []
    for segment, path in zip(segments, prices, strict=True):
        path = np.asarray(path, dtype=np.float64)
        if path.shape[-1] < months:
            raise EngineInputError("prices", f"needs {months} monthly prices (got {path.shape})")
        if not np.all(np.isfinite(path)) or np.any(path <= 0):
            raise EngineInputError("prices", "prices must be positive and finite")
        paths.append(path[..., :months])
        if path.ndim == 1:
            all_values.append(_one_path_values(segment, window_start, months, _key(paths[-1])))
        else:
            all_values.append(_segment_values(segment, window_start, months, paths[-1]))
        for name, monthly in decision_values(segment.spec, all_values[-1]).items():
            total[name] = total[name] + monthly if name in total else monthly
    if all(p.ndim == 1 for p in paths):
        levies = _one_path_tax(tuple(segments), window_start, months, tuple(_key(p) for p in paths))
    else:
        levies = tuple(option_tax(segments, window_start, months, paths, all_values, medians))
    for levied in levies:
        tax = tax + levied[0]
        contributions = contributions + levied[1]
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
    values = _segment_values(segment, window_start, months, path)
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
    # Before the window, a month whose later days are in the first tax year counts too (from
    # 1 Dec 2026: the month from 1 Dec 2025 holds a vest on 1 Jan 2026).
    while lead < 13 and touched(-lead) & first:
        lead += 1
    tail = 0
    while tail < 12 and year(months + tail + 1) in last:
        tail += 1
    return lead, tail


def _in_other_tax_year(origin: datetime.date, year_starts_month: int) -> EventFilter:
    """Return the filter of events on a day of another tax year than their month's.

    Month m counted from ``origin`` is in the tax year of its first day (see
    `month_tax_years`); a vest on ``origin + m months`` (1 Jan in the month from 1 Dec) or a
    payment late in a month that a tax year starts inside (1 Jan in the month from 2 Dec) is
    not.
    """

    def other(day: datetime.date, m: int) -> bool:
        own = tax_year_of(add_months(origin, m - 1), year_starts_month)
        return tax_year_of(day, year_starts_month) != own

    return other


def pay_before_start(
    spec: PackageSpec, outer_start: datetime.date, lead: int
) -> tuple[np.ndarray, list[PlacedPayment]]:
    """Return the home-currency base of the ``lead`` months from ``outer_start`` that fall
    before the package's first month, at its first month's rate (0 for the others), and the
    bonuses its terms would have paid in them, at its first year's base.

    A progressive tax on a year's income must see the whole tax year. The package a person
    holds on the decision date (the current job, whose package the demo, like many users,
    starts on the decision date) is their pay in the months of the first tax year before
    the window too: its annualised base counts toward that year's brackets, and so does the
    bonus its bonus cycle paid in those months (the demo's calendar-year bonus paid on 15
    March). Only the tax attributable to the window's months is counted: a tax year's tax is
    shared among its months in proportion to their income (`option_tax`), and the months
    outside the window are dropped. Only a ``Segment.current`` gets them: a new job starting
    on the decision date says nothing of what was earned before (perhaps in another place).
    A bonus is placed at its window month from ``outer_start`` (`PlacedPayment.month`).
    """
    out = np.zeros(lead)
    first = 1 - whole_months_between(spec.start, outer_start)  # outer month of package month 1
    before = min(lead, first - 1)
    if before > 0:
        out[:before] = monthly_base(spec, 1)[0] * spec.fx_to_home
    # The same terms held for years before the package's start, at its first year's base.
    held = replace(spec, start=add_months(spec.start, -12 * (lead // 12 + 2)), raise_pct=0.0)
    bonuses = []
    for payment in bonus_payments(held, spec.start - ONE_DAY):
        m = cash_month(outer_start, payment.day)
        if payment.day < spec.start and 1 <= m <= lead:
            amount = payment.amount * spec.fx_to_home
            bonuses.append(PlacedPayment(payment, amount, 1.0, m))
    return out, bonuses


def _cash_and_equity(values: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the cash, the equity and the ordinary wages (the part of cash paid monthly).

    Only equity depends on the share price: on many simulated paths, cash and ordinary wages
    are one row (months,) (`_segment_values`), so that the contributions levied on them are
    worked out once rather than once a path.
    """
    equity = sum(v for k, v in values.items() if k in EQUITY_COMPONENTS)
    cash = sum(v for k, v in values.items() if k not in EQUITY_COMPONENTS)
    ordinary = sum(v for k, v in values.items() if k in ORDINARY_COMPONENTS)
    return np.asarray(cash), np.asarray(equity), np.asarray(ordinary)


def tax_groups(segments: Sequence[Segment]) -> list[list[int]]:
    """Return the indices of the segments taxed together: those whose regimes share a table
    (a leaving option's two jobs in one place, or in California and then Washington, which
    share the US federal return), each other segment alone (a flat rate, another country)."""
    kinds: list[set[str]] = []
    for segment in segments:
        key = segment.spec.tax_regime
        regime = None if key is None else regime_get(key)
        kinds.append(set() if regime is None else {t.kind for y in regime.years for t in y.tables})
    groups: list[list[int]] = []
    shared: list[set[str]] = []
    for i, mine in enumerate(kinds):
        joined = [g for g, held in enumerate(shared) if held & mine]
        group = [i] + [k for g in joined for k in groups[g]]
        held = mine.union(*(shared[g] for g in joined))
        for g in reversed(joined):
            del groups[g], shared[g]
        groups.append(sorted(group))
        shared.append(held)
    return sorted(groups)


def option_tax(
    segments: Sequence[Segment],
    window_start: datetime.date,
    months: int,
    prices: Sequence[np.ndarray],
    values: Sequence[dict[str, np.ndarray]],
    medians: Sequence[np.ndarray | None] | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return each segment's home-currency tax and employee contributions per window month.

    Without a tax regime: the flat ``tax_rate_pct`` on each month's gross and no
    contributions. With one: the contributions its tables levy on each month's cash pay of
    the segment (`tax.column_contributions`; base is the ordinary wages, the other cash pay
    the additional wages), and each tax year's income (stock taxed at vest, everything else
    when paid) taxed with that year's tables in the regime's currency, the tax shared among
    the year's months in proportion to their income. The segments whose regimes share a
    table are taxed together (`tax_groups`, `tax.joint_tax`), one return a table a tax year:
    a person who leaves a job in Singapore for another in Singapore on 1 July is taxed on the
    year's combined income, each job's months bearing their share, and one who moves from
    California to Washington files one federal return (one standard deduction, the Social
    Security wage base once) while each state taxes the income earned there. Each payment and vest is in the tax year of its own day, even when its month
    is mostly in another (a vest on 1 Jan in the month from 1 Dec). A tax year cut by the
    window's edges also counts the segment's income in its months outside the window (before
    the window at today's share price, after it at the last one; on the median path when
    ``prices`` holds many paths), so a window starting in December does not tax that December
    as if it were the year's only income. For the job held on the decision date
    (``segment.current``) those months count its base and bonuses even before its package's
    start date (`pay_before_start`).
    """
    out: list[tuple[np.ndarray, np.ndarray]] = [(np.zeros(0), np.zeros(0))] * len(segments)
    for group in tax_groups(segments):
        found = [
            segment_tax_columns(
                segments[i],
                window_start,
                months,
                prices[i],
                values[i],
                None if medians is None else medians[i],
            )
            for i in group
        ]
        if found[0] is None:
            (i,) = group
            gross = sum(values[i].values())
            flat = np.asarray(gross * segments[i].spec.tax_rate_pct / 100.0)
            out[i] = (flat, np.zeros_like(flat))
            continue
        columns = [c for c in found if c is not None]
        levied = [
            column_contributions(
                c.regime, c.tax_years, c.cash, c.to_regime, months=c.months, ordinary=c.ordinary
            )
            for c in columns
        ]
        incomes = [
            TaxedIncome(c.regime, c.tax_years, c.cash, c.equity, deductible, c.to_regime)
            for c, (_, deductible, _) in zip(columns, levied, strict=True)
        ]
        taxes = joint_tax(incomes)
        for i, c, tax, (contributions, _, _) in zip(group, columns, taxes, levied, strict=True):
            out[i] = _inside_window(c, months, tax, np.broadcast_to(contributions, tax.shape))
    return out


def _inside_window(
    columns: TaxColumns, months: int, tax: np.ndarray, contributions: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return the window months of a segment's tax and contributions by column (a month's
    second column, in another tax year, added to its first)."""
    n = columns.lead + months + columns.tail
    if columns.months.shape[0] > n:
        tax, contributions = (
            tax[..., :n] + tax[..., n:],
            contributions[..., :n] + contributions[..., n:],
        )
    inside = slice(columns.lead, columns.lead + months)
    return np.asarray(tax[..., inside]), np.asarray(contributions[..., inside])


@dataclass(frozen=True)
class TaxColumns:
    """A segment's income as its regime taxes it: one column per month and tax year.

    ``cash``, ``equity`` and ``ordinary`` (the base within cash) are home-currency income
    shaped (..., columns) (cash and ordinary wages (columns,) on many simulated paths: they
    do not depend on the share price); column i is padded month ``months[i]`` (0 is ``lead``
    months before the window start) in tax year ``tax_years[i]``. A month whose income falls in two
    tax years has a second column after the first run of ``lead + window + tail`` columns.
    ``to_regime`` converts home currency into the regime's.
    """

    regime: TaxRegime
    tax_years: np.ndarray
    cash: np.ndarray
    equity: np.ndarray
    ordinary: np.ndarray
    months: np.ndarray
    to_regime: float
    lead: int
    tail: int


def segment_tax_columns(
    segment: Segment,
    window_start: datetime.date,
    months: int,
    prices: np.ndarray,
    values: dict[str, np.ndarray],
    median: np.ndarray | None = None,
) -> TaxColumns | None:
    """Return the income `option_tax` taxes, by month and tax year (None: a flat rate).

    ``median`` is the median path of many simulated ``prices`` (None: worked out here).
    """
    spec = segment.spec
    if spec.tax_regime is None:
        return None
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
        path = prices if prices.ndim == 1 else median_path(prices) if median is None else median
        outer_prices = np.concatenate(
            [np.full(lead, spec.stock.price), path, np.full(tail, path[-1])]
        )
        around = _segment_values(outer, outer_start, n, outer_prices)
        around_other = _segment_values(
            outer, outer_start, n, outer_prices, _in_other_tax_year(outer_start, starts)
        )
        a_cash, a_equity, a_ordinary = _cash_and_equity(around)
        o_cash, o_equity, o_ordinary = _cash_and_equity(around_other)
        if segment.current and segment.start <= window_start:
            # The job held on the decision date: the first tax year's months before its
            # package starts were earned all the same (see `pay_before_start`).
            base_before, bonuses = pay_before_start(spec, outer_start, lead)
            earlier = np.zeros(n)
            earlier[:lead] = base_before
            a_cash, a_ordinary = a_cash + earlier, a_ordinary + earlier
            o_cash = np.array(o_cash, dtype=np.float64)
            in_other = _in_other_tax_year(outer_start, starts)
            for placed in bonuses:
                a_cash[..., placed.month - 1] += placed.amount
                if in_other is not None and in_other(placed.payment.day, placed.month):
                    o_cash[..., placed.month - 1] += placed.amount
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
            full = np.array(np.broadcast_to(outside, (*inside.shape[:-1], n)))
            full[..., lead : lead + months] = inside
            padded.append(full)
        arrays = padded
    # Cash (one row: the same on every path) and equity (one row a path) keep their shapes.
    own_cash, own_equity, other_cash, other_equity, own_ordinary, other_ordinary = arrays
    own_cash, other_cash, own_ordinary, other_ordinary = np.broadcast_arrays(
        own_cash, other_cash, own_ordinary, other_ordinary
    )
    own_equity, other_equity = np.broadcast_arrays(own_equity, other_equity)
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
    return TaxColumns(
        regime,
        tax_years,
        np.asarray(cash),
        np.asarray(equity),
        np.asarray(ordinary),
        columns,
        to_regime,
        lead,
        tail,
    )


def median_path(prices: np.ndarray) -> np.ndarray:
    """Return the median of many simulated (..., months) price paths, month by month."""
    return np.asarray(np.median(prices.reshape(-1, prices.shape[-1]), axis=0))


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


def _path_stocks(options: dict[str, Sequence[Segment]]) -> dict[tuple[object, ...], Stock]:
    """Return the stock each share-price process follows: the first seen of its ticker."""
    stocks: dict[tuple[object, ...], Stock] = {}
    for segments in options.values():
        for segment in segments:
            stocks.setdefault(_stock_key(segment.spec.stock), segment.spec.stock)
    return stocks


def path_stocks(options: dict[str, Sequence[Segment]]) -> dict[str, tuple[Stock, ...]]:
    """Return, by option, the stock whose simulated prices each of its segments sees in
    `window_paths` (with its segments and the seed, all its simulated values depend on)."""
    stocks = _path_stocks(options)
    return {
        key: tuple(stocks[_stock_key(s.spec.stock)] for s in segments)
        for key, segments in options.items()
    }


def window_paths(
    options: dict[str, Sequence[Segment]],
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
    if column not in ("total", "net"):
        raise EngineInputError("column", f"must be 'total' or 'net' (got {column!r})")
    months = 12 * check_int("years", years, minimum=1)
    paths = check_int("paths", paths, minimum=1)
    stocks = _path_stocks(options)
    valued = {k: v for k, v in options.items() if only is None or k in only}
    needed = {_stock_key(s.spec.stock) for segments in valued.values() for s in segments}
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
    # The months outside the window are valued on the median path: one per price process.
    medians = {key: median_path(paths[..., :months]) for key, paths in simulated.items()}
    out: dict[str, np.ndarray] = {}
    for key, segments in valued.items():
        keys = [_stock_key(s.spec.stock) for s in segments]
        values = window_yearly(
            segments,
            window_start=window_start,
            years=years,
            prices=[simulated[k] for k in keys],
            medians=[medians[k] for k in keys],
        )
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
