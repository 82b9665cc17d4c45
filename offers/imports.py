"""Spreadsheet import of options: the template, the row-by-row check, the all-or-nothing write.

One row is one option, bound to the same ``OfferForm`` as the "Add an offer" page and
written by ``offers.services.offer_create`` (which writes the package through compensation's
package service), so an imported option is exactly one the form could have added, valued the
same. The columns are the form's fields (every term it takes: the tax rule too), named,
explained and checked by the form; the import only matches names (a company, a level's code,
a tax location, a choice's label) and reads yes/no for a tick box. Errors name the
spreadsheet row (the header is row 1) and the column, all of a row's at once:
"Row 4, column base_salary: “abc” is not a number".
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from compensation.form_fields import CurrencyField
from compensation.models import Company, FxRate, Level, LocationPreset
from compensation.selectors import companies_by_name, levels_by_code, locations_by_name
from offers.export import neutralise
from offers.forms import PACKAGE_FORM_NAMES, OfferForm, TimezoneField
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


# Form fields a spreadsheet does not fill: an interview process is linked on the option's
# page (it has no name to match). Hidden fields (the page's versions and token) are left out.
NOT_IMPORTED = frozenset({"process"})
# Headers that are not the form field's name (kept: filled-in templates still import).
HEADERS = {"base": "base_salary"}
# Headers of older templates, read as the column they became (the import guide lists them).
OLD_HEADERS = {"relocation_amount": "relocation"}
# Fields filled by a name: what the name is matched against (a level: a code on the row's
# company's ladder).
LOOKUPS = {
    "company": "company",
    "level": "level",
    "target_level": "level",
    "tax_location": "location",
}
# Fields whose empty cell is refused although the page shows a value: a row states its
# currency, never takes the form's USD unseen.
STATED = frozenset({"currency"})
# The template's example row, by form field (a field not named here: an empty cell). Its
# words are in the person's language (the guide shows them on the page); names, codes and
# figures are the values the columns take.
EXAMPLES: dict[str, str | Promise] = {
    "name": gettext_lazy("Meta E5 London (illustrative)"),
    "kind": "external",
    "status": "received",
    "company": "Meta",
    "level": "E5",
    "title": gettext_lazy("Machine Learning Engineer"),
    "team": pgettext_lazy("a team", "Ranking"),
    "location": gettext_lazy("London"),
    "work_timezone": "Europe/London",
    "remote_policy": "hybrid",
    "office_days_per_week": "3",
    "remote_weeks_per_year": "4",
    "relocation_required": "yes",
    "start_date": "2027-03-01",
    "deadline": "2027-01-15",
    "shareable": "no",
    "notes": gettext_lazy("Recruiter: decision by mid-January."),
    "currency": "USD",
    "base": "218000",
    "raise_pct": "3",
    "bonus_target_pct": "15",
    "bonus_multiplier": "1",
    "sign_on_year1": "50000",
    "sign_on_year2": "0",
    "clawback_months": "12",
    "stock_grant": "460000",
    "stock_currency": "USD",
    "refresher_yearly": "0",
    "relocation": "20000",
    **{c.rating_field: "4" for c in RATINGS},
}


@dataclasses.dataclass(frozen=True)
class Column:
    """One column of the template: its header, the offer form field it fills, an example."""

    key: str
    field: str
    # Its words are translated when read (`example`), in the language then active.
    example_words: str | Promise
    # "company", "level" and "location" are matched by name (a level: its code on the company).
    lookup: str = ""
    # An empty cell is refused (the form requires the field and the page shows no value).
    required: bool = False

    @property
    def example(self) -> str:
        """Return the example cell, in the active language."""
        return str(self.example_words)

    @property
    def form_field(self) -> forms.Field:
        """Return the offer form's field this column fills."""
        return OfferForm.base_fields[self.field]


def _columns() -> tuple[Column, ...]:
    """Return one column per field of the offer form, in the form's order."""
    return tuple(
        Column(
            key=HEADERS.get(name, name),
            field=name,
            example_words=EXAMPLES.get(name, ""),
            lookup=LOOKUPS.get(name, ""),
            required=field.required and (name in STATED or _shown(field) is None),
        )
        for name, field in OfferForm.base_fields.items()
        if not field.widget.is_hidden and name not in NOT_IMPORTED
    )


def _shown(field: forms.Field) -> str | None:
    """Return what the "Add an offer" page sends for a field left as it is (None: nothing).

    A model field's initial is the model's default; a ticked box sends "on".
    """
    value = field.initial() if callable(field.initial) else field.initial
    if isinstance(field, forms.BooleanField):
        return "on" if value else None
    if value is None or value == "":
        return None
    return str(value)


COLUMNS: tuple[Column, ...] = _columns()
COLUMN_KEYS = tuple(c.key for c in COLUMNS)


class OfferImportError(Exception):
    """A spreadsheet that was not imported; ``errors`` say where and why."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors[:5]))
        self.errors = errors


# The template -------------------------------------------------------------------------


def column_kind(column: Column) -> str:
    """Return what a column holds: text, number, whole number, date, yes/no, choice, name."""
    field = column.form_field
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


def _choices(column: Column) -> list[tuple[str, str]]:
    """Return a choice column's (key, label) pairs, labels in the active language."""
    field = column.form_field
    if column.lookup or not isinstance(field, forms.ChoiceField):
        return []
    return [(str(value), str(label)) for value, label in field.choices]


def _currencies(user: AbstractBaseUser) -> list[str]:
    rates = FxRate.objects.filter(Q(owner__isnull=True) | Q(owner=user))
    known = set(rates.values_list("currency", flat=True)) | set(
        rates.values_list("to_currency", flat=True)
    )
    return sorted(known | set(COMMON_CURRENCIES))


def _sentences(parts: list[str]) -> str:
    """Return the non-empty parts as one text, a full stop after each that lacks one."""
    text = ""
    for part in filter(None, parts):
        text += ("" if not text else " " if text.endswith((".", "。")) else ". ") + part
    return text


def column_guide(user: AbstractBaseUser) -> list[dict[str, str]]:
    """Return one line per column: its meaning, what it holds, allowed values, an example."""
    kinds = {
        "text": _("text"),
        "number": _("number (no currency sign; 218000 or 218,000)"),
        "whole number": _("whole number"),
        "date": _("date, YYYY-MM-DD"),
        "yes/no": _("yes or no"),
        "choice": _("one of the allowed values: its key or its name"),
        "name": _("a name you already use in Offerdesk"),
    }
    lookups = {
        "company": _("A company's name: yours or a shared one (Companies page)."),
        "level": _("The level's code on that company's ladder, e.g. E5 (needs the company)."),
        # The page as the menu names it: the same message, so the two never drift apart.
        "location": _("A tax location's name (%(page)s page); empty: none.")
        % {"page": _("Locations")},
    }
    currencies = ", ".join(_currencies(user)) + " " + _("(or any other ISO 4217 code)")
    guide = []
    for column in COLUMNS:
        field = column.form_field
        meaning = [str(field.label or column.key), str(field.help_text)]
        if column.lookup:
            meaning.append(str(lookups[column.lookup]))
        older = [old for old, key in OLD_HEADERS.items() if key == column.key]
        if older:
            meaning.append(
                _("An older template's %(names)s column is read as this one.")
                % {"names": ", ".join(older)}
            )
        shown = _shown(field)
        if not column.required and shown is not None and column_kind(column) != "yes/no":
            meaning.append(_("Empty: %(value)s, as the form shows.") % {"value": shown})
        allowed = "; ".join(
            _("empty: %(label)s") % {"label": label} if key == "" else f"{key} ({label})"
            for key, label in _choices(column)
        )
        if isinstance(field, CurrencyField):
            allowed = currencies
        if isinstance(field, TimezoneField):
            allowed = _("an IANA time zone name, e.g. Asia/Taipei, America/Los_Angeles")
        guide.append(
            {
                "column": column.key,
                "required": _("required") if column.required else _("optional"),
                "holds": str(kinds[column_kind(column)]),
                "allowed": allowed,
                "meaning": _sentences(meaning),
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


# Markup that declares a document type or entities: a workbook never needs it, and an entity
# can expand to gigabytes ("billion laughs") or read a file of the server (XXE). Searched in
# each XML part as UTF-8 and as UTF-16, the encodings an XML parser accepts without a
# declaration. (defusedxml is not installed; the parts are checked before any parser runs.)
DECLARATIONS = tuple(
    word.encode(encoding)
    for word in ("<!DOCTYPE", "<!ENTITY", "<!doctype", "<!entity")
    for encoding in ("utf-8", "utf-16-le", "utf-16-be")
)
CHUNK = 1024 * 1024


def _refused(message: str) -> OfferImportError:
    return OfferImportError([message])


def _unreadable() -> OfferImportError:
    return _refused(_("file: not a readable XLSX workbook"))


def _xlsx_checked(raw: bytes) -> None:
    """Refuse a workbook that unpacks too large, is damaged or declares entities.

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
                    tail = b""
                    while chunk := part.read(CHUNK):
                        unpacked += len(chunk)
                        if unpacked > MAX_UNPACKED_BYTES:
                            raise _refused(_("file: the workbook unpacks to more than 50 MB"))
                        window = tail + chunk
                        if any(word in window for word in DECLARATIONS):
                            raise _refused(
                                _(
                                    "file: the workbook declares a document type or entities, "
                                    "which a spreadsheet never needs; save it again from your "
                                    "spreadsheet program"
                                )
                            )
                        tail = window[-32:]
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
    except Exception:  # openpyxl raises many kinds on a damaged file
        raise _unreadable() from None
    try:
        ws = wb["Offers"] if "Offers" in wb.sheetnames else wb.worksheets[0]
        for number, row in enumerate(ws.iter_rows(max_col=MAX_COLUMNS), start=1):
            rows.append((number, [_cell_text(_cell_value(cell)) for cell in row]))
            if number > MAX_LINES:
                break  # the check refuses the file at this line
    except Exception:  # ParseError, a damaged part, a cell openpyxl cannot read
        raise _unreadable() from None
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


# Checking rows ---------------------------------------------------------------------------


@dataclasses.dataclass
class _Lookups:
    companies: dict[str, Company]
    levels: dict[tuple[int, str], Level]
    locations: dict[str, LocationPreset]
    names: set[str]
    # Per choice field: each key, and each label in English and in the active language,
    # case-folded, to the key the form takes.
    choices: dict[str, dict[str, str]]

    @classmethod
    def load(cls, user: AbstractBaseUser) -> _Lookups:
        companies = companies_by_name(user=user)
        levels = levels_by_code(companies.values())
        locations = locations_by_name(user=user)
        names = {
            n.casefold() for n in Offer.objects.filter(owner=user).values_list("name", flat=True)
        }
        choices = {c.field: _choice_words(c) for c in COLUMNS if _choices(c)}
        return cls(companies, levels, locations, names, choices)


def _choice_words(column: Column) -> dict[str, str]:
    """Return the words a choice cell may hold (a key, or a label) and the key each means."""
    with translation.override("en"):
        english = _choices(column)
    words: dict[str, str] = {}
    for key, label in [*english, *_choices(column)]:
        words.setdefault(label.casefold(), key)
    words.update({key.casefold(): key for key, _label in english})  # a key before a label
    return words


def _quote(text: str) -> str:
    return "“" + (text if len(text) <= 40 else text[:40] + "…") + "”"


def _row_data(cells: dict[str, str], lookups: _Lookups) -> tuple[dict[str, str], dict[str, str]]:
    """Return one row as the offer form's data, and the cells that name nothing, by column.

    What the form reads is passed as typed: the form checks it. Only what a spreadsheet says
    differently from the page is translated here: a name for a choice of the user's
    companies, levels and tax locations, yes or no for a tick box, a choice's name for its key.
    An empty cell sends what the page shows before anything is typed.
    """
    data: dict[str, str] = {}
    problems: dict[str, str] = {}
    company: Company | None = None
    # The company first: a level is a code on its ladder.
    for column in sorted(COLUMNS, key=lambda c: c.lookup != "company"):
        text = cells.get(column.key, "")
        field = column.form_field
        if not text:
            shown = None if column.field in STATED else _shown(field)
            if shown is not None:
                data[column.field] = shown
            continue
        if column.lookup == "company":
            company = lookups.companies.get(text.casefold())
            if company is None:
                problems[column.key] = _(
                    "no company named %(v)s; add it on the Companies page first"
                ) % {"v": _quote(text)}
                continue
            data[column.field] = str(company.pk)
        elif column.lookup == "level":
            if company is None:
                if not cells.get("company"):
                    problems[column.key] = _("a level needs its company")
                continue  # else the company's cell is the one to fix
            level = lookups.levels.get((company.pk, text.casefold()))
            if level is None:
                problems[column.key] = _("%(company)s has no level %(v)s") % {
                    "company": company.name,
                    "v": _quote(text),
                }
                continue
            data[column.field] = str(level.pk)
        elif column.lookup == "location":
            location = lookups.locations.get(text.casefold())
            if location is None:
                problems[column.key] = _("no tax location named %(v)s") % {"v": _quote(text)}
                continue
            data[column.field] = str(location.pk)
        elif isinstance(field, forms.BooleanField):
            word = text.casefold()
            if word in TRUE_WORDS:
                data[column.field] = "on"
            elif word not in FALSE_WORDS:
                problems[column.key] = _("%(v)s: write yes or no") % {"v": _quote(text)}
        elif column.field in lookups.choices:
            data[column.field] = lookups.choices[column.field].get(text.casefold(), text)
        else:
            data[column.field] = text
    return data, problems


def _said(column: Column, error: ValidationError, text: str) -> str:
    """Return the form's error in a spreadsheet's terms: a cell the field cannot read, quoted.

    The page shows a value next to its message; an error list does not, so a number, date or
    choice the form cannot read is named, with the keys a choice takes. Any other message is
    the form's own.
    """
    field = column.form_field
    if error.code == "required":
        return _("is required")
    if error.code == "invalid_choice" and not column.lookup:
        keys = ", ".join(key for key, _label in _choices(column) if key)
        return _("%(v)s is not one of: %(allowed)s") % {"v": _quote(text), "allowed": keys}
    if error.code == "invalid" and isinstance(field, forms.DecimalField):
        return _("%(v)s is not a number") % {"v": _quote(text)}
    if error.code == "invalid" and isinstance(field, forms.DateField):
        return _("%(v)s is not a date like 2027-03-01") % {"v": _quote(text)}
    return " ".join(error.messages)


@dataclasses.dataclass
class _Row:
    number: int
    form: OfferForm  # bound to the row and valid


def _header(cells: list[str]) -> dict[int, str]:
    names = [c.strip().casefold() for c in cells]
    names = [OLD_HEADERS.get(n, n) for n in names]
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
    """Return the column of a service error's field (a Package's in the model's name too)."""
    field = PACKAGE_FORM_NAMES.get(field, field)
    return next((c.key for c in COLUMNS if c.field == field), "")


def _row_errors(
    errors: _Errors, number: int, values: dict[str, str], problems: dict[str, str], form: OfferForm
) -> None:
    """Add every error of one row at once: one a column, in the form's order, then the row's."""
    found = form.errors.as_data()
    for column in COLUMNS:
        if column.key in problems:  # its cell named nothing, so the form was sent no value
            errors.add(number, column.key, problems[column.key])
            continue
        # The field's own check comes first; a cell it refuses is not told the rules that
        # compare it with other cells (the base's "or pick a level" after "not a number").
        for error in found.pop(column.field, [])[:1]:
            errors.add(number, column.key, _said(column, error, values.get(column.key, "")))
    for field, rest in found.items():  # the row's own (and any field no column fills)
        for error in rest:
            errors.add(number, _column_of(field), " ".join(error.messages))


def rows_check(*, user: AbstractBaseUser, rows: Iterable[tuple[int, list[str]]]) -> list[_Row]:
    """Check every row with the offer form; raise OfferImportError listing each bad cell."""
    lookups = _Lookups.load(user)
    errors = _Errors()
    header: dict[int, str] | None = None
    checked: list[_Row] = []
    seen: dict[tuple[str, ...], int] = {}
    names: dict[str, int] = {}
    count = 0
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
        count += 1
        if count > MAX_ROWS:
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
        # A name already taken refuses the row; its other cells are still checked, so that
        # all of a row's errors are said at once.
        refused = len(errors)
        name = values.get("name", "").casefold()
        if name in names:
            errors.add(number, "name", _("row %(n)s already has this name") % {"n": names[name]})
        elif name and name in lookups.names:
            errors.add(number, "name", _("you already have an option with this name"))
        else:
            names[name] = number
        data, problems = _row_data(values, lookups)
        form = OfferForm(data=data, user=user)
        if not form.is_valid() or problems:
            _row_errors(errors, number, values, problems, form)
        elif len(errors) == refused:
            checked.append(_Row(number, form))
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
                        form = row.form
                        offer = offer_create(
                            user=user,
                            fields=form.offer_fields(),
                            package_fields=form.package_fields(),
                            change=form.terms_change(pay_currency=form.cleaned_data["currency"]),
                        )
                        created.append(offer)
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
