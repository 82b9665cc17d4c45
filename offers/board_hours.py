"""An option's working hours against the user's: the year's overlap and the 24-hour strips.

The office keeps 9 to 5 in the option's work time zone; the user works the hours of the day
they set, home time, less any hours kept free for family.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

from offers.logic.timezones import OverlapSummary, Window, hour_strip, overlap_summary
from offers.models import Offer, Preferences


class Valued(Protocol):
    """An option with its year's overlap (`offers.board.Evaluation`)."""

    offer: Offer
    overlap: OverlapSummary | None


OFFICE_WINDOW = (dt.time(9, 0), dt.time(17, 0))


def home_window(prefs: Preferences) -> Window:
    """Return the hours of the day the user is willing to work, home time."""
    return (prefs.day_start, prefs.day_end)


def family_window(prefs: Preferences) -> Window | None:
    """Return the hours kept free for family, home time, if any."""
    if prefs.family_start and prefs.family_end and prefs.family_start != prefs.family_end:
        return (prefs.family_start, prefs.family_end)
    return None


@lru_cache(maxsize=512)
def _overlap(
    office_tz: str, home_tz: str, year: int, home: Window, family: Window | None
) -> OverlapSummary:
    return overlap_summary(office_tz, home_tz, year, OFFICE_WINDOW, home, family)


def overlap_of(offer: Offer, prefs: Preferences, year: int) -> OverlapSummary | None:
    """Return the year's overlap of the option's office hours with the user's (None: a zone
    that cannot be read)."""
    try:
        return _overlap(
            offer.work_timezone, prefs.home_timezone, year, home_window(prefs), family_window(prefs)
        )
    except ValueError:
        return None


def tz_strip(offer: Offer, prefs: Preferences, day: dt.date) -> list[dict[str, Any]]:
    """Return the 24-hour strip of one option in the user's home time."""
    try:
        return hour_strip(
            offer.work_timezone,
            prefs.home_timezone,
            day,
            OFFICE_WINDOW,
            home_window(prefs),
            family_window(prefs),
        )
    except ValueError:
        return []


def tz_strips_by_zone(
    evs: Sequence[Valued], prefs: Preferences, day: dt.date
) -> list[dict[str, Any]]:
    """Return one 24-hour strip per distinct work time zone, with the options that use it."""
    zones: dict[str, dict[str, Any]] = {}
    for ev in evs:
        tz = ev.offer.work_timezone
        if tz not in zones:
            zones[tz] = {
                "zone": tz,
                "overlap": ev.overlap,
                "strip": tz_strip(ev.offer, prefs, day),
                "offers": [],
            }
        zones[tz]["offers"].append(ev.offer)
    return list(zones.values())
