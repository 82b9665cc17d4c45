"""Working-hours overlap between an office time zone and a home time zone, DST-aware.

All arithmetic is done on real instants (aware datetimes converted to UTC), so windows that
cross midnight in either zone and days with a DST change come out right. A window whose
start equals its end means the whole 24 hours; a window whose end is before its start runs
past midnight into the next local day. Local times that do not exist or occur twice on a
DST-change day are resolved the way ``zoneinfo`` does with ``fold=0`` (the earlier offset).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd

from offers.logic.errors import LogicInputError
from offers.logic.i18n import gettext, gettext_noop

Window = tuple[time, time]
Interval = tuple[datetime, datetime]

DEFAULT_OFFICE_WINDOW: Window = (time(9), time(17))
DEFAULT_HOME_WINDOW: Window = (time(8), time(23))

# Each kind of hour of a strip, with what it means (message ids: the legend and each hour's
# tooltip say it in the reader's language).
STRIP_LABELS = {
    "overlap": gettext_noop("team working, you available"),
    "office_only_night": gettext_noop("team working, outside your hours"),
    "home_free": gettext_noop("your hours, team offline"),
    "family": gettext_noop("family time"),
    "night": gettext_noop("night"),
}
WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True)
class OverlapSummary:
    """Yearly summary of the daily office/home overlap."""

    average_hours: float
    worst_hours: float
    min_offset: float
    max_offset: float

    @property
    def clock_gap(self) -> tuple[float, float]:
        """Return the smallest and largest gap between the two clocks over the year, in hours."""
        low, high = sorted((abs(self.min_offset), abs(self.max_offset)))
        if self.min_offset < 0 < self.max_offset:
            low = 0.0  # the clocks cross over during the year
        return low, high


def zone(name: str, field: str = "tz") -> ZoneInfo:
    """Return the ZoneInfo for an IANA name or raise LogicInputError naming the field."""
    if not isinstance(name, str) or not name.strip():
        raise LogicInputError(field, "time zone name is empty; use an IANA name like 'Asia/Taipei'")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise LogicInputError(
            field, f"unknown time zone {name!r}; use an IANA name like 'Asia/Taipei'"
        ) from exc


def _zones(
    office_tz: str, home_tz: str, office: Window, home: Window, family: Window | None
) -> tuple[ZoneInfo, ZoneInfo]:
    """Return the office and home zones after checking them and the windows (each a pair of
    naive times; no family window: None)."""
    zones = zone(office_tz, "office_tz"), zone(home_tz, "home_tz")
    windows = {"office_window": office, "home_window": home}
    if family is not None:
        windows["family_window"] = family
    for field, window in windows.items():
        if (
            not isinstance(window, tuple)
            or len(window) != 2
            or not all(isinstance(t, time) and t.tzinfo is None for t in window)
        ):
            raise LogicInputError(field, "window must be a pair of naive datetime.time values")
    return zones


def _local_interval(day: date, window: Window, tz: tzinfo) -> Interval:
    """Return the UTC interval of a local window starting on a local day."""
    start_t, end_t = window
    start = datetime.combine(day, start_t, tzinfo=tz)
    end_day = day if end_t > start_t else day + timedelta(days=1)
    end = datetime.combine(end_day, end_t, tzinfo=tz)
    return start.astimezone(UTC), end.astimezone(UTC)


def _merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Return the union of intervals as sorted, disjoint intervals."""
    merged: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _intersect(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """Return the intersection of two interval unions."""
    return _merge(
        (max(a0, b0), min(a1, b1)) for a0, a1 in a for b0, b1 in b if min(a1, b1) > max(a0, b0)
    )


def _subtract(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """Return the parts of interval union a not covered by union b."""
    result: list[Interval] = []
    for start, end in _merge(a):
        pieces = [(start, end)]
        for b0, b1 in _merge(b):
            next_pieces: list[Interval] = []
            for p0, p1 in pieces:
                if b1 <= p0 or b0 >= p1:
                    next_pieces.append((p0, p1))
                    continue
                if b0 > p0:
                    next_pieces.append((p0, b0))
                if b1 < p1:
                    next_pieces.append((b1, p1))
            pieces = next_pieces
        result.extend(pieces)
    return _merge(result)


def _hours(intervals: list[Interval]) -> float:
    """Return the total length of disjoint intervals in hours."""
    return sum((end - start).total_seconds() for start, end in intervals) / 3600.0


def _daily_windows(first: date, last: date, window: Window, tz: tzinfo) -> list[Interval]:
    """Return the UTC intervals of a local window repeated every day from first to last."""
    days = (last - first).days
    return _merge(_local_interval(first + timedelta(days=n), window, tz) for n in range(days + 1))


def _available(
    around: Interval, home: tzinfo, home_window: Window, family_window: Window | None
) -> list[Interval]:
    """Return the home working intervals (home window minus family window) near an interval."""
    first = around[0].astimezone(home).date() - timedelta(days=1)
    last = around[1].astimezone(home).date() + timedelta(days=1)
    available = _daily_windows(first, last, home_window, home)
    if family_window is not None:
        available = _subtract(available, _daily_windows(first, last, family_window, home))
    return available


def _offset_hours(instant: datetime, office: tzinfo, home: tzinfo) -> float:
    """Return home UTC offset minus office UTC offset at an instant, in hours."""
    home_offset = instant.astimezone(home).utcoffset() or timedelta(0)
    office_offset = instant.astimezone(office).utcoffset() or timedelta(0)
    return (home_offset - office_offset).total_seconds() / 3600.0


def overlap_by_day(
    office_tz: str,
    home_tz: str,
    year: int,
    office_window: Window = DEFAULT_OFFICE_WINDOW,
    home_window: Window = DEFAULT_HOME_WINDOW,
    family_window: Window | None = None,
    weekdays_only: bool = True,
) -> pd.DataFrame:
    """Return one row per office workday of the year with the offset and hours of overlap."""
    office, home = _zones(office_tz, home_tz, office_window, home_window, family_window)
    if not isinstance(year, int) or not 1900 <= year <= 2200:
        raise LogicInputError("year", f"year must be between 1900 and 2200, got {year!r}")

    rows: list[dict[str, object]] = []
    # A day's figures depend only on both zones' offsets around it: a day whose offsets at UTC
    # noon, three days either side, are another's is that day moved by whole days (its hours
    # the same, its instants shifted). Between DST changes, one day is worked out, not 261.
    first = date(year, 1, 1)
    noons = [(datetime.combine(first + timedelta(days=n), time(12), UTC)) for n in range(-3, 370)]
    offsets = [(t.astimezone(office).utcoffset(), t.astimezone(home).utcoffset()) for t in noons]
    worked: dict[tuple[object, ...], tuple[date, dict[str, object]]] = {}
    day = first
    while day.year == year:
        if not weekdays_only or day.weekday() < 5:
            n = (day - first).days
            seen = worked.get(key := tuple(offsets[n : n + 7]))
            if seen is None:
                office_day = _local_interval(day, office_window, office)
                available = _available(office_day, home, home_window, family_window)
                row: dict[str, object] = {
                    "offset_hours": _offset_hours(office_day[0], office, home),
                    "office_start_home": office_day[0].astimezone(home),
                    "office_end_home": office_day[1].astimezone(home),
                    "overlap_hours": _hours(_intersect([office_day], available)),
                }
                worked[key] = seen = (day, row)
            shift = day - seen[0]
            row = {
                "date": day,
                "weekday": WEEKDAY_NAMES[day.weekday()],
                **seen[1],
                "office_start_home": seen[1]["office_start_home"] + shift,  # type: ignore[operator]
                "office_end_home": seen[1]["office_end_home"] + shift,  # type: ignore[operator]
            }
            rows.append(row)
        day += timedelta(days=1)
    return pd.DataFrame(rows)  # a year always has workdays: the columns are the rows' keys


def overlap_summary(
    office_tz: str,
    home_tz: str,
    year: int,
    office_window: Window = DEFAULT_OFFICE_WINDOW,
    home_window: Window = DEFAULT_HOME_WINDOW,
    family_window: Window | None = None,
) -> OverlapSummary:
    """Return the average and worst daily workday overlap and the offset range over a year."""
    frame = overlap_by_day(office_tz, home_tz, year, office_window, home_window, family_window)
    return OverlapSummary(
        average_hours=float(frame["overlap_hours"].mean()),
        worst_hours=float(frame["overlap_hours"].min()),
        min_offset=float(frame["offset_hours"].min()),
        max_offset=float(frame["offset_hours"].max()),
    )


def _contains(intervals: list[Interval], instant: datetime) -> bool:
    """Return whether an instant falls inside any of the intervals."""
    return any(start <= instant < end for start, end in intervals)


def hour_strip(
    office_tz: str,
    home_tz: str,
    day: date,
    office_window: Window = DEFAULT_OFFICE_WINDOW,
    home_window: Window = DEFAULT_HOME_WINDOW,
    family_window: Window | None = None,
    weekdays_only: bool = False,
) -> list[dict[str, str | int]]:
    """Return 24 entries, one per home hour of the home-local day, for a 24-hour strip chart.

    Each hour is classified at its midpoint: 'family' inside the family window, else
    'overlap' when the office is working inside the home window, 'office_only_night' when the
    office is working outside it, 'home_free' inside the home window with the office closed,
    and 'night' otherwise. By default every office day counts as a workday, which shows a
    typical day; with ``weekdays_only`` office weekends are closed.
    """
    office, home = _zones(office_tz, home_tz, office_window, home_window, family_window)
    day_start = datetime.combine(day, time(0), tzinfo=home).astimezone(UTC)
    first_office_day = day_start.astimezone(office).date() - timedelta(days=2)
    office_days = [first_office_day + timedelta(days=n) for n in range(5)]
    office_open = _merge(
        _local_interval(d, office_window, office)
        for d in office_days
        if not weekdays_only or d.weekday() < 5
    )
    before, after = day - timedelta(days=1), day + timedelta(days=1)
    home_open = _daily_windows(before, after, home_window, home)
    family = _daily_windows(before, after, family_window, home) if family_window else []

    strip: list[dict[str, str | int]] = []
    for hour in range(24):
        start = datetime.combine(day, time(hour), tzinfo=home).astimezone(UTC)
        middle = start + timedelta(minutes=30)
        in_office = _contains(office_open, middle)
        if _contains(family, middle):
            category = "family"
        elif in_office and _contains(home_open, middle):
            category = "overlap"
        elif in_office:
            category = "office_only_night"
        elif _contains(home_open, middle):
            category = "home_free"
        else:
            category = "night"
        office_local = start.astimezone(office)
        strip.append(
            {
                "home_hour": hour,
                "home_time": f"{hour:02d}:00",
                "office_hour": office_local.hour,
                "office_time": office_local.strftime("%H:%M"),
                "office_weekday": WEEKDAY_NAMES[office_local.weekday()],
                "category": category,
                "label": gettext(STRIP_LABELS[category]),
            }
        )
    return strip


# The places a draft names most often, as message ids: a zone's place is said in the
# language of the message ("Taipei", 「臺北」); any other place keeps its IANA spelling.
PLACE_NAMES = (
    gettext_noop("Taipei"),
    gettext_noop("Singapore"),
    gettext_noop("Shanghai"),
    gettext_noop("Hong Kong"),
    gettext_noop("Tokyo"),
    gettext_noop("Seoul"),
    gettext_noop("Los Angeles"),
    gettext_noop("New York"),
    gettext_noop("Chicago"),
    gettext_noop("London"),
)


def zone_place(name: str) -> str:
    """Return the place an IANA zone is named after ('America/New_York': 'New York')."""
    place = name.rsplit("/", 1)[-1].replace("_", " ")
    return gettext(place) if place in PLACE_NAMES else place


def utc_offset_words(name: str, day: date) -> str:
    """Return the zone's UTC offset at noon on the day, as 'UTC+8', 'UTC-4' or 'UTC+5:30'."""
    offset = datetime.combine(day, time(12), tzinfo=zone(name)).utcoffset() or timedelta()
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def place_and_zone(name: str, day: date) -> str:
    """Return a zone as a message names it on the day: 'Taipei (UTC+8)', 'New York (UTC-4)'."""
    return gettext("{place} ({offset})").format(
        place=zone_place(name), offset=utc_offset_words(name, day)
    )
