"""The comparison's year-by-year figures as a tidy CSV, one amount per row."""

from __future__ import annotations

import csv
import io
from typing import IO, Any, Final

from accounts.wording import choice_label
from offers.charts import component_label
from offers.export import neutralise, utf8
from offers.export.comparison import Comparison, option_warnings

# Final: the names stay literals, the keys of a typed yearly row.
COLUMNS: Final = (
    "option_key",
    "option",
    "year",
    "component",
    "basis",
    "currency",
    "in_home_currency",
    "amount",
)
# What a person reads next to the codes a program filters on (component, basis), and what the
# option's figures are not yet (`option_warnings`: tax unknown, not an offer yet).
LABEL_COLUMNS = ("component_label", "basis_label", "warnings")


def _labels(row: dict[str, Any]) -> tuple[str, str]:
    from offers.models import Preferences

    component = "net" if (row["component"], row["basis"]) == ("total", "net") else row["component"]
    return component_label(component), choice_label(Preferences, "basis", row["basis"])


def write_csv(comparison: Comparison, stream: IO[str]) -> int:
    """Write the tidy rows to a text stream; return the number of data rows."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow(COLUMNS + LABEL_COLUMNS)
    # Floats are written with repr(), the shortest text that reads back to the same number.
    labels = {
        pair: _labels({"component": pair[0], "basis": pair[1]})
        for pair in {(row["component"], row["basis"]) for row in comparison.yearly}
    }
    warnings = {o["key"]: "; ".join(option_warnings(o)) for o in comparison.options}
    writer.writerows(
        [
            *(neutralise(row[c]) for c in COLUMNS),
            *labels[row["component"], row["basis"]],
            warnings.get(row["option_key"], ""),
        ]
        for row in comparison.yearly
    )
    return len(comparison.yearly)


def csv_bytes(comparison: Comparison) -> bytes:
    """Return the CSV as UTF-8 with a byte-order mark, so spreadsheets detect the encoding."""
    buffer = io.StringIO()
    write_csv(comparison, buffer)
    return utf8("\ufeff" + buffer.getvalue())
