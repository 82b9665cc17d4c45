"""The import's spreadsheet columns, and the template and guide a person fills in.

One column per field of ``OfferForm`` (the "Add an offer" page), in the form's order: its header
(the field's name, or an older template's, still read), an example cell, the name lookups of
a company, a level or a tax location, and whether an empty cell is refused. The guide says what
each column means, holds and allows, in the person's language.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Iterable, Sequence

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from accounts.wording import aside
from compensation.form_fields import CurrencyField
from compensation.models import FxRate
from offers.export import neutralise
from offers.forms import OfferForm, TimezoneField
from offers.logic.criteria import RATINGS

COMMON_CURRENCIES = ("USD", "SGD", "TWD", "CNY", "HKD", "JPY", "KRW", "INR", "EUR", "GBP", "CAD")

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
            required=field.required and (name in STATED or shown_value(field) is None),
        )
        for name, field in OfferForm.base_fields.items()
        if not field.widget.is_hidden and name not in NOT_IMPORTED
    )


def shown_value(field: forms.Field) -> str | None:
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


def choices_of(column: Column) -> list[tuple[str, str]]:
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
    """Return the non-empty parts as one text, the language's full stop after each that lacks
    one ("Kind. Empty: ...", "類型。留空：...")."""
    stop = pgettext("end of a sentence", ".")
    gap = " " if stop == "." else ""  # a full-width stop needs no space after it
    text = ""
    for part in filter(None, parts):
        if text:
            text += ("" if text.endswith((".", "。")) else stop) + gap
        text += part
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
    currencies = ", ".join(_currencies(user)) + aside(_("or any other ISO 4217 code"))
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
        shown = shown_value(field)
        if not column.required and shown is not None and column_kind(column) != "yes/no":
            meaning.append(_("Empty: %(value)s, as the form shows.") % {"value": shown})
        allowed = _("; ").join(
            _("empty: %(label)s") % {"label": label} if key == "" else f"{key}{aside(label)}"
            for key, label in choices_of(column)
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


def _csv(rows: Iterable[Sequence[str]]) -> bytes:
    """Return the rows as CSV, UTF-8 with a BOM (which makes Excel read UTF-8)."""
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def _guide_rows(user: AbstractBaseUser) -> list[list[str]]:
    return [[neutralise(line[k]) for k in GUIDE_HEADER] for line in column_guide(user)]


def template_csv() -> bytes:
    """Return the CSV template: the header row and one example row."""
    return _csv([COLUMN_KEYS, [c.example for c in COLUMNS]])


def guide_csv(*, user: AbstractBaseUser) -> bytes:
    """Return the CSV explaining each column of the template."""
    return _csv([GUIDE_HEADER, *_guide_rows(user)])


def template_xlsx(*, user: AbstractBaseUser) -> bytes:
    """Return the XLSX template: sheet "Offers" (header, example) and sheet "Columns"."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

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
        ws.column_dimensions[get_column_letter(i)].width = max(12, len(column.key) + 2)
    guide = wb.create_sheet("Columns")
    guide.append(list(GUIDE_HEADER))
    for cell in guide[1]:
        cell.font = Font(bold=True)
    for line in _guide_rows(user):
        guide.append(line)
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


# For the page: the column list with its meaning (the same text as the template's guide).
IMPORT_HELP = gettext_lazy(
    "One row per option, the header in row 1. Everything is checked first; then every row is "
    "added, or none is if any row is wrong."
)
