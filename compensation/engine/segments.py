"""Where a segment's events fall in the common window: its months of base, its payments and
its vests, by window month, in home currency (`window` sums them, `segment_tax` taxes them)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from .components import COMPONENTS, EQUITY_COMPONENTS, VESTING_COMPONENTS
from .dates import add_months, whole_months_between
from .events import (
    ONE_DAY,
    Payment,
    cash_month,
    cash_payments,
    grant_tranches,
    grant_vest_start,
    refresher_grant_days,
    refresher_tranches,
    vest_month,
)
from .spec import PackageSpec, monthly_base
from .tax.tables import regime_get

# Which dated events to count: called with an event's day and its month; None counts all.
EventFilter = Callable[[datetime.date, int], bool] | None


@dataclass(frozen=True)
class Segment:
    """One package counted from ``start`` (inclusive) until ``end`` (exclusive, None: window end).

    ``stock_fx_to_home`` converts the stock's currency into home currency (None: through the
    package currency, ``spec.stock.fx_to_package * spec.fx_to_home``). ``current`` marks the
    job held on the decision date (staying, or a leaving option's months until its start): the
    first tax year's months before its package started were paid by it too
    (`segment_tax.pay_before_start`); a new job is not, whatever its start date.

    ``transfer`` marks an internal transfer from the segment before: its vests are taxed in
    each place by their days there (`sourced_segments`, which sets ``vest_days``: count the
    share of each vest's days from ``start``, or before it with no base or payments).
    """

    spec: PackageSpec
    start: datetime.date
    end: datetime.date | None = None
    stock_fx_to_home: float | None = None
    current: bool = False
    transfer: bool = False
    vest_days: Literal["from_start", "before_start"] | None = None


def package_segment(spec: PackageSpec) -> Segment:
    """Return a package valued alone, from its own start: the job held on it when the spec
    says so (``current_job``), as the board's current job is."""
    return Segment(spec, spec.start, current=spec.current_job)


def sourced_segments(
    segments: Sequence[Segment],
) -> tuple[list[Segment], list[tuple[int, int | None]]]:
    """Return the segments as taxed, each with (the segment it comes from, the one whose
    place taxes it when not its own): a transfer's vests split by the days before its start,
    those taxed by the rule of the segment before, on the vest day (docs/engine.md, "Tax")."""
    out = list(segments)
    origins: list[tuple[int, int | None]] = [(k, None) for k in range(len(segments))]
    for i, segment in enumerate(segments):
        spec, place = segment.spec, segments[i - 1].spec
        if i == 0 or not segment.transfer or _rule(spec) == _rule(place):
            continue  # nothing before it, or one rule on both sides: nothing to split
        same = place.tax_regime is None or regime_get(place.tax_regime).currency == spec.currency
        fx = None if same else spec.fx_to_home * place.to_tax_currency / place.fx_to_home
        taxed = replace(spec, **_rule(place), fx_to_tax=fx)
        out[i] = replace(segment, vest_days="from_start")
        out.append(replace(out[i], spec=taxed, vest_days="before_start"))
        origins.append((i, i - 1))
    return out, origins


def _rule(spec: PackageSpec) -> dict[str, Any]:
    """Return how a package is taxed: its regime, or its flat rate."""
    return {k: getattr(spec, k) for k in ("tax_regime", "tax_rate_pct", "tax_unknown")}


def days_before(since: datetime.date, day: datetime.date, move: datetime.date) -> tuple[int, int]:
    """Return a vest's days (from ``since``, its vesting start, to ``day``) before ``move``,
    and all of them."""
    total = max((day - since).days, 1)
    return min(max((move - since).days, 0), total), total


def window_months(window_start: datetime.date, day: datetime.date) -> int:
    """Return the whole months from the window start to ``day`` (0 if before the start)."""
    return max(0, whole_months_between(window_start, day))


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
    stock_only = segment.vest_days == "before_start"  # the place before a transfer's vests
    if stock_only or bounds.last < bounds.first or n_pkg <= 0 or bounds.hi <= bounds.lo:
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


def segment_values(
    segment: Segment,
    window_start: datetime.date,
    months: int,
    prices: np.ndarray,
    only: EventFilter = None,
) -> dict[str, np.ndarray]:
    """Return this segment's monthly home-currency gross components over the window months.

    Base is counted by whole months (`segment_base`), payments and vests on the days the
    segment covers in the months holding them (`segment_payments`, `segment_vests`). With
    ``only``, just the payments and vests it accepts (by day and month), without base.
    Equity is shaped like ``prices``, at its full (taxable) value (`decision_values` takes
    the liquidity discount off); cash, the same on every price path, is one row (months,).
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
    vests = segment_vests(segment, window_start, bounds.first, bounds.last, only)
    equity = _equity(spec, vests, months, prices)
    # At its full value: the taxable income at vest (`decision_values` applies the discount).
    out["equity"] = equity * stock_fx_to_home(segment)
    return out


def liquidity_keep(spec: PackageSpec) -> float:
    """Return the share of a vest's value a decision counts: 1 - the liquidity discount."""
    return 1.0 - spec.stock.liquidity_discount_pct / 100.0


def decision_values(spec: PackageSpec, values: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return a segment's monthly components as a decision counts them: its stock less the
    liquidity discount.

    Private stock is taxed at its full value at vest (`segment_values` is that value, which
    `option_tax` taxes); the discount, a haircut for selling it only in buybacks, lowers the
    value the options are compared on, never the income a tax table sees.
    """
    keep = liquidity_keep(spec)
    if keep == 1.0:
        return values
    return {k: v * keep if k in VESTING_COMPONENTS else v for k, v in values.items()}


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
    """Return the segment's payments the window counts, each at its window month (`cash_month`).

    A leaving option's current job covers the days before the new job's start: a bonus paid
    on or after it is not paid unless its bonus cycle pays the share worked (``paid_if_left``).
    """
    spec = segment.spec
    bounds = segment_bounds(segment, window_start, months)
    first, last, window_end = bounds.first, bounds.last, bounds.window_end
    out: list[PlacedPayment] = []
    if last < first or segment.vest_days == "before_start":
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


class _Part:
    days: tuple[int, int] | None  # a split tranche's days counted and all its days

    @property
    def part(self) -> float:
        """Return the share of the tranche the segment counts."""
        return 1.0 if self.days is None else self.days[0] / self.days[1]


@dataclass(frozen=True)
class GrantVest(_Part):
    """A tranche of a grant the window counts: its day, window month and shares."""

    grant: int
    day: datetime.date
    month: int
    shares: float
    days: tuple[int, int] | None = None


@dataclass(frozen=True)
class RefresherVest(_Part):
    """A tranche of a refresher grant the window counts: its value at the grant price.

    ``granted_month`` is the window month whose price is the grant price (0: today's).
    """

    refresher: int
    granted: datetime.date
    granted_month: int
    day: datetime.date
    month: int
    value: float
    days: tuple[int, int] | None = None


Vests = tuple[list[GrantVest], list[list[RefresherVest]]]


def segment_vests(
    segment: Segment,
    window_start: datetime.date,
    first: datetime.date,
    last: datetime.date,
    only: EventFilter = None,
) -> Vests:
    """Return the grant tranches and, by refresher grant, the refresher tranches vesting on
    days ``first`` to ``last``, each in its window month (`vest_month`): a vest on the window
    start is already vested, one on a leaving option's start date forfeited; each the part
    of its days the segment counts (`Segment.vest_days`), none left out."""
    spec = segment.spec
    first = max(first, window_start + ONE_DAY)

    def month_of(day: datetime.date) -> int:
        """Return the window month of a vest on ``day`` the window counts (0: not counted)."""
        if not first <= day <= last:
            return 0
        m = vest_month(window_start, day)
        return m if only is None or only(day, m) else 0

    def share(since: datetime.date, day: datetime.date) -> tuple[int, int] | None:
        """Return a tranche's days counted and all its days (None: the whole tranche)."""
        if segment.vest_days is None:
            return None
        before, total = days_before(since, day, segment.start)
        here = before if segment.vest_days == "before_start" else total - before
        return None if here == total else (here, total)

    grants = [
        GrantVest(i, day, m, count, share(grant_vest_start(spec, grant), day))
        for i, grant in enumerate(spec.grants)
        for day, count in grant_tranches(spec, grant)
        if (m := month_of(day))
    ]
    refreshers: list[list[RefresherVest]] = []
    for j, refresher in enumerate(spec.refreshers):
        for _, granted in refresher_grant_days(spec.start, refresher, last, spec.as_of):
            at = max(0, vest_month(window_start, granted))
            row = [
                RefresherVest(j, granted, at, day, m, value, share(granted, day))
                for day, value in refresher_tranches(refresher, granted)
                if (m := month_of(day))
            ]
            if any(v.value for v in row):
                refreshers.append(row)
    grants = [v for v in grants if v.part > 0.0]
    refreshers = [[v for v in row if v.part > 0.0] for row in refreshers]
    return grants, [row for row in refreshers if row]


def _equity(spec: PackageSpec, vests: Vests, months: int, prices: np.ndarray) -> np.ndarray:
    """Return the stock-currency value of the vests (`segment_vests`) by month, each the
    part of it the segment counts.

    A refresher tranche is worth its grant-price value times the price at vest over the
    price at grant (today's price for a grant made on or before the window start).
    """
    grant_vests, refresher_vests = vests
    shares = np.zeros(months)
    for vest in grant_vests:
        shares[vest.month - 1] += vest.shares * vest.part
    if not refresher_vests:
        return np.asarray(shares * prices)
    # Refresher grant g's tranches are units of its grant-price value: shares bought at the
    # price of its grant month (index 0: today's), so value = price x (grant shares + sum_g
    # value_g / price at grant g): one (..., grants) @ (grants, months) product.
    rows = np.zeros((len(refresher_vests), months))
    for g, tranches in enumerate(refresher_vests):
        for tranche in tranches:
            rows[g, tranche.month - 1] += tranche.value * tranche.part
    lead = prices.shape[:-1]
    today = np.broadcast_to(np.asarray(spec.stock.price, dtype=np.float64), lead)[..., None]
    with_today = np.concatenate([today, prices], axis=-1)
    at_grant = with_today[..., [tranches[0].granted_month for tranches in refresher_vests]]
    return np.asarray(prices * (shares + (1.0 / at_grant) @ rows))


def _to_window(values: np.ndarray, k: np.ndarray, months: int) -> np.ndarray:
    """Place package-month values at their window months (those inside the window)."""
    inside = (k >= 1) & (k <= months)
    out = np.zeros((*values.shape[:-1], months))
    out[..., k[inside] - 1] = values[..., inside]
    return out
