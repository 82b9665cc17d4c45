"""An option's ledger as CSV: one row per line of the window, and the tax brackets applied.

Rows with ``in_sum`` 1 are the ledger's lines: their ``amount`` (home currency, negative for
tax and contributions) adds up to the option's headline, and each is ``quantity x unit_price
x share x fx_rate``. Rows with ``in_sum`` 0 are the workings of a tax year's tax: each
bracket's slice of the taxable income (``quantity``) at its rate (``unit_price``), the
slice's tax in the tax's currency (``amount``); a tax line's ``unit_price`` is the sum of
its part's slices (the lower of the brackets and the alternative, where there is one).
``taxable`` is a vest's full value in home currency: private stock is taxed on it, the
liquidity discount lowering only its ``amount``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any, Final

from compensation.engine.tax.compute import BracketWorking
from offers.export import neutralise, utf8
from offers.ledger import LedgerView, TaxYearView

COLUMNS: Final = (
    "window_year",
    "date",
    "source",
    "component",
    "item",
    "description",
    "tax_year",
    "quantity",
    "unit_price",
    "unit_currency",
    "share",
    "fx_rate",
    "amount",
    "currency",
    "in_sum",
    "taxable",
)


def _bracket_rows(
    view: TaxYearView, part: str, brackets: BracketWorking, item: str
) -> Iterator[list[Any]]:
    w = view.working
    for piece in brackets.slices:
        description = f"{part}: {piece.low:,.0f}-{piece.high:,.0f}"
        yield [
            "",
            "",
            view.source,
            "tax",
            item,
            description,
            w.tax_year,
            piece.high - piece.low,
            piece.rate,
            w.currency,
            1.0,
            1.0,
            piece.tax,
            w.currency,
            0,
            "",
        ]


def ledger_rows(view: LedgerView) -> Iterator[list[Any]]:
    """Yield the CSV rows of a ledger (without the header)."""
    for row in view.rows:
        line = row.line
        yield [
            line.year,
            line.day.isoformat(),
            row.source,
            line.component,
            line.item,
            row.description,
            "" if line.tax_year is None else line.tax_year,
            line.quantity,
            line.unit_price,
            line.unit_currency,
            line.share,
            line.fx,
            line.amount,
            view.currency,
            1,
            "" if line.taxable is None else line.taxable,
        ]
    for tax_year in view.tax_years:
        for part in tax_year.parts:
            yield from _bracket_rows(tax_year, part.name, part.brackets, "tax_bracket")
            if part.alternative is not None:
                yield from _bracket_rows(
                    tax_year, part.name, part.alternative, "tax_bracket_alternative"
                )


def ledger_csv_bytes(view: LedgerView) -> bytes:
    """Return the ledger as UTF-8 CSV with a byte-order mark (spreadsheets detect it)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    # Floats are written with repr(), the shortest text that reads back to the same number.
    writer.writerows([neutralise(v) for v in row] for row in ledger_rows(view))
    return utf8("\ufeff" + buffer.getvalue())
