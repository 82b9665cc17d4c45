"""The one check of a time zone name: the forms and the restore both use it.

A zone is an IANA name that this machine's zone database loads (``Asia/Taipei``, ``UTC``): not
a made-up place (``Mars/Olympus``), not a path (``../zoneinfo/UTC``), not a folder (``Asia``).
What a form saves, a backup of it restores.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.widgets import TimezoneInput

# The models' text fields that hold a time zone name (blank where the model allows it).
TIME_ZONE_FIELDS = frozenset({"work_timezone", "home_timezone", "timezone", "time_zone"})
ZONE_MESSAGE = _("“%(tz)s” is not a known time zone; use an IANA name such as Asia/Taipei.")


def known_zone(name: str) -> bool:
    """Return True if ``name`` is an IANA time zone name the zone database loads."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a folder
        return False
    return True


class TimeZoneField(forms.CharField):
    """An IANA time zone name, with the zones as suggestions (every form's: checked_formfield);
    a non-empty value that is no known zone is refused, naming it."""

    widget = TimezoneInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 64)
        super().__init__(**kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value and not known_zone(value):
            raise ValidationError(ZONE_MESSAGE, code="time_zone", params={"tz": value[:64]})
