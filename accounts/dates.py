"""The one range of dates the app takes: forms, spreadsheet imports and restores all use it.

What a form accepts is what a backup of it restores. The range is far either way of any real
offer, deadline or vesting start, and near enough that a date moved into another time zone, or
a ten-year schedule running past it, stays within what Python, pandas and the database hold.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

DATE_MIN = dt.date(1900, 1, 1)
DATE_MAX = dt.date(2200, 12, 31)


def date_refusal(value: dt.date) -> str:
    """Return why ``value`` is outside the range (a datetime: its own date), or "" if it is in it."""
    day = value.date() if isinstance(value, dt.datetime) else value
    if DATE_MIN <= day <= DATE_MAX:
        return ""
    return _("%(v)s is outside the years %(a)s to %(b)s") % {
        "v": value.isoformat(),
        "a": DATE_MIN.year,
        "b": DATE_MAX.year,
    }


class RangedDateField(forms.DateField):
    """A date within DATE_MIN..DATE_MAX (every form's date: see checked_formfield), refused
    outside it with the message the restore gives."""

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is not None and (refusal := date_refusal(value)):
            raise ValidationError(refusal, code="date_range")
