"""Vesting schedules: per-year weights, cliff and vest frequency."""

from __future__ import annotations

import calendar
import datetime
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

import numpy as np

from .dates import add_months
from .errors import EngineInputError, check_int, check_number

VALID_FREQUENCIES = (1, 3, 6, 12)
WEIGHT_TOLERANCE = 1e-6


@dataclass(frozen=True)
class VestingSchedule:
    """How a grant vests: per-year percentages, an optional cliff and a vest frequency.

    ``year_frequencies`` overrides ``frequency_months`` year by year (Amazon vests
    yearly in years 1-2 and every six months in years 3-4). ``vest_dates`` fixes the
    calendar days tranches vest on, as ``(month, day)`` pairs (Meta: 15 Feb/May/Aug/Nov),
    whatever the vesting start: see `vest_dates`.
    """

    total_months: int = 48
    cliff_months: int = 0
    frequency_months: int = 1
    year_weights: tuple[float, ...] = (25.0, 25.0, 25.0, 25.0)
    year_frequencies: tuple[int, ...] | None = None
    vest_dates: tuple[tuple[int, int], ...] | None = None

    def __post_init__(self) -> None:
        total = check_int("total_months", self.total_months, minimum=1, maximum=240)
        cliff = check_int("cliff_months", self.cliff_months, minimum=0)
        if cliff > total:
            raise EngineInputError(
                "cliff_months", f"must not exceed total_months {total} (got {cliff})"
            )
        frequency = _check_frequency("frequency_months", self.frequency_months)
        if isinstance(self.year_weights, str | bytes) or not hasattr(self.year_weights, "__iter__"):
            raise EngineInputError(
                "weights", f"must be a list of numbers (got {self.year_weights!r})"
            )
        weights = tuple(
            check_number(f"weights[{i}]", w, minimum=0.0) for i, w in enumerate(self.year_weights)
        )
        years = math.ceil(total / 12)
        if len(weights) != years:
            raise EngineInputError(
                "weights",
                f"needs one percentage per vesting year: {years} for {total} months "
                f"(got {len(weights)})",
            )
        if abs(sum(weights) - 100.0) > WEIGHT_TOLERANCE:
            raise EngineInputError("weights", f"must sum to 100 (got {sum(weights):g})")
        year_frequencies = None
        if self.year_frequencies is not None:
            year_frequencies = tuple(
                _check_frequency(f"year_frequencies[{i}]", f)
                for i, f in enumerate(self.year_frequencies)
            )
            if len(year_frequencies) != years:
                raise EngineInputError(
                    "year_frequencies",
                    f"needs one frequency per vesting year: {years} (got {len(year_frequencies)})",
                )
        calendar_dates = None
        if self.vest_dates is not None:
            calendar_dates = check_calendar_dates("vest_dates", self.vest_dates)
            frequencies = set(year_frequencies or (frequency,))
            if len(frequencies) != 1 or len(calendar_dates) * frequencies.pop() != 12:
                raise EngineInputError(
                    "vest_dates",
                    "needs one date per vest in a year: "
                    f"{12 // frequency} for a vest every {frequency} months "
                    f"(got {len(calendar_dates)})",
                )
        object.__setattr__(self, "total_months", total)
        object.__setattr__(self, "cliff_months", cliff)
        object.__setattr__(self, "frequency_months", frequency)
        object.__setattr__(self, "year_weights", weights)
        object.__setattr__(self, "year_frequencies", year_frequencies)
        object.__setattr__(self, "vest_dates", calendar_dates)

    @property
    def years(self) -> int:
        """Return the number of vesting years."""
        return len(self.year_weights)

    def frequency_in_year(self, year: int) -> int:
        """Return the vest frequency in months for 1-based ``year``."""
        if self.year_frequencies is not None:
            return self.year_frequencies[year - 1]
        return self.frequency_months

    @classmethod
    def preset(cls, name: str) -> VestingSchedule:
        """Return the named preset schedule."""
        try:
            return VESTING_PRESETS[name]
        except KeyError:
            known = ", ".join(sorted(VESTING_PRESETS))
            raise EngineInputError("preset", f"unknown preset {name!r} (known: {known})") from None


def _check_frequency(field: str, value: Any) -> int:
    frequency = check_int(field, value, minimum=1)
    if frequency not in VALID_FREQUENCIES:
        raise EngineInputError(field, f"must be one of 1, 3, 6, 12 (got {frequency})")
    return frequency


def check_calendar_dates(field: str, value: Any) -> tuple[tuple[int, int], ...]:
    """Return ``(month, day)`` pairs sorted through the year, or raise naming ``field``.

    A day must exist in its month in some year: 29 Feb is allowed (it falls on 28 Feb in
    other years), 31 Apr is not.
    """
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise EngineInputError(field, f"must be a list of (month, day) pairs (got {value!r})")
    pairs: list[tuple[int, int]] = []
    for i, item in enumerate(value):
        if isinstance(item, str | bytes) or not hasattr(item, "__iter__") or len(item) != 2:
            raise EngineInputError(f"{field}[{i}]", f"must be a (month, day) pair (got {item!r})")
        month = check_int(f"{field}[{i}].month", item[0], minimum=1, maximum=12)
        longest = calendar.monthrange(2024, month)[1]  # a leap year: 29 Feb exists
        day = check_int(f"{field}[{i}].day", item[1], minimum=1, maximum=longest)
        pairs.append((month, day))
    if not pairs:
        raise EngineInputError(field, "needs at least one (month, day) date")
    if len(set(pairs)) != len(pairs):
        raise EngineInputError(field, "lists a date twice")
    return tuple(sorted(pairs))


META_VEST_DATES = ((2, 15), (5, 15), (8, 15), (11, 15))

VESTING_PRESETS: dict[str, VestingSchedule] = {
    "even_4y_monthly": VestingSchedule(frequency_months=1),
    "even_4y_quarterly": VestingSchedule(frequency_months=3),
    "even_4y_semiannual": VestingSchedule(frequency_months=6),
    "even_4y_yearly": VestingSchedule(frequency_months=12),
    "even_4y_cliff_monthly": VestingSchedule(cliff_months=12, frequency_months=1),
    "even_4y_cliff_quarterly": VestingSchedule(cliff_months=12, frequency_months=3),
    "google_33_33_22_12": VestingSchedule(year_weights=(33, 33, 22, 12)),
    "google_25_monthly": VestingSchedule(frequency_months=1),
    "meta_quarterly": VestingSchedule(frequency_months=3, vest_dates=META_VEST_DATES),
    "amazon_5_15_40_40": VestingSchedule(
        frequency_months=6, year_weights=(5, 15, 40, 40), year_frequencies=(12, 12, 6, 6)
    ),
    "microsoft_cliff_quarterly": VestingSchedule(cliff_months=12, frequency_months=3),
    "snap_10_20_30_40": VestingSchedule(frequency_months=3, year_weights=(10, 20, 30, 40)),
    "nvidia_2025_40_30_20_10": VestingSchedule(frequency_months=3, year_weights=(40, 30, 20, 10)),
    "nvidia_cliff_quarterly": VestingSchedule(cliff_months=12, frequency_months=3),
    "bytedance_20_25_25_30": VestingSchedule(
        cliff_months=12, frequency_months=3, year_weights=(20, 25, 25, 30)
    ),
    "apple_semiannual": VestingSchedule(frequency_months=6),
    "apple_cliff_quarterly": VestingSchedule(cliff_months=12, frequency_months=3),
}


@functools.lru_cache(maxsize=1024)
def _fractions_cached(schedule: VestingSchedule) -> np.ndarray:
    total = schedule.total_months
    month = np.arange(1, total + 1)
    year = (month - 1) // 12 + 1
    frequency = np.array([schedule.frequency_in_year(y) for y in range(1, schedule.years + 1)])
    is_vest = ((month - 12 * (year - 1)) % frequency[year - 1] == 0) | (month == total)
    events_per_year = np.bincount(year[is_vest], minlength=schedule.years + 1)[1:]
    weights = np.asarray(schedule.year_weights, dtype=np.float64)
    weights = weights / weights.sum()
    per_event = weights / np.maximum(events_per_year, 1)
    fractions = np.where(is_vest, per_event[year - 1], 0.0)
    cliff = schedule.cliff_months
    if cliff > 0:
        fractions[cliff - 1] += fractions[: cliff - 1].sum()
        fractions[: cliff - 1] = 0.0
    fractions.flags.writeable = False
    return fractions


def vesting_fractions(schedule: VestingSchedule) -> np.ndarray:
    """Return the fraction of a grant vesting at the end of each month after vest start.

    Month n is the schedule's nominal month; `vest_dates` gives each tranche's real date.
    """
    return _fractions_cached(schedule).copy()


def calendar_dates_from(
    first: datetime.date, dates: tuple[tuple[int, int], ...], count: int
) -> list[datetime.date]:
    """Return the first ``count`` calendar dates on or after ``first`` (days clamped to month end)."""
    out: list[datetime.date] = []
    year = first.year
    while len(out) < count:
        for month, day in dates:
            real = datetime.date(year, month, min(day, calendar.monthrange(year, month)[1]))
            if real >= first and len(out) < count:
                out.append(real)
        year += 1
    return out


@functools.lru_cache(maxsize=4096)
def tranche_dates(
    schedule: VestingSchedule, vest_start: datetime.date
) -> tuple[tuple[datetime.date, float], ...]:
    """Return each tranche's real vest date and the fraction of the grant it vests.

    Tranche n of a month-based schedule vests on ``vest_start`` plus its n months, the day
    clamped to the month's end from the start each time (31 Jan + 1 month = 28 or 29 Feb,
    + 2 months = 31 Mar; 29 Feb 2024 + 12 months = 28 Feb 2025). With calendar ``vest_dates``
    the k-th tranche vests on the k-th such date strictly after the vesting start, or on
    or after the cliff date when there is a cliff (its first tranche holds the cliff's).
    Remembered: the tuple is immutable, so every caller may share it.
    """
    fractions = _fractions_cached(schedule)
    months = [int(n) + 1 for n in np.flatnonzero(fractions)]
    if schedule.vest_dates is None:
        days = [add_months(vest_start, n) for n in months]
    else:
        first = (
            add_months(vest_start, schedule.cliff_months)
            if schedule.cliff_months
            else vest_start + datetime.timedelta(days=1)
        )
        days = calendar_dates_from(first, schedule.vest_dates, len(months))
    return tuple((day, float(fractions[n - 1])) for day, n in zip(days, months, strict=True))


def describe_schedule(schedule: VestingSchedule) -> str:
    """Return a one-line human description of ``schedule``."""
    weights = "/".join(f"{w:g}" for w in schedule.year_weights)
    words = {1: "monthly", 3: "quarterly", 6: "every 6 months", 12: "yearly"}
    if schedule.year_frequencies is None or len(set(schedule.year_frequencies)) == 1:
        cadence = words[schedule.frequency_in_year(1)]
    else:
        parts: list[str] = []
        start = 1
        for frequency, run in groupby(schedule.year_frequencies):
            end = start + len(list(run)) - 1
            span = f"year {start}" if end == start else f"years {start}-{end}"
            parts.append(f"{words[frequency]} in {span}")
            start = end + 1
        cadence = ", ".join(parts)
    months = schedule.total_months
    length = f"{months // 12} years" if months % 12 == 0 else f"{months} months"
    cliff = f", {schedule.cliff_months}-month cliff" if schedule.cliff_months else ", no cliff"
    on = ""
    if schedule.vest_dates is not None:
        days = {day for _, day in schedule.vest_dates}
        if len(days) == 1:
            names = "/".join(calendar.month_abbr[month] for month, _ in schedule.vest_dates)
            on = f" on {names} {days.pop()}"
        else:
            on = " on " + ", ".join(
                f"{calendar.month_abbr[month]} {day}" for month, day in schedule.vest_dates
            )
    return f"{length}: {weights}% per year, vesting {cadence}{on}{cliff}"


# The keys schedule_from_dict reads.
SCHEDULE_KEYS = frozenset(
    {
        "weights",
        "cliff_months",
        "frequency_months",
        "total_months",
        "year_frequencies",
        "vest_dates",
        "preset",
    }
)


def schedule_from_dict(d: Mapping[str, Any]) -> VestingSchedule:
    """Build a schedule from JSON-style keys (``weights``, ``cliff_months``, ``preset``...)."""
    if not isinstance(d, Mapping):
        raise EngineInputError("schedule", f"must be an object (got {d!r})")
    base = VestingSchedule()
    if d.get("preset") is not None:
        preset = d["preset"]
        if not isinstance(preset, str):
            raise EngineInputError("preset", f"must be a string (got {preset!r})")
        base = VestingSchedule.preset(preset)
    changes: dict[str, Any] = {}
    if d.get("weights") is not None:
        weights = d["weights"]
        if not isinstance(weights, list | tuple):
            raise EngineInputError("weights", f"must be a list of percentages (got {weights!r})")
        changes["year_weights"] = tuple(weights)
        if d.get("total_months") is None:
            changes["total_months"] = 12 * len(weights) if weights else 12
        if d.get("year_frequencies") is None and base.year_frequencies is not None:
            changes["year_frequencies"] = None
    for key in ("cliff_months", "frequency_months", "total_months"):
        if d.get(key) is not None:
            changes[key] = d[key]
    if d.get("year_frequencies") is not None:
        frequencies = d["year_frequencies"]
        if not isinstance(frequencies, list | tuple):
            raise EngineInputError("year_frequencies", f"must be a list (got {frequencies!r})")
        changes["year_frequencies"] = tuple(frequencies)
    elif "frequency_months" in changes and "year_frequencies" not in changes:
        changes["year_frequencies"] = None
    if "vest_dates" in d:
        dates = d["vest_dates"]
        changes["vest_dates"] = (
            None
            if dates is None or dates == []
            else tuple(tuple(pair) if isinstance(pair, list | tuple) else pair for pair in dates)
        )
    elif ("frequency_months" in changes or "year_frequencies" in changes) and base.vest_dates:
        # A preset's calendar dates fit its own cadence only.
        changes["vest_dates"] = None
    return replace(base, **changes)
