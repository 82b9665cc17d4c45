"""Vectorised progressive tax: per tax year on that year's income, allocated back to months."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..dates import add_months
from .tables import (
    Brackets,
    TaxPart,
    TaxRegime,
    TaxTable,
    TaxYear,
    tables_for_year,
    tax_year_of,
)


def bracket_tax(brackets: Brackets, income: np.ndarray | float) -> np.ndarray:
    """Return the tax of ``brackets`` on ``income`` less the deduction (any shape)."""
    taxable = np.maximum(np.asarray(income, dtype=np.float64) - brackets.deduction, 0.0)
    starts = np.asarray(brackets.starts)
    rates = np.asarray(brackets.rates)
    below = np.concatenate([[0.0], np.cumsum(np.diff(starts) * rates[:-1])])
    i = np.searchsorted(starts, taxable, side="right") - 1
    out: np.ndarray = below[i] + (taxable - starts[i]) * rates[i]
    return np.asarray(out)


@dataclass(frozen=True)
class BracketSlice:
    """The part of a taxable income in one bracket: ``high - low`` taxed at ``rate``."""

    low: float
    high: float
    rate: float

    @property
    def tax(self) -> float:
        """Return the slice's tax: its width times its rate."""
        return (self.high - self.low) * self.rate


def bracket_slices(brackets: Brackets, income: float) -> tuple[float, tuple[BracketSlice, ...]]:
    """Return the taxable income (``income`` less the deduction) and its slice in each bracket
    it reaches; the slices' taxes add up to `bracket_tax` (the same arithmetic, one income)."""
    taxable = float(max(float(income) - brackets.deduction, 0.0))
    out = []
    for i, (start, rate) in enumerate(zip(brackets.starts, brackets.rates, strict=True)):
        if taxable <= start and i > 0:
            break
        end = brackets.starts[i + 1] if i + 1 < len(brackets.starts) else None
        high = taxable if end is None else min(taxable, end)
        out.append(BracketSlice(start, high, rate))
    return taxable, tuple(out)


def part_tax(part: TaxPart, income: np.ndarray | float) -> np.ndarray:
    """Return one part's tax on a year's income (the lower of it and its alternative)."""
    tax = bracket_tax(part.brackets, income)
    if part.alternative is not None:
        tax = np.minimum(tax, bracket_tax(part.alternative, income))
    return np.asarray(tax)


def part_base(
    applies_to: str, cash: np.ndarray | float, equity: np.ndarray | float
) -> np.ndarray | float:
    """Return the income a part taxes by its ``applies_to``: the cash, the equity or both."""
    if applies_to == "cash":
        return cash
    if applies_to == "equity":
        return equity
    return cash + equity


def _year_tax(
    year: TaxYear, cash: np.ndarray, equity: np.ndarray, deductible: np.ndarray | float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Return one tax year's tax on its cash and equity income, as (on cash, on equity).

    ``deductible`` (the year's deductible contributions) comes off the cash income of the parts
    on cash or all income. A part on all income is shared between the two kinds in proportion
    to them.
    """
    on_cash = np.zeros(np.broadcast_shapes(cash.shape, equity.shape, np.shape(deductible)))
    on_equity = np.zeros_like(on_cash)
    net_cash = cash - deductible
    cash_share = _per_unit(cash, cash + equity)
    for part in year.parts:
        tax = part_tax(part, part_base(part.applies_to, net_cash, equity))
        if part.applies_to == "cash":
            on_cash = on_cash + tax
        elif part.applies_to == "equity":
            on_equity = on_equity + tax
        else:
            on_cash = on_cash + tax * cash_share
            on_equity = on_equity + tax * (1.0 - cash_share)
    return on_cash, on_equity


@dataclass(frozen=True)
class BracketWorking:
    """One set of brackets applied to an income: the deduction, taxable income and slices."""

    name: str
    income: float
    deduction: float
    deduction_label: str
    taxable: float
    slices: tuple[BracketSlice, ...]

    @property
    def tax(self) -> float:
        """Return the tax: the sum of the slices' taxes."""
        return float(sum(s.tax for s in self.slices))


@dataclass(frozen=True)
class PartWorking:
    """How one part of a tax year's tables taxed the year's income (`year_tax_parts`).

    ``income`` is the part's base (cash less the deductible contributions, the stock, or
    both, by ``applies_to``); ``tax`` is what `part_tax` charged: the brackets' tax, or the
    alternative's when it is lower (``alternative_applied``).
    """

    name: str
    applies_to: str
    income: float
    brackets: BracketWorking
    alternative: BracketWorking | None
    tax: float

    @property
    def alternative_applied(self) -> bool:
        """Return whether the alternative (Hong Kong's standard rate) is the tax charged."""
        return self.alternative is not None and self.alternative.tax < self.brackets.tax


def _working(brackets: Brackets, income: float) -> BracketWorking:
    taxable, slices = bracket_slices(brackets, income)
    return BracketWorking(
        brackets.name, income, brackets.deduction, brackets.deduction_label, taxable, slices
    )


def year_tax_parts(
    year: TaxYear, cash: float, equity: float, deductible: float = 0.0
) -> tuple[PartWorking, ...]:
    """Return how each part of ``year`` taxes a year's cash and stock income (regime's
    currency) with ``deductible`` contributions off the cash: the taxes `_year_tax` adds."""
    net_cash = np.asarray(cash - deductible, dtype=np.float64)
    stock = np.asarray(equity, dtype=np.float64)
    out = []
    for part in year.parts:
        income = float(part_base(part.applies_to, net_cash, stock))
        alternative = None if part.alternative is None else _working(part.alternative, income)
        out.append(
            PartWorking(
                part.name,
                part.applies_to,
                income,
                _working(part.brackets, income),
                alternative,
                float(part_tax(part, income)),
            )
        )
    return tuple(out)


def _within(pay: np.ndarray, room: np.ndarray | float) -> np.ndarray:
    """Return the part of each column's ``pay`` inside ``room``, filled in column order."""
    running = np.cumsum(pay, axis=-1)
    return np.asarray(np.minimum(running, room) - np.minimum(running - pay, room))


def _levy(
    year: TaxYear,
    ordinary: np.ndarray,
    additional: np.ndarray,
    month_ordinary: np.ndarray,
    month_additional: np.ndarray,
    by_rule: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return the employee contributions of one tax year's columns, as (all, deductible).

    ``by_rule``, when given, receives each contribution's (amount, levied pay) by column.

    The columns are the tax year's, in date order, in the regime's currency: each column's
    ``ordinary`` and ``additional`` pay, and the whole month's (a month split over two tax
    years has a column in each; its ceilings, caps and floor apply to the whole month, shared
    between its columns in proportion to their pay). See `tables.Contribution`.
    """
    mine = {"ordinary": ordinary, "additional": additional, "cash": ordinary + additional}
    whole = {
        "ordinary": month_ordinary,
        "additional": month_additional,
        "cash": month_ordinary + month_additional,
    }
    total = np.zeros(np.broadcast_shapes(ordinary.shape, month_ordinary.shape))
    deductible = np.zeros_like(total)
    levied: dict[str, np.ndarray] = {}  # each contribution's levied pay, by column
    insured: dict[str, np.ndarray] = {}  # ... and by whole month
    for rule in year.contributions:
        month_pay = whole[rule.levied_on]
        if rule.monthly_wage_ceiling is not None:
            month_pay = np.minimum(month_pay, rule.monthly_wage_ceiling)
        month_pay = np.where(whole["cash"] >= rule.monthly_floor, month_pay, 0.0)
        share = _per_unit(mine[rule.levied_on], whole[rule.levied_on])
        pay = month_pay * share
        if rule.yearly_wage_ceiling is not None:
            room: np.ndarray | float = rule.yearly_wage_ceiling
            if rule.ceiling_less is not None:
                used = levied[rule.ceiling_less].sum(axis=-1, keepdims=True)
                room = np.maximum(rule.yearly_wage_ceiling - used, 0.0)
            pay = _within(pay, room)
        if rule.exempt_multiple_of is not None:
            # The highest insured salary so far in the year (a month without one keeps it).
            exempt = rule.exempt_multiple * np.maximum.accumulate(
                np.broadcast_to(insured[rule.exempt_multiple_of], pay.shape), axis=-1
            )
            pay = np.maximum(np.minimum(pay, np.cumsum(pay, axis=-1) - exempt), 0.0)
        levied[rule.name], insured[rule.name] = pay, month_pay
        if rule.monthly_cap is not None:  # a cap on the month's contribution, shared likewise
            amount = np.minimum(rule.rate * month_pay, rule.monthly_cap) * share
        else:
            amount = rule.rate * pay
        if by_rule is not None:
            by_rule[rule.name] = (np.asarray(amount), np.asarray(pay))
        total = total + amount
        if rule.deductible:
            deductible = deductible + amount
    return total, deductible


def _twelve_months(
    year: TaxYear, cash: np.ndarray | float, additional: np.ndarray | float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Return the contributions on a year's ``cash`` as twelve equal months of ordinary wages
    and ``additional`` wages paid in the last month, as (all, deductible) by month."""
    monthly = np.asarray(cash, dtype=np.float64)[..., None] / 12.0
    extra = np.asarray(additional, dtype=np.float64)[..., None]
    ordinary = np.broadcast_to(
        monthly, np.broadcast_shapes(monthly.shape, extra.shape)[:-1] + (12,)
    )
    last = np.zeros(ordinary.shape)
    last[..., -1:] = extra
    return _levy(year, ordinary, last, ordinary, last)


def yearly_contributions(
    regime: TaxRegime,
    cash: np.ndarray | float,
    tax_year: int | None = None,
    *,
    additional: np.ndarray | float = 0.0,
) -> np.ndarray:
    """Return the employee contributions on a tax year's cash pay, in the regime's currency.

    ``cash`` is taken as twelve equal months of ordinary wages (salary) and ``additional``
    (bonus) as paid in the year's last month (`monthly_tax_and_contributions` levies each real
    month). ``tax_year`` chooses the tables; None: the latest published.
    """
    year = regime.latest if tax_year is None else regime.for_year(tax_year)
    return np.asarray(_twelve_months(year, cash, additional)[0].sum(axis=-1))


def yearly_tax(
    regime: TaxRegime,
    cash: np.ndarray | float,
    equity: np.ndarray | float = 0.0,
    tax_year: int | None = None,
    *,
    deductible: np.ndarray | float | None = None,
) -> np.ndarray:
    """Return the regime's tax on one tax year's cash and stock income, in its currency.

    ``tax_year`` chooses the tables (`TaxRegime.for_year`); None: the latest published.
    ``deductible`` is the year's deductible contributions; None: those on the cash pay taken
    as twelve equal months of ordinary wages (Hong Kong's MPF: 5% of 240,000 = 12,000).
    """
    year = regime.latest if tax_year is None else regime.for_year(tax_year)
    cash_ = np.asarray(cash, dtype=np.float64)
    if deductible is None:
        deductible = _twelve_months(year, cash_)[1].sum(axis=-1)
    on_cash, on_equity = _year_tax(
        year, cash_, np.asarray(equity, dtype=np.float64), np.asarray(deductible, float)
    )
    return np.asarray(on_cash + on_equity)


def top_rate(regime: TaxRegime, kind: str = "cash") -> float:
    """Return the highest marginal rate of the regime on ``kind`` income (a fraction)."""
    return max(
        sum(p.top_rate for p in year.parts if p.applies_to in ("all", kind))
        for year in regime.years
    )


def _group_sum(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Return the sums of ``values``' columns by ``group`` (0..k-1, each used), shaped (..., k).

    Sorted and summed with ``np.add.reduceat``: a matrix product with a 0/1 matrix went
    through a threaded BLAS that spent more time than the sums on a busy machine.
    """
    order = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[order], np.arange(int(group.max()) + 1))
    return np.asarray(np.add.reduceat(values[..., order], starts, axis=-1))


def _per_unit(amount: np.ndarray, income: np.ndarray) -> np.ndarray:
    """Return ``amount / income`` where there is income, else 0."""
    amount, income = np.broadcast_arrays(np.asarray(amount, float), np.asarray(income, float))
    return np.asarray(np.divide(amount, income, out=np.zeros(income.shape), where=income > 0))


def month_tax_years(
    start: datetime.date, first: int, last: int, year_starts_month: int
) -> np.ndarray:
    """Return the tax year of months first..last after ``start`` (month m from start + m-1).

    A month's base is paid in the calendar month it starts in, so the month is in the tax year
    of its first day, ``start + m-1 months``: from 2 Dec, the month to 1 Jan is December's pay
    and in December's tax year, as it is from 1 Dec. A payment or a vest in the month on a day
    of another tax year is taxed in that year instead (see `month_other_tax_years`).
    """
    return np.array(
        [tax_year_of(add_months(start, m - 1), year_starts_month) for m in range(first, last + 1)],
        dtype=np.int64,
    )


def month_other_tax_years(
    start: datetime.date, first: int, last: int, year_starts_month: int
) -> np.ndarray:
    """Return the other tax year each of months first..last touches (its own when none).

    Month m holds payments on days ``start + m-1 months`` to the day before ``start + m
    months`` and vests on the day after ``start + m-1 months`` to ``start + m months``; it is
    in the tax year of its first day. A tax year starting after that day and on or before
    ``start + m months`` puts the month's later days in it (from 2 Dec: a payment or a vest
    on 1 Jan; from 1 Dec: a vest on 1 Jan, which closes the month of December).
    """
    # The day after the month is in its own year or the next: a month is shorter than a year.
    return np.array(
        [tax_year_of(add_months(start, m), year_starts_month) for m in range(first, last + 1)],
        dtype=np.int64,
    )


def column_contributions(
    regime: TaxRegime,
    tax_years: np.ndarray,
    cash: np.ndarray,
    to_regime: float = 1.0,
    months: np.ndarray | None = None,
    ordinary: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, dict[tuple[int, str], tuple[np.ndarray, np.ndarray]]]:
    """Return each column's employee contributions, their deductible part, and by (tax year,
    contribution name) its (amount, levied pay) by column, all in the income's currency.

    The arguments are `monthly_tax_and_contributions`'s; it levies them with this.
    """
    cash = np.asarray(cash, dtype=np.float64)
    columns = cash.shape[-1]
    years, index = np.unique(np.asarray(tax_years), return_inverse=True)
    by_rule: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}
    contributions = np.zeros(cash.shape)
    deductible = np.zeros(cash.shape)
    if any(regime.for_year(int(y)).contributions for y in years):
        month_ids = np.arange(columns) if months is None else np.asarray(months)
        _, in_month = np.unique(month_ids, return_inverse=True)
        wages = cash if ordinary is None else np.asarray(ordinary, dtype=np.float64)
        wages = np.broadcast_to(wages, cash.shape)
        # Additional wages (bonuses, vests): what is left of the cash after the ordinary wages;
        # a float residue of a millionth of a unit is none (it would levy -1e-11 on nothing).
        extra = cash - wages
        extra = np.where(np.abs(extra) < 1e-6, 0.0, extra)
        month_wages = _group_sum(wages, in_month)[..., in_month]  # each column's whole month
        month_extra = _group_sum(extra, in_month)[..., in_month]
        for j, tax_year in enumerate(years):
            year = regime.for_year(int(tax_year))
            if not year.contributions:
                continue
            mine = np.flatnonzero(index == j)
            rules: dict[str, tuple[np.ndarray, np.ndarray]] = {}
            levied, off = _levy(
                year,
                wages[..., mine] * to_regime,
                extra[..., mine] * to_regime,
                month_wages[..., mine] * to_regime,
                month_extra[..., mine] * to_regime,
                rules,
            )
            contributions[..., mine] = levied / to_regime
            deductible[..., mine] = off / to_regime
            for name, (amount, pay) in rules.items():
                full_amount = np.zeros(np.broadcast_shapes(cash.shape, amount.shape[:-1] + (1,)))
                full_pay = np.zeros_like(full_amount)
                full_amount[..., mine] = amount / to_regime
                full_pay[..., mine] = pay / to_regime
                by_rule[int(tax_year), name] = (full_amount, full_pay)
    return contributions, deductible, by_rule


def monthly_tax_and_contributions(
    regime: TaxRegime,
    tax_years: np.ndarray,
    cash: np.ndarray,
    equity: np.ndarray,
    to_regime: float = 1.0,
    months: np.ndarray | None = None,
    ordinary: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return each month's tax and employee contributions, each shaped like ``cash``.

    ``cash`` and ``equity`` are monthly income in one currency, one column a month (...,
    months); ``to_regime`` converts it into the regime's currency, and the amounts come back
    in the income's currency. ``ordinary`` is the part of ``cash`` that is ordinary wages
    (the base salary; None: all of it), the rest being additional wages (bonus, sign-on...).
    Contributions are levied on each month's pay by its tax year's tables (the yearly rules
    over the year's columns in the order given: `_levy`). Each tax year's cash (less its
    deductible contributions) and equity is taxed by that year's tables, the tax on each kind
    shared among the year's months by their income of it. ``months`` names each column's
    month when a month is split over two columns (two tax years); None: one column a month.
    """
    cash = np.asarray(cash, dtype=np.float64)
    equity = np.asarray(equity, dtype=np.float64)
    contributions, deductible, _ = column_contributions(
        regime, tax_years, cash, to_regime, months, ordinary
    )
    (tax,) = joint_tax([TaxedIncome(regime, tax_years, cash, equity, deductible, to_regime)])
    return np.asarray(tax), np.asarray(np.broadcast_to(contributions, tax.shape))


@dataclass(frozen=True)
class TaxedIncome:
    """One job's income ``regime`` taxes, one column a month (and tax year): ``cash``,
    ``equity`` and the ``deductible`` contributions levied on it, shaped (..., columns), in a
    currency ``to_regime`` converts into the regime's; column i is in tax year ``tax_years[i]``."""

    regime: TaxRegime
    tax_years: np.ndarray
    cash: np.ndarray
    equity: np.ndarray
    deductible: np.ndarray
    to_regime: float = 1.0


def _by_year(values: np.ndarray, tax_years: np.ndarray, years: np.ndarray) -> np.ndarray:
    """Return the sums of ``values``' columns in each of ``years`` (0 for a year without one)."""
    return np.stack([values[..., tax_years == y].sum(axis=-1) for y in years], axis=-1)


def joint_tax_years(
    regimes: Sequence[TaxRegime], tax_year: int
) -> list[tuple[tuple[int, ...], TaxYear]]:
    """Return the tables taxing ``tax_year`` for one person under ``regimes`` that have parts,
    gathered by the regimes they tax together (`tables.tables_for_year`): (members, tables)."""
    gathered: dict[tuple[int, ...], list[TaxTable]] = {}
    for shared in tables_for_year(regimes, tax_year):
        if shared.table.parts:
            gathered.setdefault(shared.members, []).append(shared.table)
    return [(m, TaxYear(tax_year, tuple(tables))) for m, tables in gathered.items()]


def joint_tax(incomes: Sequence[TaxedIncome]) -> list[np.ndarray]:
    """Return each income's tax by column: one return a tax, a tax year, on all of them.

    One person's jobs in a tax year file one return for each tax their regimes share
    (`tables.tables_for_year`): a job in California and then one in Washington share the US
    federal and FICA tables (one standard deduction, one Social Security wage base), while
    each state's table taxes its own jobs. Each table taxes the year's cash (less deductible
    contributions) and equity summed over the incomes holding it; the tax on each kind is
    shared among those incomes' columns of the year by their income of it (one rate a kind
    a year), so the shares add up to the table's tax.
    """
    tax_years = [np.asarray(x.tax_years) for x in incomes]
    years = np.unique(np.concatenate(tax_years))
    shape = np.broadcast_shapes(
        *(np.shape(x.cash)[:-1] for x in incomes), *(np.shape(x.equity)[:-1] for x in incomes)
    )
    # Each income's cash, equity and deductible contributions by tax year, in its regime's
    # currency (a shared table's regimes share its currency).
    sums = [
        tuple(
            np.broadcast_to(
                _by_year(np.asarray(v, float), ty, years) * x.to_regime, shape + (len(years),)
            )
            for v in (x.cash, x.equity, x.deductible)
        )
        for x, ty in zip(incomes, tax_years, strict=True)
    ]
    cash_rate = [np.zeros((*shape, len(years))) for _ in incomes]
    equity_rate = [np.zeros((*shape, len(years))) for _ in incomes]
    regimes = [x.regime for x in incomes]
    for j, tax_year in enumerate(years):
        for members, year in joint_tax_years(regimes, int(tax_year)):
            c, e, d = (sum(sums[i][kind][..., j] for i in members) for kind in range(3))
            on_cash, on_equity = _year_tax(year, np.asarray(c), np.asarray(e), np.asarray(d))
            # A rate is the same in any currency: tax over income, both in the table's.
            c_rate, e_rate = _per_unit(on_cash, np.asarray(c)), _per_unit(on_equity, np.asarray(e))
            for i in members:
                cash_rate[i][..., j] += c_rate
                equity_rate[i][..., j] += e_rate
    out = []
    for i, (x, ty) in enumerate(zip(incomes, tax_years, strict=True)):
        index = np.searchsorted(years, ty)
        out.append(
            np.asarray(
                np.asarray(x.cash, float) * cash_rate[i][..., index]
                + np.asarray(x.equity, float) * equity_rate[i][..., index]
            )
        )
    return out
