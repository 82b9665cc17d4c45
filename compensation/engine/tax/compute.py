"""Vectorised progressive tax: per tax year on that year's income, allocated back to months."""

from __future__ import annotations

import datetime

import numpy as np

from ..dates import add_months
from .tables import Brackets, TaxPart, TaxRegime, TaxYear, tax_year_of


def bracket_tax(brackets: Brackets, income: np.ndarray | float) -> np.ndarray:
    """Return the tax of ``brackets`` on ``income`` less the deduction (any shape)."""
    taxable = np.maximum(np.asarray(income, dtype=np.float64) - brackets.deduction, 0.0)
    starts = np.asarray(brackets.starts)
    rates = np.asarray(brackets.rates)
    below = np.concatenate([[0.0], np.cumsum(np.diff(starts) * rates[:-1])])
    i = np.searchsorted(starts, taxable, side="right") - 1
    out: np.ndarray = below[i] + (taxable - starts[i]) * rates[i]
    return np.asarray(out)


def part_tax(part: TaxPart, income: np.ndarray | float) -> np.ndarray:
    """Return one part's tax on a year's income (the lower of it and its alternative)."""
    tax = bracket_tax(part.brackets, income)
    if part.alternative is not None:
        tax = np.minimum(tax, bracket_tax(part.alternative, income))
    return np.asarray(tax)


def _base(part: TaxPart, cash: np.ndarray, equity: np.ndarray) -> np.ndarray:
    if part.applies_to == "cash":
        return cash
    if part.applies_to == "equity":
        return equity
    return np.asarray(cash + equity)


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
        tax = part_tax(part, _base(part, net_cash, equity))
        if part.applies_to == "cash":
            on_cash = on_cash + tax
        elif part.applies_to == "equity":
            on_equity = on_equity + tax
        else:
            on_cash = on_cash + tax * cash_share
            on_equity = on_equity + tax * (1.0 - cash_share)
    return on_cash, on_equity


def _month_contributions(year: TaxYear, cash: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the employee contributions on months paying ``cash``, as (all, deductible)."""
    total = np.zeros(np.shape(cash))
    deductible = np.zeros_like(total)
    for rule in year.contributions:
        amount = rule.rate * cash
        if rule.monthly_cap is not None:
            amount = np.minimum(amount, rule.monthly_cap)
        amount = np.where(cash >= rule.monthly_floor, amount, 0.0)
        total = total + amount
        if rule.deductible:
            deductible = deductible + amount
    return total, deductible


def yearly_contributions(
    regime: TaxRegime, cash: np.ndarray | float, tax_year: int | None = None
) -> np.ndarray:
    """Return the employee contributions on a tax year's cash pay, in the regime's currency.

    The pay is taken as twelve equal months (`monthly_tax_and_contributions` levies each real
    month). ``tax_year`` chooses the tables; None: the latest published.
    """
    year = regime.latest if tax_year is None else regime.for_year(tax_year)
    total, _ = _month_contributions(year, np.asarray(cash, dtype=np.float64) / 12.0)
    return np.asarray(12.0 * total)


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
    as twelve equal months (Hong Kong's MPF: 5% of 240,000 = 12,000).
    """
    year = regime.latest if tax_year is None else regime.for_year(tax_year)
    cash_ = np.asarray(cash, dtype=np.float64)
    if deductible is None:
        deductible = 12.0 * _month_contributions(year, cash_ / 12.0)[1]
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
    """Return the tax year of months first..last after ``start`` (month m ends at start + m).

    A month's income is dated on its last day, the day before ``start + m months``; a payment
    or a vest in the month on a day of another tax year is taxed in that year instead (see
    `month_other_tax_years`).
    """
    day = datetime.timedelta(days=1)
    return np.array(
        [
            tax_year_of(add_months(start, m) - day, year_starts_month)
            for m in range(first, last + 1)
        ],
        dtype=np.int64,
    )


def month_other_tax_years(
    start: datetime.date, first: int, last: int, year_starts_month: int
) -> np.ndarray:
    """Return the other tax year each of months first..last touches (its own when none).

    Month m holds payments on days ``start + m-1 months`` to the day before ``start + m
    months`` and vests on the day after ``start + m-1 months`` to ``start + m months``. A tax
    year starting inside it puts its first days in the year before the month's own (a 1 Jan
    start: 15 Dec to 14 Jan); one starting on ``start + m months`` puts that day's vests in the
    next year (a 1 Dec start: a 1 Jan vest is in the month of December).
    """
    out = []
    for m in range(first, last + 1):
        opens, closes = add_months(start, m - 1), add_months(start, m)
        own = tax_year_of(closes - datetime.timedelta(days=1), year_starts_month)
        before = tax_year_of(opens, year_starts_month)
        out.append(before if before != own else tax_year_of(closes, year_starts_month))
    return np.array(out, dtype=np.int64)


def monthly_tax_and_contributions(
    regime: TaxRegime,
    tax_years: np.ndarray,
    cash: np.ndarray,
    equity: np.ndarray,
    to_regime: float = 1.0,
    months: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return each month's tax and employee contributions, each shaped like ``cash``.

    ``cash`` and ``equity`` are monthly income in one currency, one column a month (...,
    months); ``to_regime`` converts it into the regime's currency, and the amounts come back
    in the income's currency. Contributions are levied on each month's cash pay by the rules
    of its tax year's tables. Each tax year's cash (less its deductible contributions) and
    equity income is taxed by that year's tables (`TaxRegime.for_year`), and the tax on each
    kind is shared among the year's months in proportion to their income of it.

    ``months`` names the month of each column when a month's income is split over two
    columns (in two tax years: the caps and floors of contributions apply to the month's
    whole pay, shared between its columns in proportion to their cash); None: each column
    is a month of its own.
    """
    cash = np.asarray(cash, dtype=np.float64)
    equity = np.asarray(equity, dtype=np.float64)
    columns = cash.shape[-1]
    years, index = np.unique(np.asarray(tax_years), return_inverse=True)
    contributions = np.zeros(cash.shape)
    deductible = np.zeros(cash.shape)
    if any(regime.for_year(int(y)).contributions for y in years):
        month_ids = np.arange(columns) if months is None else np.asarray(months)
        _, in_month = np.unique(month_ids, return_inverse=True)
        month_cash = _group_sum(cash, in_month)[..., in_month]  # each column's whole month
        share_of_month = _per_unit(cash, month_cash)
        for j, tax_year in enumerate(years):
            levied = _month_contributions(regime.for_year(int(tax_year)), month_cash * to_regime)
            mine = index == j
            contributions = contributions + np.where(mine, levied[0] * share_of_month, 0.0)
            deductible = deductible + np.where(mine, levied[1] * share_of_month, 0.0)
        contributions, deductible = contributions / to_regime, deductible / to_regime
    cash_y = _group_sum(cash, index)  # (..., years)
    equity_y = _group_sum(equity, index)
    deductible_y = _group_sum(deductible, index)
    cash_rate = np.zeros(np.broadcast_shapes(cash_y.shape, equity_y.shape))
    equity_rate = np.zeros_like(cash_rate)
    for j, tax_year in enumerate(years):
        c, e, d = cash_y[..., j], equity_y[..., j], deductible_y[..., j]
        on_cash, on_equity = _year_tax(
            regime.for_year(int(tax_year)), c * to_regime, e * to_regime, d * to_regime
        )
        cash_rate[..., j] = _per_unit(on_cash / to_regime, c)
        equity_rate[..., j] = _per_unit(on_equity / to_regime, e)
    tax = cash * cash_rate[..., index] + equity * equity_rate[..., index]
    return np.asarray(tax), np.asarray(np.broadcast_to(contributions, tax.shape))


def monthly_tax(
    regime: TaxRegime,
    tax_years: np.ndarray,
    cash: np.ndarray,
    equity: np.ndarray,
    to_regime: float = 1.0,
) -> np.ndarray:
    """Return each month's share of its tax year's tax (`monthly_tax_and_contributions`)."""
    return monthly_tax_and_contributions(regime, tax_years, cash, equity, to_regime)[0]
