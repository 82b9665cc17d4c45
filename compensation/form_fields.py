"""Form fields every form shares: ISO 4217 codes, plain-digit numbers, bounded text, dates, zones.

A ModelForm takes them all with one line in its Meta: ``formfield_callback = checked_formfield``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.dates import RangedDateField
from accounts.zones import TIME_ZONE_FIELDS, TimeZoneField
from compensation.engine.currencies import is_currency
from compensation.models import currency_validator

# Free text (notes, feedback, scope): room for pages of notes, not for a pasted file.
TEXT_MAX_LENGTH = 10_000
# The largest amount a form takes: far above any pay, far below what overflows a column.
MAX_AMOUNT = Decimal("1000000000")

CURRENCY_MESSAGE = _("%(code)s is not an ISO 4217 currency code; use one such as USD, SGD, TWD.")
NUMBER_MESSAGES = {
    "invalid": _("Enter a number in digits, e.g. 120,000."),
    "digits": _("Use digits 0-9, e.g. 120,000."),
    "exponent": _("Write the number out in full, without an exponent: 1,500,000, not 1.5e6."),
    "grouping": _("Put commas only between groups of three digits, e.g. 1,200,000.50."),
}
PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
GROUPED = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?")
EXPONENT = re.compile(r"[+-]?[\d.,]*\d[\d.,]*[eE][+-]?\d+")


def validate_currency(value: str) -> None:
    """Refuse a code that is not in ISO 4217, naming it."""
    if value and not is_currency(value):
        raise ValidationError(CURRENCY_MESSAGE, code="currency", params={"code": value[:12]})


class CurrencyField(forms.CharField):
    """An ISO 4217 code, typed in any case ("usd" is USD)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 3)
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("autocapitalize", "characters")

    def to_python(self, value: Any) -> str | None:
        value = super().to_python(value)
        return value.upper() if value else value

    def validate(self, value: Any) -> None:
        # Before the length check: "dollars" is told what a code is, not that it is too long.
        super().validate(value)
        validate_currency(value)


def parse_number(text: str) -> Decimal:
    """Return the number in ``text``: ASCII digits, commas between thousands, a decimal point.

    Raise a ValidationError saying what to type instead: for underscores and other digits
    (full-width, Arabic-Indic), an exponent, misplaced commas or anything else.
    """
    raw = text.strip()
    if "_" in raw or not raw.isascii():
        raise ValidationError(NUMBER_MESSAGES["digits"], code="digits")
    if EXPONENT.fullmatch(raw):
        raise ValidationError(NUMBER_MESSAGES["exponent"], code="exponent")
    if "," in raw and not GROUPED.fullmatch(raw):
        raise ValidationError(NUMBER_MESSAGES["grouping"], code="grouping")
    plain = raw.replace(",", "")
    if not PLAIN.fullmatch(plain):
        raise ValidationError(NUMBER_MESSAGES["invalid"], code="invalid")
    try:
        return Decimal(plain)
    except InvalidOperation:  # the patterns above let only plain decimals through
        raise ValidationError(NUMBER_MESSAGES["invalid"], code="invalid") from None


def plain_figure(value: Decimal) -> str:
    """Return a bound as people write it: 1,000,000,000 and 0.00000001, never 1E+9 or 1E-8."""
    return f"{value.normalize():,f}" if value == value.to_integral_value() else f"{value:,f}"


class NumberField(forms.DecimalField):
    """A number typed in plain digits (120,000 or 31.5), between two bounds it states plainly."""

    widget = forms.TextInput(attrs={"inputmode": "decimal"})
    default_error_messages = {
        **NUMBER_MESSAGES,
        "max_value": _("Must be at most %(limit)s."),
        "min_value": _("Must be at least %(limit)s."),
    }

    def __init__(
        self,
        *,
        min_value: Decimal | int | str | None = None,
        max_value: Decimal | int | str | None = MAX_AMOUNT,
        decimal_places: int | None = 2,
        **kwargs: Any,
    ) -> None:
        kwargs.pop("max_digits", None)  # the bounds say it, in figures
        super().__init__(decimal_places=decimal_places, **kwargs)
        # Checked in validate(), before the decimal places, so that 1e15 gets one clear message.
        self.min_value = None if min_value is None else Decimal(min_value)
        self.max_value = None if max_value is None else Decimal(max_value)

    def to_python(self, value: Any) -> Decimal | None:
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal | int):
            return Decimal(value)
        return parse_number(str(value))

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is None:
            return
        if self.max_value is not None and value > self.max_value:
            raise ValidationError(
                self.error_messages["max_value"],
                code="max_value",
                params={"limit": plain_figure(self.max_value)},
            )
        if self.min_value is not None and value < self.min_value:
            raise ValidationError(
                self.error_messages["min_value"],
                code="min_value",
                params={"limit": plain_figure(self.min_value)},
            )


def _bounds(field: models.DecimalField) -> tuple[Decimal | None, Decimal]:
    """Return the lowest and highest value the model field takes, within MAX_AMOUNT."""
    low = [Decimal(v.limit_value) for v in field.validators if isinstance(v, MinValueValidator)]
    high = [Decimal(v.limit_value) for v in field.validators if isinstance(v, MaxValueValidator)]
    step = Decimal(1).scaleb(-field.decimal_places)
    widest = Decimal(10) ** (field.max_digits - field.decimal_places) - step
    return (max(low) if low else None), min([*high, widest, MAX_AMOUNT])


def checked_formfield(field: models.Field, **kwargs: Any) -> forms.Field | None:
    """Return a model field's form field with the checks every form shares.

    A ModelForm's ``Meta.formfield_callback``: currencies in ISO 4217, numbers in plain digits
    within the model's bounds (and MAX_AMOUNT), free text of at most TEXT_MAX_LENGTH characters,
    dates within the range a restore takes (``accounts.dates``), time zones the restore takes
    (``accounts.zones``).
    """
    if "form_class" in kwargs or field.choices:
        return field.formfield(**kwargs)
    if isinstance(field, models.DecimalField):
        low, high = _bounds(field)
        return field.formfield(form_class=NumberField, min_value=low, max_value=high, **kwargs)
    if isinstance(field, models.CharField) and currency_validator in field.validators:
        return field.formfield(form_class=CurrencyField, **kwargs)
    if isinstance(field, models.CharField) and field.name in TIME_ZONE_FIELDS:
        return field.formfield(form_class=TimeZoneField, **kwargs)
    if isinstance(field, models.DateField) and not isinstance(field, models.DateTimeField):
        return field.formfield(form_class=RangedDateField, **kwargs)
    if isinstance(field, models.TextField) and field.max_length is None:
        return field.formfield(max_length=TEXT_MAX_LENGTH, **kwargs)
    return field.formfield(**kwargs)


class KeepsOmitted(forms.ModelForm):  # type: ignore[type-arg]
    """A post that leaves out a field with a model default keeps what is saved (or the default).

    A page opened before the field was added, and an API-like post, send nothing for it; a tick
    box is never left out (unticked sends nothing) and a value sent empty is still required.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = {f.name for f in self._meta.model._meta.fields if f.has_default()}
        self.omitted = [
            name
            for name, field in self.fields.items()
            if self.is_bound
            and name in names
            and field.widget.value_omitted_from_data(self.data, self.files, self.add_prefix(name))
        ]
        for name in self.omitted:
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in self.omitted:
            data[name] = getattr(self.instance, name)
        return data
