"""Two options side by side, year by year: each one's figure, the difference, the running sums."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SideBySideRow:
    """One window year of a comparison (both figures on the same basis and currency)."""

    year: int
    a: float
    b: float
    a_cumulative: float
    b_cumulative: float

    @property
    def difference(self) -> float:
        """Return A minus B in this year."""
        return self.a - self.b

    @property
    def cumulative_difference(self) -> float:
        """Return A minus B summed from year 1 to this year."""
        return self.a_cumulative - self.b_cumulative


def side_by_side(a: Sequence[float], b: Sequence[float]) -> list[SideBySideRow]:
    """Return one row a year over the years both options have, with running totals."""
    rows: list[SideBySideRow] = []
    run_a = run_b = 0.0
    for year, (va, vb) in enumerate(zip(a, b, strict=False), start=1):
        run_a += float(va)
        run_b += float(vb)
        rows.append(SideBySideRow(year, float(va), float(vb), run_a, run_b))
    return rows


def column_totals(columns: Sequence[Sequence[float]], years: int) -> list[float]:
    """Return each column summed over its first `years` values (the cumulative row)."""
    return [float(sum(column[:years])) for column in columns]
