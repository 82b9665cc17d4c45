"""Spreadsheet import of options: the row-by-row check and the all-or-nothing write.

One row is one option, bound to the same ``OfferForm`` as the "Add an offer" page and
written by ``offers.services.offer_create`` (which writes the package through compensation's
package service), so an imported option is exactly one the form could have added, valued the
same. The columns (`offers.import_columns`) are the form's fields, named, explained and checked
by the form; the import only matches names (a company, a level's code, a tax location, a
choice's label) and reads yes/no for a tick box. Errors name the spreadsheet row (the header is
row 1) and the column, all of a row's at once: "Row 4, column base_salary: “abc” is not a number".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from compensation.models import Company, Level, LocationPreset
from compensation.selectors import companies_by_name, levels_by_code, locations_by_name
from offers.forms import PACKAGE_FORM_NAMES, OfferForm
from offers.import_columns import (
    COLUMN_KEYS,
    COLUMNS,
    OLD_HEADERS,
    STATED,
    Column,
    choices_of,
    shown_value,
)
from offers.import_files import MAX_LINES, MAX_ROWS, OfferImportError, file_rows
from offers.models import Offer
from offers.services import offer_create

MAX_ERRORS = 30
TRUE_WORDS = {"yes", "y", "true", "1", "x"}
FALSE_WORDS = {"no", "n", "false", "0", ""}


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
        choices = {c.field: _choice_words(c) for c in COLUMNS if choices_of(c)}
        return cls(companies, levels, locations, names, choices)


def _choice_words(column: Column) -> dict[str, str]:
    """Return the words a choice cell may hold (a key, or a label) and the key each means."""
    with translation.override("en"):
        english = choices_of(column)
    words: dict[str, str] = {}
    for key, label in [*english, *choices_of(column)]:
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
            shown = None if column.field in STATED else shown_value(field)
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
        keys = ", ".join(key for key, _label in choices_of(column) if key)
        return _("%(v)s is not one of: %(allowed)s") % {"v": _quote(text), "allowed": keys}
    if error.code == "invalid" and isinstance(field, forms.DecimalField):
        return _("%(v)s is not a number") % {"v": _quote(text)}
    if error.code == "invalid" and isinstance(field, forms.DateField):
        return _("%(v)s is not a date like 2027-03-01") % {"v": _quote(text)}
    return " ".join(error.messages)


def _header(cells: list[str]) -> dict[int, str]:
    """Return the header's column names by position; refuse an unknown, repeated or missing one."""
    names = [OLD_HEADERS.get(n, n) for n in (c.strip().casefold() for c in cells)]
    unknown = [_quote(n) for n in names if n and n not in COLUMN_KEYS][:5]
    repeated = sorted({n for n in names if n and names.count(n) > 1})
    missing = [c.key for c in COLUMNS if c.required and c.key not in names]
    for message, columns in (
        (_("Row 1: unknown columns %(cols)s; use the template's header row"), unknown),
        (_("Row 1: columns given twice: %(cols)s"), repeated),
        (_("Row 1: missing columns: %(cols)s"), missing),
    ):
        if columns:
            raise OfferImportError([message % {"cols": ", ".join(columns)}])
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


def _filled(rows: Iterable[tuple[int, list[str]]]) -> Iterator[tuple[int, list[str]]]:
    """Yield the rows that hold a cell; refuse a file past `MAX_LINES` lines, blank ones
    included, or with more than `MAX_ROWS` rows under its header."""
    count = 0
    for number, cells in rows:
        if number > MAX_LINES:
            raise OfferImportError(
                [_("file: more than %(n)s lines, blank ones included; split it") % {"n": MAX_LINES}]
            )
        if any(cells):
            count += 1
            if count > MAX_ROWS + 1:  # the header, then the rows
                raise OfferImportError(
                    [_("file: more than %(n)s rows; split it") % {"n": MAX_ROWS}]
                )
            yield number, cells


def _name_refused(name: str, number: int, names: dict[str, int], taken: set[str]) -> str:
    """Return why a row's (case-folded) name is refused, or "" (the row ``number`` then has it).

    ``names`` holds the names of the rows above; ``taken``, the user's options' names.
    """
    if name in names:
        return _("row %(n)s already has this name") % {"n": names[name]}
    if name and name in taken:
        return _("you already have an option with this name")
    names[name] = number
    return ""


def rows_check(
    *, user: AbstractBaseUser, rows: Iterable[tuple[int, list[str]]]
) -> list[tuple[int, OfferForm]]:
    """Return each row's number and its valid form; raise OfferImportError naming each bad cell."""
    lookups = _Lookups.load(user)
    errors = _Errors()
    filled = _filled(rows)
    first = next(filled, None)
    if first is None:
        raise OfferImportError([_("file: no header row; start from the template")])
    header = _header(first[1])
    checked: list[tuple[int, OfferForm]] = []
    seen: dict[tuple[str, ...], int] = {}
    names: dict[str, int] = {}
    for number, cells in filled:
        if any(c for i, c in enumerate(cells) if i not in header):
            errors.add(number, "", _("values beyond the last named column"))
        values = {header[i]: c for i, c in enumerate(cells) if i in header}
        key = tuple(values.get(k, "").casefold() for k in COLUMN_KEYS)
        if key in seen:
            errors.add(number, "", _("repeats row %(n)s") % {"n": seen[key]})
            continue
        seen[key] = number
        # A name already taken refuses the row; its other cells are still checked, so that
        # all of a row's errors are said at once.
        refused = _name_refused(values.get("name", "").casefold(), number, names, lookups.names)
        if refused:
            errors.add(number, "name", refused)
        data, problems = _row_data(values, lookups)
        form = OfferForm(data=data, user=user)
        if not form.is_valid() or problems:
            _row_errors(errors, number, values, problems, form)
        elif not refused:
            checked.append((number, form))
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
            for number, form in rows:
                try:
                    with transaction.atomic():
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
                            errors.add(number, _column_of(field), message)
            if errors:
                raise _Rollback
    except _Rollback:
        raise OfferImportError(list(errors)) from None
    return created
