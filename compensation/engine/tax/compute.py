"""Vectorised progressive tax: per tax year on that year's income, allocated back to months."""

from __future__ import annotations

import datetime

import numpy as np

from ..dates import add_months
from .tables import Brackets, TaxPart, TaxRegime


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


def yearly_tax(
    regime: TaxRegime, cash: np.ndarray | float, equity: np.ndarray | float = 0.0
) -> np.ndarray:
    """Return the regime's tax on one tax year's cash and stock income, in its currency."""
    cash_ = np.asarray(cash, dtype=np.float64)
    equity_ = np.asarray(equity, dtype=np.float64)
    total = np.zeros(np.broadcast_shapes(cash_.shape, equity_.shape))
    for part in regime.parts:
        total = total + part_tax(part, _base(part, cash_, equity_))
    return total


def top_rate(regime: TaxRegime, kind: str = "cash") -> float:
    """Return the highest marginal rate of the regime on ``kind`` income (a fraction)."""
    return sum(p.top_rate for p in regime.parts if p.applies_to in ("all", kind))


def tax_year_of(day: datetime.date, year_starts_month: int) -> int:
    """Return the tax year (named by the calendar year it starts in) that ``day`` falls in."""
    return day.year if day.month >= year_starts_month else day.year - 1


def month_tax_years(
    start: datetime.date, first: int, last: int, year_starts_month: int
) -> np.ndarray:
    """Return the tax year of months first..last after ``start`` (month m ends at start + m).

    A month's income is dated on its last day, the day before ``start + m months``.
    """
    day = datetime.timedelta(days=1)
    return np.array(
        [
            tax_year_of(add_months(start, m) - day, year_starts_month)
            for m in range(first, last + 1)
        ],
        dtype=np.int64,
    )


def monthly_tax(
    regime: TaxRegime,
    tax_years: np.ndarray,
    cash: np.ndarray,
    equity: np.ndarray,
    to_regime: float = 1.0,
) -> np.ndarray:
    """Return each month's share of its tax year's tax, shaped like ``cash`` (..., months).

    ``cash`` and ``equity`` are monthly income in one currency; ``to_regime`` converts it
    into the regime's currency, and the tax comes back in the income's currency. Each part
    taxes the sum of its income over each tax year and gives every month of that year a
    share of the tax in proportion to the month's income of that kind.
    """
    cash = np.asarray(cash, dtype=np.float64)
    equity = np.asarray(equity, dtype=np.float64)
    years, index = np.unique(np.asarray(tax_years), return_inverse=True)
    to_year = np.zeros((cash.shape[-1], len(years)))
    to_year[np.arange(cash.shape[-1]), index] = 1.0
    out = np.zeros(np.broadcast_shapes(cash.shape, equity.shape))
    for part in regime.parts:
        base = _base(part, cash, equity)
        per_year = base @ to_year  # (..., years)
        tax = part_tax(part, per_year * to_regime) / to_regime
        share = np.divide(tax, per_year, out=np.zeros_like(per_year), where=per_year > 0)
        out = out + base * share[..., index]
    return out
