"""Writes: the user's bands from a CSV file, every row or (at the first invalid one) none."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.dates import date_refusal
from accounts.fields import fields_assign
from accounts.text import text_refusal
from compensation.form_fields import parse_number, validate_currency
from compensation.models import Band, Company, Level
from compensation.selectors import companies_by_name, levels_by_code
from compensation.services import BAND_FIELDS

CSV_COLUMNS = ("company", *BAND_FIELDS)
CSV_REQUIRED = ("company", "level", "currency", "base_min", "base_mid", "base_max")
CSV_MAX_BYTES = 5 * 1024 * 1024
CSV_EXAMPLE = (
    ",".join(CSV_COLUMNS)
    + "\n"
    + "Meta,E5,USD,196000,218000,240000,80000,115000,150000,15,,recruiter call (illustrative),2026-10-20\n"
    + "TikTok,2-2,SGD,180000,215000,250000,60000,90000,120000,25,Singapore,levels.fyi (illustrative),2026-10-01\n"
)
AMOUNTS = ("base_min", "base_mid", "base_max", "stock_min", "stock_mid", "stock_max")

# A row's cells by column, the band fields read from them, and its (column, message) errors.
Cells = dict[str, str]
Values = dict[str, Any]
Errors = list[tuple[str, str]]


@dataclass
class ImportResult:
    """Outcome of a CSV import: counts when it was written, else the errors by line."""

    created: int = 0
    updated: int = 0
    errors: list[str] = field(default_factory=list)
    bands: list[Band] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Return True when the file was valid and written."""
        return not self.errors


def _money(raw: str) -> Decimal:
    """Return a cell's amount, read as a form reads it (spaces between digits allowed)."""
    try:
        value = parse_number(raw.replace(" ", ""))
    except ValidationError as error:
        if error.code == "invalid":
            raise ValueError(_("not a number (%(raw)r)") % {"raw": raw[:40]}) from None
        raise ValueError(error.messages[0]) from None
    if value < 0:
        raise ValueError(_("must not be negative"))
    return value


def _csv_text(file: Any) -> str:
    size = getattr(file, "size", None)
    if size is not None and size > CSV_MAX_BYTES:
        raise ValueError(_("The file is larger than 5 MB."))
    data = file.read(CSV_MAX_BYTES + 1)
    if len(data) > CSV_MAX_BYTES:
        raise ValueError(_("The file is larger than 5 MB."))
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(_("The file is not UTF-8 text; save it as CSV UTF-8.")) from None


def _read_level(
    cell: Cells,
    companies: dict[str, Company],
    levels: dict[tuple[int, str], Level],
    values: Values,
    errors: Errors,
) -> None:
    """Read the level, of a company (shared or own) that must exist, as its level must."""
    name, code = cell["company"], cell["level"]
    company = companies.get(name.casefold()) if name else None
    if name and company is None:
        errors.append(("company", _("unknown company %(name)r") % {"name": name[:60]}))
    if company is not None and code:
        level = levels.get((company.pk, code.casefold()))
        if level is None:
            message = _("unknown level %(code)r of %(company)s")
            errors.append(("level", message % {"code": code[:20], "company": company.name}))
        values["level"] = level


def _read_currency(cell: Cells, values: Values, errors: Errors) -> None:
    if cell["currency"]:
        currency = cell["currency"].upper()
        try:
            validate_currency(currency)
        except ValidationError as error:
            errors.append(("currency", error.messages[0]))
        values["currency"] = currency


def _read_amounts(cell: Cells, values: Values, errors: Errors) -> None:
    """Read base and stock min, mid and max (blank stock: 0), each range in order."""
    for col in AMOUNTS:
        if not cell[col]:
            if col.startswith("stock"):
                values[col] = Decimal(0)
            continue
        try:
            values[col] = _money(cell[col])
        except ValueError as error:
            errors.append((col, str(error)))
    for prefix in ("base", "stock"):
        lo, mid, hi = (values.get(f"{prefix}_{k}") for k in ("min", "mid", "max"))
        if lo is not None and mid is not None and mid < lo:
            errors.append((f"{prefix}_mid", _("must be >= %(col)s") % {"col": f"{prefix}_min"}))
        if mid is not None and hi is not None and hi < mid:
            errors.append((f"{prefix}_max", _("must be >= %(col)s") % {"col": f"{prefix}_mid"}))
        elif mid is None and lo is not None and hi is not None and hi < lo:
            errors.append((f"{prefix}_max", _("must be >= %(col)s") % {"col": f"{prefix}_min"}))


def _read_bonus(cell: Cells, values: Values, errors: Errors) -> None:
    """Read the bonus target % (blank: 0; "15%" is 15), at most 200."""
    if not cell["bonus_target_pct"]:
        values["bonus_target_pct"] = Decimal(0)
        return
    try:
        bonus = _money(cell["bonus_target_pct"].rstrip("%"))
        if bonus > 200:
            raise ValueError(_("must be at most 200"))
        values["bonus_target_pct"] = bonus
    except ValueError as error:
        errors.append(("bonus_target_pct", str(error)))


def _read_as_of(cell: Cells, values: Values, errors: Errors) -> None:
    values["as_of"] = None
    if not cell["as_of"]:
        return
    try:
        values["as_of"] = dt.date.fromisoformat(cell["as_of"])
    except ValueError:
        errors.append(("as_of", _("use a date like 2026-10-01")))
    else:
        if refusal := date_refusal(values["as_of"]):  # the range a restore takes
            errors.append(("as_of", refusal))


def _parse_row(
    row: dict[str, str],
    companies: dict[str, Company],
    levels: dict[tuple[int, str], Level],
) -> tuple[Values, Errors]:
    """Return the band fields of one CSV row and its (column, message) errors."""
    cell = {k: (row.get(k) or "").strip() for k in CSV_COLUMNS}
    errors = [(col, refusal) for col in CSV_COLUMNS if (refusal := text_refusal(cell[col]))]
    if errors:
        return {}, errors
    errors = [(col, _("is required")) for col in CSV_REQUIRED if not cell[col]]
    values: Values = {}
    _read_level(cell, companies, levels, values, errors)
    _read_currency(cell, values, errors)
    _read_amounts(cell, values, errors)
    _read_bonus(cell, values, errors)
    _read_as_of(cell, values, errors)
    for col, limit in (("location", 80), ("source", 200)):
        if len(cell[col]) > limit:
            errors.append((col, _("at most %(n)d characters") % {"n": limit}))
        values[col] = cell[col]  # kept as plain text, even when it looks like a formula
    return values, errors


def band_import_csv(*, user: AbstractBaseUser, file: Any) -> ImportResult:
    """Import the user's own bands from CSV: all rows or, at the first invalid one, none.

    Columns: `CSV_COLUMNS`. The company (shared or own) and its level must exist: an unknown
    company or level is an error, never created. A row matching one of the user's bands
    (level, currency, location, as_of) updates it. Errors read "line 7: base_max: must be
    >= base_mid". Files over 5 MB or not UTF-8 are refused; cells are stored as plain text.
    """
    result = ImportResult()
    try:
        text = _csv_text(file)
    except ValueError as error:
        result.errors.append(str(error))
        return result
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in CSV_REQUIRED if c not in header]
    if missing:
        result.errors.append(_("line 1: missing columns: %(cols)s") % {"cols": ", ".join(missing)})
        return result
    reader.fieldnames = header
    companies = companies_by_name(user=user)
    levels = levels_by_code(companies.values())
    pending: list[tuple[int, Values]] = []
    line = 1
    try:
        for row in reader:
            line = reader.line_num
            if not any((v or "").strip() for k, v in row.items() if k is not None):
                continue
            values, errors = _parse_row(row, companies, levels)
            result.errors += [f"line {line}: {col}: {message}" for col, message in errors]
            if not errors:
                pending.append((line, values))
    except csv.Error as error:
        result.errors.append(_("line %(n)d: %(e)s") % {"n": line, "e": error})
    if not pending and not result.errors:
        result.errors.append(_("The file has no rows to import."))
    if not result.errors:
        _write_bands(user, pending, result)
    return result


def _write_bands(
    user: AbstractBaseUser, pending: list[tuple[int, Values]], result: ImportResult
) -> None:
    with transaction.atomic():
        for line, values in pending:
            keys = ("level", "currency", "location", "as_of")
            band = Band.objects.filter(owner=user, **{k: values[k] for k in keys}).first()
            created = band is None
            band = band or Band(owner=user)
            fields_assign(band, values, BAND_FIELDS)
            try:
                band.full_clean()
            except ValidationError as error:
                result.errors += [
                    f"line {line}: {col}: {message}"
                    for col, messages in error.message_dict.items()
                    for message in messages
                ]
                continue
            band.save()
            result.bands.append(band)
            result.created += created
            result.updated += not created
        if result.errors:  # all rows or none: undo the ones written
            transaction.set_rollback(True)
            result.created = result.updated = 0
            result.bands = []
