"""Spreadsheet import of options: the template, the row-by-row check, the all-or-nothing write.

One row is one option, checked by the same ``OfferForm`` as the "Add an offer" page and
written by ``offers.services.offer_create`` (which writes the package through compensation's
package service), so an imported option is exactly one the form could have added. Errors
name the spreadsheet row (the header is row 1) and the column:
"Row 4, column base_salary: “abc” is not a number".
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import NOT_PROVIDED, Q
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.dates import date_refusal
from compensation.models import Company, FxRate, Level, LocationPreset
from compensation.selectors import companies_by_name, levels_by_code, locations_by_name
from offers.export import neutralise
from offers.forms import OfferForm
from offers.logic.criteria import RATINGS
from offers.models import Offer
from offers.services import offer_create

MAX_ROWS = 500
# Lines read at most, blank ones included (a sheet may declare a million empty rows).
MAX_LINES = MAX_ROWS + 1000
# Columns read at most in a workbook (a row may declare cells as far as column XFD).
MAX_COLUMNS = 60
MAX_ERRORS = 30
# An XLSX is a zip: refuse one that unpacks to more than this (a "zip bomb").
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
COMMON_CURRENCIES = ("USD", "SGD", "TWD", "CNY", "HKD", "JPY", "KRW", "INR", "EUR", "GBP", "CAD")
TRUE_WORDS = {"yes", "y", "true", "1", "x"}
FALSE_WORDS = {"no", "n", "false", "0", ""}


@dataclasses.dataclass(frozen=True)
class Column:
    """One column of the template: its header, the form field it fills, an example value."""

    key: str
    field: str
    example: str
    # "company", "level" and "location" are looked up by name (level: code on the company).
    lookup: str = ""
    required: bool = False


COLUMNS: tuple[Column, ...] = (
    Column("name", "name", "Meta E5 London (illustrative)", required=True),
    Column("kind", "kind", "external"),
    Column("status", "status", "received"),
    Column("company", "company", "Meta", lookup="company"),
    Column("level", "level", "E5", lookup="level"),
    Column("title", "title", "Machine Learning Engineer"),
    Column("team", "team", "Ranking"),
    Column("location", "location", "London"),
    Column("work_timezone", "work_timezone", "Europe/London"),
    Column("remote_policy", "remote_policy", "hybrid"),
    Column("office_days_per_week", "office_days_per_week", "3"),
    Column("remote_weeks_per_year", "remote_weeks_per_year", "4"),
    Column("relocation_required", "relocation_required", "yes"),
    Column("start_date", "start_date", "2027-03-01"),
    Column("deadline", "deadline", "2027-01-15"),
    Column("currency", "currency", "USD", required=True),
    Column("base_salary", "base", "218000"),
    Column("raise_pct", "raise_pct", "3"),
    Column("bonus_target_pct", "bonus_target_pct", "15"),
    Column("bonus_multiplier", "bonus_multiplier", "1"),
    Column("sign_on_year1", "sign_on_year1", "50000"),
    Column("sign_on_year2", "sign_on_year2", "0"),
    Column("clawback_months", "clawback_months", "12"),
    Column("stock_grant", "stock_grant", "460000"),
    Column("stock_currency", "stock_currency", "USD"),
    Column("vesting_preset", "vesting_preset", ""),
    Column("refresher_yearly", "refresher_yearly", "0"),
    Column("relocation_amount", "relocation_amount", "20000"),
    Column("tax_location", "tax_location", "", lookup="location"),
    *(Column(c.rating_field, c.rating_field, "4") for c in RATINGS),
    Column("notes", "notes", "Recruiter: decision by mid-January."),
)
COLUMN_KEYS = tuple(c.key for c in COLUMNS)


class OfferImportError(Exception):
    """A spreadsheet that was not imported; ``errors`` say where and why."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors[:5]))
        self.errors = errors


# The template -------------------------------------------------------------------------


def _form_field(column: Column) -> forms.Field:
    return OfferForm.base_fields[column.field]


def column_kind(column: Column) -> str:
    """Return what a column holds: text, number, whole number, date, yes/no, choice, name."""
    field = _form_field(column)
    if column.lookup:
        return "name"
    if isinstance(field, forms.BooleanField):
        return "yes/no"
    if isinstance(field, forms.DecimalField):
        return "number"
    if isinstance(field, forms.IntegerField):
        return "whole number"
    if isinstance(field, forms.DateField):
        return "date"
    if isinstance(field, forms.ChoiceField):
        return "choice"
    return "text"


def _choices(column: Column) -> list[str]:
    field = _form_field(column)
    if column.lookup or not isinstance(field, forms.ChoiceField):
        return []
    return [str(value) for value, _label in field.choices if value != ""]


def _currencies(user: AbstractBaseUser) -> list[str]:
    rates = FxRate.objects.filter(Q(owner__isnull=True) | Q(owner=user))
    known = set(rates.values_list("currency", flat=True)) | set(
        rates.values_list("to_currency", flat=True)
    )
    return sorted(known | set(COMMON_CURRENCIES))


def column_guide(user: AbstractBaseUser) -> list[dict[str, str]]:
    """Return one line per column: its meaning, what it holds, allowed values, an example."""
    kinds = {
        "text": _("text"),
        "number": _("number (no currency sign; 218000 or 218,000)"),
        "whole number": _("whole number"),
        "date": _("date, YYYY-MM-DD"),
        "yes/no": _("yes or no"),
        "choice": _("one of the allowed values"),
        "name": _("a name you already use in Offerdesk"),
    }
    lookups = {
        "company": _("A company's name: yours or a shared one (Companies page)."),
        "level": _("The level's code on that company's ladder, e.g. E5 (needs the company)."),
        "location": _("A tax location's name (Places page); empty: none."),
    }
    currencies = ", ".join(_currencies(user)) + " " + _("(or any other ISO 4217 code)")
    guide = []
    for column in COLUMNS:
        field = _form_field(column)
        meaning = str(field.label or column.key)
        if field.help_text:
            meaning += ". " + str(field.help_text)
        if column.lookup:
            meaning += " " + str(lookups[column.lookup])
        allowed = ", ".join(_choices(column))
        if column.key in ("currency", "stock_currency"):
            allowed = currencies
        if column.key == "work_timezone":
            allowed = _("an IANA time zone name, e.g. Asia/Taipei, America/Los_Angeles")
        guide.append(
            {
                "column": column.key,
                "required": _("required") if column.required else _("optional"),
                "holds": str(kinds[column_kind(column)]),
                "allowed": allowed,
                "meaning": meaning,
                "example": column.example,
            }
        )
    return guide


GUIDE_HEADER = ("column", "required", "holds", "allowed", "meaning", "example")


def template_csv() -> bytes:
    """Return the CSV template: the header row and one example row (UTF-8 with a BOM)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMN_KEYS)
    writer.writerow([c.example for c in COLUMNS])
    return out.getvalue().encode("utf-8-sig")  # the BOM makes Excel read UTF-8


def guide_csv(*, user: AbstractBaseUser) -> bytes:
    """Return the CSV explaining each column of the template."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(GUIDE_HEADER)
    for line in column_guide(user):
        writer.writerow([neutralise(line[k]) for k in GUIDE_HEADER])
    return out.getvalue().encode("utf-8-sig")


def template_xlsx(*, user: AbstractBaseUser) -> bytes:
    """Return the XLSX template: sheet "Offers" (header, example) and sheet "Columns"."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    wb = Workbook()
    ws = wb.active
    ws.title = "Offers"
    ws.append(list(COLUMN_KEYS))
    ws.append([neutralise(c.example) for c in COLUMNS])
    ws.freeze_panes = "B2"
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for cell in ws[2]:
        cell.number_format = "@"  # text: "0" stays "0", dates stay as typed
    for i, column in enumerate(COLUMNS, start=1):
        ws.column_dimensions[_letter(i)].width = max(12, len(column.key) + 2)
    guide = wb.create_sheet("Columns")
    guide.append(list(GUIDE_HEADER))
    for cell in guide[1]:
        cell.font = Font(bold=True)
    for line in column_guide(user):
        guide.append([neutralise(line[k]) for k in GUIDE_HEADER])
    for letter, width in zip("ABCDEF", (24, 10, 22, 40, 70, 30), strict=True):
        guide.column_dimensions[letter].width = width
    for row in guide.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    guide.append([])
    guide.append(
        [
            _(
                "Row 2 of the Offers sheet is an example: overwrite it. One row per option; "
                "empty rows are skipped; cells are read as values, never as formulas."
            )
        ]
    )
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _letter(index: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(index)


# Reading the file ------------------------------------------------------------------------


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


def _rows_xlsx(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise OfferImportError([_("file: not a readable XLSX workbook")]) from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise OfferImportError([_("file: the workbook unpacks to more than 50 MB")])
    try:
        # Formulas come back as their text ("=1+1"), never as a computed value.
        wb = load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    except Exception:  # openpyxl raises many kinds on a damaged file
        raise OfferImportError([_("file: not a readable XLSX workbook")]) from None
    try:
        ws = wb["Offers"] if "Offers" in wb.sheetnames else wb.worksheets[0]
        for number, row in enumerate(ws.iter_rows(max_col=MAX_COLUMNS), start=1):
            yield number, [_cell_text(_cell_value(cell)) for cell in row]
    finally:
        wb.close()


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


# Checking rows ---------------------------------------------------------------------------


@dataclasses.dataclass
class _Lookups:
    companies: dict[str, Company]
    levels: dict[tuple[int, str], Level]
    locations: dict[str, LocationPreset]
    names: set[str]

    @classmethod
    def load(cls, user: AbstractBaseUser) -> _Lookups:
        companies = companies_by_name(user=user)
        levels = levels_by_code(companies.values())
        locations = locations_by_name(user=user)
        names = {
            n.casefold() for n in Offer.objects.filter(owner=user).values_list("name", flat=True)
        }
        return cls(companies, levels, locations, names)


def _model_default(name: str) -> Any:
    """Return the Offer field's plain default (what the form shows), or None."""
    try:
        field = Offer._meta.get_field(name)
    except Exception:
        return None
    default = getattr(field, "default", NOT_PROVIDED)
    if default is NOT_PROVIDED or callable(default) or default in ("", None):
        return None
    return default


def _number(text: str) -> str | None:
    """Return a number cell as plain digits ("218,000" -> "218000"), or None if it is not one."""
    cleaned = text.replace(",", "").replace("_", "").replace(" ", "").removesuffix("%")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return cleaned if value.is_finite() else None


def _quote(text: str) -> str:
    return "“" + (text if len(text) <= 40 else text[:40] + "…") + "”"


def _row_data(
    cells: dict[str, str], lookups: _Lookups
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Return the form data of one row and its (column, message) errors found before the form."""
    data: dict[str, Any] = {}
    errors: list[tuple[str, str]] = []
    company: Company | None = None
    for column in COLUMNS:
        text = cells.get(column.key, "")
        kind = column_kind(column)
        if column.required and not text:
            errors.append((column.key, _("is required")))
            continue
        if not text:
            default = _model_default(column.field)
            if default is None or kind == "yes/no":
                continue
            text = str(default)
        if kind in ("number", "whole number"):
            number = _number(text)
            if number is None:
                errors.append((column.key, _("%(v)s is not a number") % {"v": _quote(text)}))
                continue
            text = number
        elif kind == "yes/no":
            word = text.casefold()
            if word in TRUE_WORDS:
                text = "on"
            elif word in FALSE_WORDS:
                continue
            else:
                errors.append((column.key, _("%(v)s: write yes or no") % {"v": _quote(text)}))
                continue
        elif kind == "date":
            try:
                day = dt.date.fromisoformat(text[:10])
            except ValueError:
                errors.append(
                    (column.key, _("%(v)s is not a date like 2027-03-01") % {"v": _quote(text)})
                )
                continue
            if refusal := date_refusal(day):
                errors.append((column.key, refusal))
                continue
            text = day.isoformat()
        elif kind == "choice":
            allowed = _choices(column)
            match = next((v for v in allowed if v.casefold() == text.casefold()), None)
            if match is None:
                errors.append(
                    (
                        column.key,
                        _("%(v)s is not one of: %(allowed)s")
                        % {"v": _quote(text), "allowed": ", ".join(allowed)},
                    )
                )
                continue
            text = match
        elif column.lookup == "company":
            company = lookups.companies.get(text.casefold())
            if company is None:
                errors.append(
                    (
                        column.key,
                        _("no company named %(v)s; add it on the Companies page first")
                        % {"v": _quote(text)},
                    )
                )
                continue
            text = str(company.pk)
        elif column.lookup == "level":
            if company is None:
                if not cells.get("company"):
                    errors.append((column.key, _("a level needs its company")))
                continue
            level = lookups.levels.get((company.pk, text.casefold()))
            if level is None:
                errors.append(
                    (
                        column.key,
                        _("%(company)s has no level %(v)s")
                        % {"company": company.name, "v": _quote(text)},
                    )
                )
                continue
            text = str(level.pk)
        elif column.lookup == "location":
            location = lookups.locations.get(text.casefold())
            if location is None:
                errors.append((column.key, _("no tax location named %(v)s") % {"v": _quote(text)}))
                continue
            text = str(location.pk)
        data[column.field] = text
    return data, errors


@dataclasses.dataclass
class _Row:
    number: int
    data: dict[str, Any]


def _header(cells: list[str]) -> dict[int, str]:
    names = [c.strip().casefold() for c in cells]
    unknown = [n for n in names if n and n not in COLUMN_KEYS]
    if unknown:
        raise OfferImportError(
            [
                _("Row 1: unknown columns %(cols)s; use the template's header row")
                % {"cols": ", ".join(_quote(n) for n in unknown[:5])}
            ]
        )
    repeated = sorted({n for n in names if n and names.count(n) > 1})
    if repeated:
        raise OfferImportError(
            [_("Row 1: columns given twice: %(cols)s") % {"cols": ", ".join(repeated)}]
        )
    missing = [c.key for c in COLUMNS if c.required and c.key not in names]
    if missing:
        raise OfferImportError(
            [_("Row 1: missing columns: %(cols)s") % {"cols": ", ".join(missing)}]
        )
    return {i: n for i, n in enumerate(names) if n}


class _Errors(list[str]):
    def add(self, number: int, column: str, message: str) -> None:
        if len(self) >= MAX_ERRORS:
            self.append(_("… and more; fix these first."))
            raise OfferImportError(list(self))
        if column:
            self.append(
                _("Row %(n)s, column %(col)s: %(msg)s")
                % {"n": number, "col": column, "msg": message}
            )
        else:
            self.append(_("Row %(n)s: %(msg)s") % {"n": number, "msg": message})


def _column_of(field: str) -> str:
    return next((c.key for c in COLUMNS if c.field == field), "")


def _form_errors(errors: _Errors, number: int, form: forms.Form) -> None:
    for field, messages in form.errors.items():
        for message in messages:
            errors.add(number, _column_of(field) if field != "__all__" else "", message)


def rows_check(*, user: AbstractBaseUser, rows: Iterable[tuple[int, list[str]]]) -> list[_Row]:
    """Check every row with the offer form; raise OfferImportError listing each bad cell."""
    lookups = _Lookups.load(user)
    errors = _Errors()
    header: dict[int, str] | None = None
    checked: list[_Row] = []
    seen: dict[tuple[str, ...], int] = {}
    names: dict[str, int] = {}
    for number, cells in rows:
        if number > MAX_LINES:
            raise OfferImportError(
                [_("file: more than %(n)s lines, blank ones included; split it") % {"n": MAX_LINES}]
            )
        if header is None:
            if not any(cells):
                continue
            header = _header(cells)
            continue
        if not any(cells):
            continue
        if len(checked) + len(errors) >= MAX_ROWS:
            raise OfferImportError([_("file: more than %(n)s rows; split it") % {"n": MAX_ROWS}])
        extra = [c for i, c in enumerate(cells) if c and i not in header]
        if extra:
            errors.add(number, "", _("values beyond the last named column"))
        values = {header[i]: c for i, c in enumerate(cells) if i in header}
        key = tuple(values.get(k, "").casefold() for k in COLUMN_KEYS)
        if key in seen:
            errors.add(number, "", _("repeats row %(n)s") % {"n": seen[key]})
            continue
        seen[key] = number
        name = values.get("name", "").casefold()
        if name in names:
            errors.add(number, "name", _("row %(n)s already has this name") % {"n": names[name]})
            continue
        if name and name in lookups.names:
            errors.add(number, "name", _("you already have an option with this name"))
            continue
        names[name] = number
        data, problems = _row_data(values, lookups)
        for column, message in problems:
            errors.add(number, column, message)
        if problems:
            continue
        form = OfferForm(data=data, user=user)
        if not form.is_valid():
            _form_errors(errors, number, form)
            continue
        cleaned = dict(form.cleaned_data)
        cleaned.pop("form_token", None)
        checked.append(_Row(number, cleaned))
    if header is None:
        raise OfferImportError([_("file: no header row; start from the template")])
    if errors:
        raise OfferImportError(list(errors))
    if not checked:
        raise OfferImportError([_("file: no rows to import under the header")])
    return checked


class _Rollback(Exception):
    """Undo a partly written import."""


def offers_import(*, user: AbstractBaseUser, raw: bytes) -> list[Offer]:
    """Create one option per row of an XLSX or CSV file: all of them, or none with the reasons."""
    rows = rows_check(user=user, rows=file_rows(raw))
    errors = _Errors()
    created: list[Offer] = []
    try:
        with transaction.atomic():
            for row in rows:
                try:
                    with transaction.atomic():
                        created.append(offer_create(user=user, data=row.data))
                except ValidationError as error:
                    for field, messages in error.message_dict.items():
                        for message in messages:
                            errors.add(row.number, _column_of(field), message)
            if errors:
                raise _Rollback
    except _Rollback:
        raise OfferImportError(list(errors)) from None
    return created


# For the page: the column list with its meaning (the same text as the template's guide).
IMPORT_HELP = gettext_lazy(
    "One row per option, the header in row 1. Everything is checked first; then every row is "
    "added, or none is if any row is wrong."
)
