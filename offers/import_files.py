"""Reading an uploaded spreadsheet into numbered rows of cell text, or refusing it.

An XLSX is checked before any parser reads it (its unpacked size, its parts' checksums) and
its sheets are parsed by defusedxml (no entity declarations); a CSV is decoded (UTF-8 or UTF-16) and read in the
dialect it is written in. A cell reads as the text a person would have typed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from defusedxml import DefusedXmlException
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

MAX_ROWS = 500
# Lines read at most, blank ones included (a sheet may declare a million empty rows).
MAX_LINES = MAX_ROWS + 1000
# Columns read at most in a workbook (a row may declare cells as far as column XFD).
MAX_COLUMNS = 60
# An XLSX is a zip: refuse one that unpacks to more than this (a "zip bomb").
MAX_UNPACKED_BYTES = 50 * 1024 * 1024


class OfferImportError(Exception):
    """A spreadsheet that was not imported; ``errors`` say where and why."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors[:5]))
        self.errors = errors


def _cell_text(value: Any) -> str:
    """Return a cell's value as the text a person would have typed."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return repr(value)
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value).strip()


def _cell_value(cell: Any) -> Any:
    """Return a cell's value; a number shown as a percentage (0.15 as 15%) as its percent."""
    value = cell.value
    if (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and "%" in str(getattr(cell, "number_format", "") or "")
    ):
        return Decimal(str(value)) * 100
    return value


CHUNK = 1024 * 1024


def _refused(message: str) -> OfferImportError:
    return OfferImportError([message])


def _unreadable(error: BaseException | None = None) -> OfferImportError:
    """Return the refusal of a workbook a parser could not read, or that declares entities.

    An entity can expand to gigabytes ("billion laughs") or read a server file (XXE): openpyxl
    parses the sheets with defusedxml (docs/dependencies.md), which refuses one; openpyxl
    raises that as the cause (or context) of its own ValueError.
    """
    if any(isinstance(e, DefusedXmlException) for e in (error, *_causes(error))):
        return _refused(
            _(
                "file: the workbook declares entities, which a spreadsheet never needs; save "
                "it again from your spreadsheet program"
            )
        )
    return _refused(_("file: not a readable XLSX workbook"))


def _causes(error: BaseException | None) -> Iterator[BaseException]:
    while error is not None and (error := error.__cause__ or error.__context__) is not None:
        yield error


def _xlsx_checked(raw: bytes) -> None:
    """Refuse a workbook that unpacks too large or is damaged.

    Every part is read through once (sizes as unpacked, not as the archive claims them, and
    each part's checksum), so a damaged part is refused here rather than halfway through the
    rows.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = archive.infolist()
            if sum(info.file_size for info in members) > MAX_UNPACKED_BYTES:
                raise _refused(_("file: the workbook unpacks to more than 50 MB"))
            unpacked = 0
            for info in members:
                with archive.open(info) as part:
                    while chunk := part.read(CHUNK):
                        unpacked += len(chunk)
                        if unpacked > MAX_UNPACKED_BYTES:
                            raise _refused(_("file: the workbook unpacks to more than 50 MB"))
    except OfferImportError:
        raise
    except Exception:
        # A damaged archive (zipfile.BadZipFile: not a zip, a bad checksum), a truncated or
        # encrypted part, an unknown compression method, a part zlib cannot unpack.
        raise _unreadable() from None


def _rows_xlsx(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    """Return (row number, cells) of the workbook's offers sheet, read at once.

    The rows are read here, up to one line past what the import reads, so that a sheet whose
    XML is truncated or malformed (`xml.etree.ElementTree.ParseError`, or any error openpyxl
    raises on a damaged part) is refused with a message, not raised half-way through the
    check.
    """
    from openpyxl import load_workbook

    _xlsx_checked(raw)
    rows: list[tuple[int, list[str]]] = []
    try:
        # Formulas come back as their text ("=1+1"), never as a computed value.
        wb = load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    except Exception as error:  # openpyxl raises many kinds on a damaged file
        raise _unreadable(error) from None
    try:
        ws = wb["Offers"] if "Offers" in wb.sheetnames else wb.worksheets[0]
        for number, row in enumerate(ws.iter_rows(max_col=MAX_COLUMNS), start=1):
            rows.append((number, [_cell_text(_cell_value(cell)) for cell in row]))
            if number > MAX_LINES:
                break  # the check refuses the file at this line
    except Exception as error:  # ParseError, a damaged part, a cell openpyxl cannot read
        raise _unreadable(error) from None
    finally:
        wb.close()
    return iter(rows)


def _decode(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OfferImportError(
            [_("file: not UTF-8 text; save it as “CSV UTF-8” or upload the XLSX")]
        ) from None


def _rows_csv(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    text = _decode(raw)
    if "\x00" in text:
        raise OfferImportError([_("file: not a CSV text file")])
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # type: ignore[assignment]
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        for row in reader:
            yield reader.line_num, [cell.strip() for cell in row]
    except csv.Error as error:
        raise OfferImportError(
            [_("Row %(n)s: %(e)s") % {"n": reader.line_num, "e": error}]
        ) from None


def file_rows(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    """Yield (row number, cells) of an XLSX or CSV file, refusing one too large to read."""
    limit = settings.IMPORT_MAX_BYTES
    if len(raw) > limit:
        raise OfferImportError(
            [_("file: larger than the %(size)s allowed") % {"size": filesizeformat(limit)}]
        )
    if not raw.strip():
        raise OfferImportError([_("file: empty")])
    if raw.startswith(b"PK\x03\x04"):
        return _rows_xlsx(raw)
    return _rows_csv(raw)
