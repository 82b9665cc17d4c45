"""The comparison's year-by-year figures as a tidy CSV, one amount per row."""

from __future__ import annotations

import csv
import io
from typing import IO

from offers.export import neutralise
from offers.export.comparison import Comparison

COLUMNS = (
    "option_key",
    "option",
    "year",
    "component",
    "basis",
    "currency",
    "in_home_currency",
    "amount",
)


def write_csv(comparison: Comparison, stream: IO[str]) -> int:
    """Write the tidy rows to a text stream; return the number of data rows."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    # Floats are written with repr(), the shortest text that reads back to the same number.
    writer.writerows([neutralise(row[c]) for c in COLUMNS] for row in comparison.yearly)
    return len(comparison.yearly)


def csv_bytes(comparison: Comparison) -> bytes:
    """Return the CSV as UTF-8 with a byte-order mark, so spreadsheets detect the encoding."""
    buffer = io.StringIO()
    write_csv(comparison, buffer)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
