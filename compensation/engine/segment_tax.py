"""How a segment's income is taxed: its income by month and tax year (`segment_tax_columns`),
the segments taxed together (`tax_groups`) and each one's monthly tax and contributions
(`option_tax`)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .components import EQUITY_COMPONENTS, ORDINARY_COMPONENTS
from .dates import add_months, whole_months_between
from .events import ONE_DAY, bonus_payments, cash_month
from .prices import median_path
from .segments import PlacedPayment, Segment, segment_values
from .spec import PackageSpec, monthly_base
from .tax.compute import (
    TaxedIncome,
    column_contributions,
    joint_tax,
    month_other_tax_years,
    month_tax_years,
)
from .tax.tables import TaxRegime, regime_get, tax_year_of


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


def _in_other_tax_year(
    origin: datetime.date, year_starts_month: int
) -> Callable[[datetime.date, int], bool]:
    """Return the filter of events on a day of another tax year than their month's.

    Month m counted from ``origin`` is in the tax year of its first day (`month_tax_years`);
    a vest on ``origin + m months`` (1 Jan in the month from 1 Dec) or a payment late in a
    month that a tax year starts inside (1 Jan in the month from 2 Dec) is not.
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

    A progressive tax must see the whole tax year. The job held on the decision date (whose
    package the demo, like many users, starts on that date) was the pay of the first tax
    year's months before the window too: its base and the bonus its cycle paid then (the
    demo's, on 15 March) count toward that year's brackets, though only the window months'
    share of the tax is counted (`option_tax`). Only a ``Segment.current`` gets them: a new
    job says nothing of what was earned before (perhaps elsewhere). A bonus is placed at its
    month from ``outer_start`` (`PlacedPayment.month`).
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


Income = tuple[np.ndarray, np.ndarray, np.ndarray]  # cash, equity, ordinary wages
# Contributions by column, their deductible part, and by (tax year, name) (amount, levied pay).
Levied = tuple[np.ndarray, np.ndarray, dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]]


def _cash_and_equity(values: dict[str, np.ndarray]) -> Income:
    """Return the cash, the equity and the ordinary wages (the part of cash paid monthly).

    Only equity depends on the share price: on many simulated paths, cash and ordinary wages
    are one row (months,) (`segment_values`), so that the contributions levied on them are
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

    Without a tax regime: the flat ``tax_rate_pct`` on each month's gross, no contributions.
    With one: the contributions its tables levy on each month's cash pay (base the ordinary
    wages, the other cash the additional ones: `tax.column_contributions`), and each tax
    year's income (stock at vest, the rest when paid, each in the tax year of its own day)
    taxed with that year's tables, the tax shared among the year's months by their income.
    Segments whose regimes share a table are taxed together, one return a table a tax year
    (`tax_groups`, `tax.joint_tax`: a move from one job to another in Singapore, or from
    California to Washington). A tax year cut by the window's edges counts the months outside
    it too (`segment_tax_columns`), so a window starting in December does not tax that
    December as the year's only income; the job held on the decision date counts its pay
    there even before its package's start (`pay_before_start`).
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
        levied = [c.contributions() for c in columns]
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
    shaped (..., columns) (cash and ordinary wages (columns,) on many simulated paths: they do
    not depend on the share price); column i is padded month ``months[i]`` (0 is ``lead``
    months before the window start) in tax year ``tax_years[i]``. A month whose income falls
    in two tax years has a second column after the first run of ``lead + window + tail``
    columns. ``to_regime`` converts home currency into the regime's.
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

    def contributions(self) -> Levied:
        """Return the contributions levied on the columns (`tax.column_contributions`)."""
        return column_contributions(
            self.regime,
            self.tax_years,
            self.cash,
            self.to_regime,
            months=self.months,
            ordinary=self.ordinary,
        )

    def in_window(self, months: int) -> np.ndarray:
        """Return which columns are of the window's ``months`` (not the padding around it)."""
        return np.asarray((self.months >= self.lead) & (self.months < self.lead + months))


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
    # Income in its month's tax year ("own") and on days of the other year the month touches.
    other = segment_values(
        segment, window_start, months, prices, _in_other_tax_year(window_start, starts)
    )
    arrays = _own_and_other(_cash_and_equity(values), _cash_and_equity(other))
    if lead or tail:
        n = lead + months + tail
        outsides = _around_window(
            segment, window_start, months, prices, median, (lead, tail), starts
        )
        padded = []
        # Inside the window the exact values stand; outside, the padded run's.
        for inside, outside in zip(arrays, outsides, strict=True):
            full = np.array(np.broadcast_to(outside, (*inside.shape[:-1], n)))
            full[..., lead : lead + months] = inside
            padded.append(full)
        arrays = padded
    return _tax_columns(spec, regime, window_start, months, (lead, tail), arrays)


def _own_and_other(whole: Income, other: Income) -> list[np.ndarray]:
    """Return the cash and equity in their month's own tax year, then on days of the other
    year, then the ordinary wages in each: from all the income and the other year's."""
    (cash, equity, ordinary), (o_cash, o_equity, o_ordinary) = whole, other
    return [cash - o_cash, equity - o_equity, o_cash, o_equity, ordinary - o_ordinary, o_ordinary]


def _around_window(
    segment: Segment,
    window_start: datetime.date,
    months: int,
    prices: np.ndarray,
    median: np.ndarray | None,
    padding: tuple[int, int],
    starts: int,
) -> list[np.ndarray]:
    """Return `_own_and_other` of the window padded with ``lead`` months before it and ``tail``
    after (``padding``), the months of its first and last tax years that only set the rate
    (tax years starting in month ``starts``)."""
    spec = segment.spec
    lead, tail = padding
    n = lead + months + tail
    outer_start = add_months(window_start, -lead)
    start = outer_start if segment.start <= window_start else segment.start
    outer = replace(segment, start=start, current=False)
    # The months outside the window only set the rate: value them once, on the median
    # simulated path when there are many (exact for one deterministic path).
    path = prices if prices.ndim == 1 else median_path(prices) if median is None else median
    outer_prices = np.concatenate([np.full(lead, spec.stock.price), path, np.full(tail, path[-1])])
    in_other = _in_other_tax_year(outer_start, starts)
    a_cash, a_equity, a_ordinary = _cash_and_equity(
        segment_values(outer, outer_start, n, outer_prices)
    )
    o_cash, o_equity, o_ordinary = _cash_and_equity(
        segment_values(outer, outer_start, n, outer_prices, in_other)
    )
    if segment.current and segment.start <= window_start:
        # The job held on the decision date: the first tax year's months before its
        # package starts were earned all the same (see `pay_before_start`).
        base_before, bonuses = pay_before_start(spec, outer_start, lead)
        earlier = np.zeros(n)
        earlier[:lead] = base_before
        a_cash, a_ordinary = a_cash + earlier, a_ordinary + earlier
        o_cash = np.array(o_cash, dtype=np.float64)
        for placed in bonuses:
            a_cash[..., placed.month - 1] += placed.amount
            if in_other(placed.payment.day, placed.month):
                o_cash[..., placed.month - 1] += placed.amount
    return _own_and_other((a_cash, a_equity, a_ordinary), (o_cash, o_equity, o_ordinary))


def _tax_columns(
    spec: PackageSpec,
    regime: TaxRegime,
    window_start: datetime.date,
    months: int,
    padding: tuple[int, int],
    arrays: list[np.ndarray],
) -> TaxColumns:
    """Return the columns of the (padded) income `_own_and_other` splits: a second run of
    columns for the other tax year only when some income falls in it."""
    lead, tail = padding
    starts = regime.year_starts_month
    # Cash (one row: the same on every path) and equity (one row a path) keep their shapes.
    own_cash, own_equity, other_cash, other_equity, own_ordinary, other_ordinary = arrays
    own_cash, other_cash, own_ordinary, other_ordinary = np.broadcast_arrays(
        own_cash, other_cash, own_ordinary, other_ordinary
    )
    own_equity, other_equity = np.broadcast_arrays(own_equity, other_equity)
    tax_years = month_tax_years(window_start, 1 - lead, months + tail, starts)
    cash, equity, ordinary = own_cash, own_equity, own_ordinary
    columns = np.arange(lead + months + tail)
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
