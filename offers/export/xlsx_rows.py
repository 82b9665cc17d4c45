"""A worksheet's rows written straight as SpreadsheetML, spliced into openpyxl's workbook.

openpyxl builds the workbook (sheets, column widths, frozen panes, styles, the chart) and
writes each sheet with an empty ``<sheetData>``; the rows are serialised here, a string per
cell, and put in their sheet's part once the package is saved. openpyxl's own writer builds a
cell object and an XML element per cell, which cost five times as much: a thousand-option
comparison has a quarter of a million cells.

Cells are what openpyxl's write-only sheets write: numbers (``%.16g``; not finite: empty),
booleans, inline strings (``xml:space="preserve"`` when they start or end with white space),
dates and times as Excel serial numbers. Characters XML cannot hold are dropped.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import numbers
import re
import zipfile
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import IO, Any, NamedTuple
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel

# Characters XML 1.0 cannot hold: C0 controls but tab, LF and CR; lone surrogates (no UTF-8
# for them); U+FFFE and U+FFFF. (Its Char production; openpyxl refuses only the controls.)
ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
CARRIAGE_RETURN = {"\r": "&#13;"}
EMPTY_SHEET_DATA = b"<sheetData></sheetData>"
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


class Styled(NamedTuple):
    """A value with the workbook's cell style index (0: no style)."""

    value: Any
    style: int


def text_xml(value: str) -> str:
    """Return a string as the ``<is>`` of an inline-string cell."""
    value = ILLEGAL.sub("", value)
    space = ' xml:space="preserve"' if value != value.strip() else ""
    # A carriage return as a reference: a parser reads a bare one as a line feed.
    return f"<is><t{space}>{escape(value, CARRIAGE_RETURN)}</t></is>"


def cell_xml(ref: str, value: Any, style: int = 0) -> str:
    """Return one cell (empty string for an unstyled blank)."""
    s = f' s="{style}"' if style else ""
    kind = type(value)
    if kind is float or kind is int:  # most cells: the common cases first
        if kind is float and not math.isfinite(value):
            return f'<c r="{ref}"{s} t="n"/>'
        return f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>'
    if kind is str and value:
        return f'<c r="{ref}"{s} t="inlineStr">{text_xml(value)}</c>'
    if value is None or value == "":
        return f'<c r="{ref}"{s}/>' if style else ""
    if isinstance(value, bool):
        return f'<c r="{ref}"{s} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, numbers.Real | Decimal):
        if not math.isfinite(value):
            return f'<c r="{ref}"{s} t="n"/>'
        return f'<c r="{ref}"{s} t="n"><v>{value:.16g}</v></c>'
    if isinstance(value, str):
        return f'<c r="{ref}"{s} t="inlineStr">{text_xml(value)}</c>'
    if isinstance(value, dt.date | dt.datetime | dt.time):
        if isinstance(value, dt.datetime | dt.time) and value.tzinfo is not None:
            raise TypeError("a spreadsheet time has no time zone: convert it to local time first")
        return f'<c r="{ref}"{s} t="n"><v>{to_excel(value):.16g}</v></c>'
    raise TypeError(f"cannot write a {type(value).__name__} to a spreadsheet cell")


class Rows:
    """The rows of one sheet as SpreadsheetML, appended one at a time."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.count = 0
        self.letters: list[str] = []

    def append(self, values: Iterable[Any], height: float | None = None) -> None:
        """Append a row of plain values and :class:`Styled` cells (``height`` in points)."""
        self.count += 1
        r = self.count
        cells = []
        letters = self.letters
        for i, value in enumerate(values):
            if value is None:
                continue
            while i >= len(letters):
                letters.append(get_column_letter(len(letters) + 1))
            if type(value) is Styled:
                cells.append(cell_xml(f"{letters[i]}{r}", value.value, value.style))
            else:
                cells.append(cell_xml(f"{letters[i]}{r}", value))
        size = f' ht="{height:g}" customHeight="1"' if height else ""
        self.parts.append(f'<row r="{r}"{size}>{"".join(cells)}</row>')

    def xml(self) -> bytes:
        """Return the sheet's ``<sheetData>`` element."""
        return f"<sheetData>{''.join(self.parts)}</sheetData>".encode()


def _sheet_parts(package: zipfile.ZipFile) -> dict[str, str]:
    """Return each sheet's part name in the package, by sheet title."""
    workbook = ElementTree.fromstring(package.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(package.read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels.iter(f"{RELS}Relationship")}
    parts = {}
    for sheet in workbook.iter(f"{MAIN}sheet"):
        target = targets[sheet.get(REL_ID)]
        parts[sheet.get("name", "")] = (
            target.lstrip("/") if target.startswith("/") else f"xl/{target}"
        )
    return parts


def splice(package: bytes, rows: Mapping[str, Rows], stream: IO[bytes]) -> None:
    """Write the package to ``stream`` with each titled sheet's rows in its ``<sheetData>``."""
    with zipfile.ZipFile(io.BytesIO(package)) as source:
        parts = _sheet_parts(source)
        missing = sorted(set(rows) - set(parts))
        if missing:
            raise ValueError(f"sheets not in the workbook: {missing}")
        wanted = {parts[title]: sheet for title, sheet in rows.items()}
        with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as out:
            for info in source.infolist():
                data = source.read(info)
                sheet = wanted.pop(info.filename, None)
                if sheet is not None:
                    if data.count(EMPTY_SHEET_DATA) != 1:
                        raise ValueError(f"{info.filename}: no empty sheetData to fill")
                    data = data.replace(EMPTY_SHEET_DATA, sheet.xml())
                out.writestr(info, data)
