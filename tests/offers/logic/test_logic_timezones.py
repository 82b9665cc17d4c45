from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offers.logic.errors import LogicInputError
from offers.logic.timezones import (
    STRIP_LABELS,
    hour_strip,
    overlap_by_day,
    overlap_summary,
)

LA = "America/Los_Angeles"
TAIPEI = "Asia/Taipei"
LONDON = "Europe/London"
SINGAPORE = "Asia/Singapore"
TPE = ZoneInfo(TAIPEI)


def row(frame, day):
    return frame[frame["date"] == day].iloc[0]


def taipei(y, m, d, h, minute=0):
    return datetime(y, m, d, h, minute, tzinfo=TPE)


@pytest.fixture(scope="module")
def la_2026():
    return overlap_by_day(LA, TAIPEI, 2026)


@pytest.mark.parametrize(
    ("day", "offset", "start", "end", "overlap"),
    [
        # Friday before US DST starts (Sun Mar 8 2026): PST, UTC-8.
        (date(2026, 3, 6), 16.0, taipei(2026, 3, 7, 1), taipei(2026, 3, 7, 9), 1.0),
        # Monday after: PDT, UTC-7.
        (date(2026, 3, 9), 15.0, taipei(2026, 3, 10, 0), taipei(2026, 3, 10, 8), 0.0),
        # Friday before US DST ends (Sun Nov 1 2026): still PDT.
        (date(2026, 10, 30), 15.0, taipei(2026, 10, 31, 0), taipei(2026, 10, 31, 8), 0.0),
        # Monday after: PST again.
        (date(2026, 11, 2), 16.0, taipei(2026, 11, 3, 1), taipei(2026, 11, 3, 9), 1.0),
    ],
)
def test_la_to_taipei_either_side_of_us_dst_changes(la_2026, day, offset, start, end, overlap):
    found = row(la_2026, day)
    assert found["offset_hours"] == offset
    assert found["office_start_home"] == start
    assert found["office_end_home"] == end
    assert found["overlap_hours"] == pytest.approx(overlap)


def test_la_to_taipei_year_counts_summer_and_winter_days(la_2026):
    weekdays = int(np.busday_count("2026-01-01", "2027-01-01"))
    summer = int(np.busday_count("2026-03-09", "2026-11-02"))  # Mon Mar 9 .. Fri Oct 30
    assert len(la_2026) == weekdays == 261
    assert (la_2026["offset_hours"] == 15.0).sum() == summer
    assert (la_2026["offset_hours"] == 16.0).sum() == weekdays - summer
    assert set(la_2026["weekday"]) == {"Mon", "Tue", "Wed", "Thu", "Fri"}

    summary = overlap_summary(LA, TAIPEI, 2026)
    # Winter days give 1 hour (08:00-09:00 Taipei), summer days none.
    assert summary.average_hours == pytest.approx((weekdays - summer) / weekdays)
    assert (summary.worst_hours, la_2026["overlap_hours"].max()) == (0.0, 1.0)
    assert (summary.min_offset, summary.max_offset) == (15.0, 16.0)


def test_all_days_when_not_weekdays_only():
    frame = overlap_by_day(SINGAPORE, TAIPEI, 2026, weekdays_only=False)
    assert len(frame) == 365
    assert frame["date"].iloc[0] == date(2026, 1, 1)
    assert frame["date"].iloc[-1] == date(2026, 12, 31)


def test_singapore_to_taipei_zero_offset_full_overlap():
    summary = overlap_summary(SINGAPORE, TAIPEI, 2026)
    assert summary.min_offset == summary.max_offset == 0.0
    assert summary.average_hours == summary.worst_hours == 8.0


def test_taipei_to_taipei_is_trivial():
    frame = overlap_by_day(TAIPEI, TAIPEI, 2026)
    assert (frame["offset_hours"] == 0.0).all()
    assert (frame["overlap_hours"] == 8.0).all()
    first = frame.iloc[0]
    assert first["office_start_home"] == taipei(2026, 1, 1, 9)


@pytest.mark.parametrize(
    ("day", "offset", "overlap"),
    [
        # London 09-17 GMT is 17:00-01:00 Taipei: 6 h before 23:00.
        (date(2026, 3, 27), 8.0, 6.0),
        # UK summer time from Sun Mar 29 2026: 16:00-00:00 Taipei, 7 h.
        (date(2026, 3, 30), 7.0, 7.0),
        (date(2026, 10, 23), 7.0, 7.0),
        # Back to GMT from Sun Oct 25 2026.
        (date(2026, 10, 26), 8.0, 6.0),
    ],
)
def test_london_to_taipei_across_uk_dst(day, offset, overlap):
    found = row(overlap_by_day(LONDON, TAIPEI, 2026), day)
    assert found["offset_hours"] == offset
    assert found["overlap_hours"] == pytest.approx(overlap)


def test_family_window_is_subtracted():
    frame = overlap_by_day(SINGAPORE, TAIPEI, 2026, family_window=(time(12), time(14)))
    assert (frame["overlap_hours"] == 6.0).all()
    london = overlap_by_day(LONDON, TAIPEI, 2026, family_window=(time(19), time(21)))
    assert row(london, date(2026, 1, 5))["overlap_hours"] == pytest.approx(4.0)
    assert row(london, date(2026, 7, 6))["overlap_hours"] == pytest.approx(5.0)


def test_windows_crossing_midnight_in_home_time():
    # Home hours 08:00-02:00 take all of London's 17:00-01:00 (winter, Taipei time).
    late = overlap_by_day(LONDON, TAIPEI, 2026, home_window=(time(8), time(2)))
    assert row(late, date(2026, 1, 5))["overlap_hours"] == pytest.approx(8.0)
    # A family hour just after midnight, in the next Taipei day, is still subtracted.
    family = overlap_by_day(
        LONDON,
        TAIPEI,
        2026,
        home_window=(time(8), time(2)),
        family_window=(time(0), time(0, 30)),
    )
    assert row(family, date(2026, 1, 5))["overlap_hours"] == pytest.approx(7.5)


def test_office_window_crossing_midnight():
    # A 22:00-06:00 Taipei night shift seen from Taipei: 1 h before 23:00.
    frame = overlap_by_day(TAIPEI, TAIPEI, 2026, office_window=(time(22), time(6)))
    assert (frame["overlap_hours"] == 1.0).all()


def test_unknown_zone_raises_with_field():
    with pytest.raises(LogicInputError) as info:
        overlap_by_day("Mars/Olympus", TAIPEI, 2026)
    assert info.value.field == "office_tz"
    assert "Mars/Olympus" in str(info.value)
    assert isinstance(info.value, ValueError)
    with pytest.raises(LogicInputError) as info:
        hour_strip(LA, "", date(2026, 1, 5))
    assert info.value.field == "home_tz"


def test_bad_window_and_year_raise():
    with pytest.raises(LogicInputError) as info:
        overlap_by_day(LA, TAIPEI, 2026, office_window=(9, 17))  # type: ignore[arg-type]
    assert info.value.field == "office_window"
    with pytest.raises(LogicInputError) as info:
        overlap_by_day(LA, TAIPEI, 1066)
    assert info.value.field == "year"


def test_hour_strip_la_winter():
    strip = hour_strip(LA, TAIPEI, date(2026, 1, 6), family_window=(time(19), time(21)))
    assert [e["home_hour"] for e in strip] == list(range(24))
    categories = [e["category"] for e in strip]
    assert categories[0] == "night"
    assert categories[1:8] == ["office_only_night"] * 7
    assert categories[8] == "overlap"
    assert categories[9:19] == ["home_free"] * 10
    assert categories[19:21] == ["family", "family"]
    assert categories[21:23] == ["home_free"] * 2
    assert categories[23] == "night"
    assert strip[8]["office_hour"] == 16
    assert strip[8]["office_weekday"] == "Mon"
    assert strip[16]["office_hour"] == 0
    assert set(categories) <= set(STRIP_LABELS)


def test_hour_strip_la_summer_has_no_overlap():
    strip = hour_strip(LA, TAIPEI, date(2026, 7, 7))
    assert [e["category"] for e in strip].count("overlap") == 0
    assert strip[0]["category"] == "office_only_night"
    assert strip[0]["office_hour"] == 9


def test_hour_strip_weekdays_only_closes_office_weekend():
    # Monday morning in Taipei is Sunday afternoon in Los Angeles.
    strip = hour_strip(LA, TAIPEI, date(2026, 1, 5), weekdays_only=True)
    assert all(e["category"] != "office_only_night" for e in strip[:9])


ZONES = [LA, TAIPEI, LONDON, SINGAPORE, "Asia/Kolkata", "Australia/Sydney", "America/New_York"]


@settings(max_examples=20, deadline=None)
@given(
    office=st.sampled_from(ZONES),
    home=st.sampled_from(ZONES),
    day=st.dates(min_value=date(2026, 1, 1), max_value=date(2026, 12, 31)),
    family_start=st.integers(min_value=0, max_value=23),
)
def test_overlap_invariants(office, home, day, family_start):
    frame = overlap_by_day(office, home, day.year, weekdays_only=False)
    found = row(frame, day)
    assert 0.0 <= found["overlap_hours"] <= 8.0
    everything = overlap_by_day(
        office, home, day.year, home_window=(time(0), time(0)), weekdays_only=False
    )
    assert row(everything, day)["overlap_hours"] == pytest.approx(8.0)
    family = overlap_by_day(
        office,
        home,
        day.year,
        family_window=(time(family_start), time((family_start + 2) % 24)),
        weekdays_only=False,
    )
    assert row(family, day)["overlap_hours"] <= found["overlap_hours"] + 1e-9
    strip = hour_strip(office, home, day)
    assert len(strip) == 24


ZONES = (
    LA,
    TAIPEI,
    LONDON,
    "Australia/Sydney",  # DST in the southern summer
    "Australia/Lord_Howe",  # a 30-minute DST change
    "America/Sao_Paulo",  # DST until 2019
    "Asia/Kathmandu",  # +05:45
    "Pacific/Kiritimati",  # +14
    "Pacific/Pago_Pago",  # -11
    "America/St_Johns",  # -03:30 with DST
)


def day_by_day(office_tz: str, home_tz: str, year: int, family: tuple[time, time] | None):
    """The overlap of every weekday worked out on its own, as before days were shared."""
    from offers.logic import timezones as tz

    office, home = ZoneInfo(office_tz), ZoneInfo(home_tz)
    out = []
    for n in range(366):
        day = date(year, 1, 1) + np.timedelta64(n, "D").astype(object)
        if day.year != year or day.weekday() >= 5:
            continue
        office_day = tz._local_interval(day, tz.DEFAULT_OFFICE_WINDOW, office)
        available = tz._available(office_day, home, tz.DEFAULT_HOME_WINDOW, family)
        out.append(
            (
                day,
                tz._offset_hours(office_day[0], office, home),
                office_day[0].astimezone(home),
                office_day[1].astimezone(home),
                tz._hours(tz._intersect([office_day], available)),
            )
        )
    return out


@settings(max_examples=25, deadline=None)
@given(
    office=st.sampled_from(ZONES),
    home=st.sampled_from(ZONES),
    year=st.integers(1995, 2035),
    family=st.sampled_from([None, (time(18), time(20)), (time(23), time(1))]),
)
def test_days_shared_between_dst_changes_equal_each_day_worked_out(office, home, year, family):
    frame = overlap_by_day(office, home, year, family_window=family)
    got = list(
        zip(
            frame["date"],
            frame["offset_hours"],
            frame["office_start_home"],
            frame["office_end_home"],
            frame["overlap_hours"],
            strict=True,
        )
    )
    assert got == day_by_day(office, home, year, family)
