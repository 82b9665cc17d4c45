"""The comparison's year-by-year figures as a tidy CSV, one amount per row."""

from __future__ import annotations

import csv
import io
from typing import Any, cast

from accounts.wording import choice_label
from offers.charts import component_label
from offers.export import neutralise, utf8
from offers.export.comparison import Comparison, option_warnings
from offers.export.rows import YearlyRow

# The yearly row's keys (`YearlyRow`), in its order.
COLUMNS = tuple(YearlyRow.__annotations__)
# What a person reads next to the codes a program filters on (component, basis), and what the
# option's figures are not yet (`option_warnings`: tax unknown, not an offer yet).
LABEL_COLUMNS = ("component_label", "basis_label", "warnings")


def _labels(component: str, basis: str) -> tuple[str, str]:
    from offers.models import Preferences

    shown = "net" if (component, basis) == ("total", "net") else component
    return component_label(shown), choice_label(Preferences, "basis", basis)


def csv_bytes(comparison: Comparison) -> bytes:
    """Return the tidy rows as CSV, UTF-8 with a byte-order mark (spreadsheets detect it)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS + LABEL_COLUMNS)
    # Floats are written with repr(), the shortest text that reads back to the same number.
    pairs = {(row["component"], row["basis"]) for row in comparison.yearly}
    labels = {pair: _labels(*pair) for pair in pairs}
    warnings = {o["key"]: "; ".join(option_warnings(o)) for o in comparison.options}
    writer.writerows(
        [
            *(neutralise(row[c]) for c in COLUMNS),
            *labels[row["component"], row["basis"]],
            warnings.get(row["option_key"], ""),
        ]
        for row in cast(list[dict[str, Any]], comparison.yearly)
    )
    return utf8("\ufeff" + buffer.getvalue())
