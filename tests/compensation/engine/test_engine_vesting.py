"""Vesting schedules: presets against hand-computed tranches, cliffs, validation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import (
    VESTING_PRESETS,
    EngineInputError,
    VestingSchedule,
    describe_schedule,
    schedule_from_dict,
    vesting_fractions,
)


def tranches(schedule: VestingSchedule) -> dict[int, float]:
    """Return {month: percent} of the non-zero vests."""
    f = vesting_fractions(schedule)
    return {int(m) + 1: round(float(f[m]) * 100, 6) for m in np.flatnonzero(f)}


def test_even_monthly_vests_one_48th_each_month():
    f = vesting_fractions(VestingSchedule.preset("even_4y_monthly"))
    assert f.shape == (48,)
    np.testing.assert_allclose(f, 1 / 48)


def test_even_quarterly_and_yearly():
    assert tranches(VestingSchedule.preset("even_4y_quarterly")) == dict.fromkeys(
        range(3, 49, 3), 6.25
    )
    assert tranches(VestingSchedule.preset("even_4y_yearly")) == {12: 25, 24: 25, 36: 25, 48: 25}


def test_cliff_accumulates_first_year_onto_month_12():
    t = tranches(VestingSchedule.preset("even_4y_cliff_monthly"))
    assert t[12] == 25.0
    assert min(t) == 12
    assert all(t[m] == round(100 / 48, 6) for m in range(13, 49))


def test_google_33_33_22_12():
    f = vesting_fractions(VestingSchedule.preset("google_33_33_22_12"))
    np.testing.assert_allclose(f[:24], 0.33 / 12)
    np.testing.assert_allclose(f[24:36], 0.22 / 12)
    np.testing.assert_allclose(f[36:], 0.12 / 12)


def test_amazon_yearly_then_semiannual():
    assert tranches(VestingSchedule.preset("amazon_5_15_40_40")) == {
        12: 5,
        24: 15,
        30: 20,
        36: 20,
        42: 20,
        48: 20,
    }


def test_meta_snap_nvidia_bytedance_apple():
    assert tranches(VestingSchedule.preset("meta_quarterly")) == dict.fromkeys(
        range(3, 49, 3), 6.25
    )
    snap = tranches(VestingSchedule.preset("snap_10_20_30_40"))
    assert [snap[m] for m in (3, 15, 27, 39)] == [2.5, 5.0, 7.5, 10.0]
    nvidia = tranches(VestingSchedule.preset("nvidia_2025_40_30_20_10"))
    assert [nvidia[m] for m in (3, 15, 27, 39)] == [10.0, 7.5, 5.0, 2.5]
    bytedance = tranches(VestingSchedule.preset("bytedance_20_25_25_30"))
    assert bytedance[12] == 20.0 and min(bytedance) == 12
    assert [bytedance[m] for m in (15, 27, 39, 48)] == [6.25, 6.25, 7.5, 7.5]
    assert tranches(VestingSchedule.preset("apple_semiannual")) == dict.fromkeys(
        range(6, 49, 6), 12.5
    )


def test_cliff_between_vest_dates_collects_earlier_vests():
    # Quarterly with a 5-month cliff: the month-3 vest moves to month 5; month 6 is unchanged.
    t = tranches(VestingSchedule(cliff_months=5, frequency_months=3))
    assert t[5] == 6.25 and t[6] == 6.25 and 3 not in t


def test_cliff_beyond_first_year_counts_weights_by_scheduled_year():
    t = tranches(
        VestingSchedule(total_months=24, cliff_months=18, frequency_months=1, year_weights=(40, 60))
    )
    assert t[18] == pytest.approx(40 + 60 * 6 / 12)
    assert sum(t.values()) == pytest.approx(100)


def test_partial_last_year_vests_at_total_months():
    s = VestingSchedule(total_months=18, frequency_months=12, year_weights=(80, 20))
    assert tranches(s) == {12: 80, 18: 20}
    s = VestingSchedule(total_months=30, frequency_months=1, year_weights=(40, 40, 20))
    f = vesting_fractions(s)
    np.testing.assert_allclose(f[24:], 0.2 / 6)


def test_every_preset_sums_to_one():
    for name, schedule in VESTING_PRESETS.items():
        assert vesting_fractions(schedule).sum() == pytest.approx(1.0, abs=1e-12), name


def test_result_is_a_writable_copy():
    f = vesting_fractions(VestingSchedule())
    f[0] = 5.0
    assert vesting_fractions(VestingSchedule())[0] == pytest.approx(1 / 48)


@pytest.mark.parametrize(
    ("kwargs", "field", "text"),
    [
        ({"year_weights": (25, 25, 25, 15)}, "weights", "must sum to 100 (got 90)"),
        ({"year_weights": (50, 50, -25, 25)}, "weights[2]", "at least 0"),
        ({"year_weights": (50, 50)}, "weights", "one percentage per vesting year"),
        ({"cliff_months": 49}, "cliff_months", "must not exceed"),
        ({"frequency_months": 2}, "frequency_months", "one of 1, 3, 6, 12"),
        ({"total_months": 0}, "total_months", "at least 1"),
        ({"year_frequencies": (12, 6)}, "year_frequencies", "one frequency per vesting year"),
    ],
)
def test_invalid_schedule_raises_naming_field(kwargs, field, text):
    with pytest.raises(EngineInputError) as info:
        VestingSchedule(**kwargs)
    assert info.value.field == field
    assert text in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_preset():
    with pytest.raises(EngineInputError) as info:
        VestingSchedule.preset("nope")
    assert info.value.field == "preset"


def test_schedule_from_dict():
    s = schedule_from_dict({"weights": [33, 33, 22, 12], "cliff_months": 0, "frequency_months": 1})
    assert s == VESTING_PRESETS["google_33_33_22_12"]
    assert (
        schedule_from_dict({"preset": "amazon_5_15_40_40"}) == VESTING_PRESETS["amazon_5_15_40_40"]
    )
    s = schedule_from_dict({"weights": [40, 60], "frequency_months": 3})
    assert s.total_months == 24
    s = schedule_from_dict({"preset": "amazon_5_15_40_40", "weights": [25, 25, 25, 25]})
    assert s.year_frequencies is None
    with pytest.raises(EngineInputError) as info:
        schedule_from_dict({"weights": [25, 25, 25, 15]})
    assert info.value.field == "weights"


def test_describe_schedule():
    assert describe_schedule(VESTING_PRESETS["amazon_5_15_40_40"]) == (
        "4 years: 5/15/40/40% per year, vesting yearly in years 1-2, "
        "every 6 months in years 3-4, no cliff"
    )
    assert describe_schedule(VESTING_PRESETS["even_4y_cliff_monthly"]) == (
        "4 years: 25/25/25/25% per year, vesting monthly, 12-month cliff"
    )


@st.composite
def schedules(draw: st.DrawFn) -> VestingSchedule:
    years = draw(st.integers(1, 6))
    total = draw(st.integers(12 * (years - 1) + 1, 12 * years))
    raw = draw(st.lists(st.integers(0, 100), min_size=years, max_size=years))
    if sum(raw) == 0:
        raw[0] = 1
    weights = tuple(100 * w / sum(raw) for w in raw)
    frequencies = None
    if draw(st.booleans()):
        frequencies = tuple(
            draw(st.lists(st.sampled_from((1, 3, 6, 12)), min_size=years, max_size=years))
        )
    return VestingSchedule(
        total_months=total,
        cliff_months=draw(st.integers(0, total)),
        frequency_months=draw(st.sampled_from((1, 3, 6, 12))),
        year_weights=weights,
        year_frequencies=frequencies,
    )


@settings(max_examples=200, deadline=None)
@given(schedules())
def test_fractions_sum_to_one_for_any_valid_schedule(schedule):
    f = vesting_fractions(schedule)
    assert f.shape == (schedule.total_months,)
    assert math.isclose(f.sum(), 1.0, abs_tol=1e-9)
    assert np.all(f >= 0)
    if schedule.cliff_months > 1:
        assert np.all(f[: schedule.cliff_months - 1] == 0)
