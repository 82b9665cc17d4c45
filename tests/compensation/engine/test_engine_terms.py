"""Real offer terms checked by hand: vest dates on the 29th-31st, fixed calendar vest dates,
bonus cycles, instalment sign-ons and clawbacks."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import (
    VESTING_PRESETS,
    BonusCycle,
    EngineInputError,
    Grant,
    PackageSpec,
    SignOn,
    Stock,
    VestingSchedule,
    describe_schedule,
    forfeited_on_leave,
    package_from_dict,
    project,
    project_yearly,
    tranche_dates,
    unvested_schedule,
)
from compensation.engine.segments import Segment
from compensation.engine.window import percentile_prices, window_yearly

FLAT = Stock(price=10.0)
META = VESTING_PRESETS["meta_quarterly"]
QUARTERLY = VestingSchedule(frequency_months=3)


def d(year: int, month: int, day: int) -> dt.date:
    return dt.date(year, month, day)


def window(segments: list[Segment], start: dt.date, years: int = 4) -> dict[str, np.ndarray]:
    prices = [percentile_prices(s.spec.stock, 12 * years) for s in segments]
    return window_yearly(segments, window_start=start, years=years, prices=prices)


def package(start: dt.date, **kw: object) -> PackageSpec:
    args: dict[str, object] = {"name": "p", "start": start, "base": 120_000.0, "stock": FLAT}
    args.update(kw)
    return PackageSpec(**args)  # type: ignore[arg-type]


# Vest dates on the 29th to 31st ------------------------------------------------------------


def test_a_vest_on_the_31st_is_clamped_from_the_start_each_month():
    dates = [day for day, _ in tranche_dates(VestingSchedule(frequency_months=1), d(2025, 1, 31))]
    # 31 Jan + 1 month = 28 Feb; + 2 months = 31 Mar (not 28 Mar); 2028 is a leap year.
    assert dates[:4] == [d(2025, 2, 28), d(2025, 3, 31), d(2025, 4, 30), d(2025, 5, 31)]
    assert d(2028, 1, 31) in dates and dates[-1] == d(2029, 1, 31)
    assert len(dates) == 48


def test_a_leap_day_anniversary_vests_on_28_feb_and_stays_in_its_year():
    yearly = VESTING_PRESETS["even_4y_yearly"]
    assert [day for day, _ in tranche_dates(yearly, d(2024, 2, 29))] == [
        d(2025, 2, 28),
        d(2026, 2, 28),
        d(2027, 2, 28),
        d(2028, 2, 29),
    ]
    # A package starting 28 Feb 2024 with the grant vesting from 29 Feb: the first tranche
    # (28 Feb 2025) is the package's first anniversary, in year 1 (it used to move to year 2);
    # the last (29 Feb 2028) is a day after the four years (which end on 28 Feb 2028).
    grant = Grant(shares=400.0, schedule=yearly, vest_start=d(2024, 2, 29))
    spec = package(d(2024, 2, 28), grants=(grant,), horizon_years=5)
    assert project_yearly(spec)["equity"].tolist() == pytest.approx([1_000.0] * 3 + [0, 1_000])


def test_a_vest_on_the_start_date_is_already_vested_and_one_on_the_last_day_counts():
    # Decision date 30 Nov 2026; a five-year quarterly grant from 31 Aug 2026 (20 tranches
    # of 100 shares): tranche 1 vests on 30 Nov 2026 (the start: already vested), tranche
    # 17 on 30 Nov 2030 (the horizon's last day: counted).
    start = d(2026, 11, 30)
    schedule = VestingSchedule(total_months=60, frequency_months=3, year_weights=(20,) * 5)
    grant = Grant(shares=2000.0, schedule=schedule, vest_start=d(2026, 8, 31))
    spec = package(start, grants=(grant,))
    days = [day for day, _ in tranche_dates(schedule, d(2026, 8, 31))]
    assert days[0] == start and days[16] == d(2030, 11, 30)
    # Year 1 is 28 Feb, 31 May, 31 Aug and 30 Nov 2027: 4 tranches; tranches 2 to 17 in all.
    assert project_yearly(spec)["equity"].tolist() == pytest.approx([4_000.0] * 4)
    stay = window([Segment(spec, start)], start)
    assert stay["equity"].tolist() == pytest.approx([4_000.0] * 4)
    # The forfeiture side agrees: what is unvested after the start and vests by the horizon.
    pending = unvested_schedule(spec, start, price=10.0)
    inside = pending[pending["date"] <= d(2030, 11, 30)]
    assert inside["shares"].sum() == pytest.approx(1_600.0)
    assert inside["value"].sum() == pytest.approx(stay["equity"].sum())


def test_a_vest_on_the_new_start_date_is_forfeited_the_day_before_is_kept():
    start = d(2026, 12, 1)
    grant = Grant(shares=4800.0, schedule=QUARTERLY, vest_start=start)  # 1 Mar 2027, ...
    current = package(start, grants=(grant,))
    new = package(d(2027, 3, 1), base=0.0)
    on = window([Segment(current, start, d(2027, 3, 1)), Segment(new, d(2027, 3, 1))], start)
    assert on["equity"].sum() == 0.0
    lost = forfeited_on_leave(current, d(2027, 3, 1), price=10.0)
    assert lost["unvested_shares"] == pytest.approx(4800.0)
    later = package(d(2027, 3, 2), base=0.0)
    after = window([Segment(current, start, d(2027, 3, 2)), Segment(later, d(2027, 3, 2))], start)
    assert after["equity"].tolist() == pytest.approx([3_000.0, 0, 0, 0])
    assert forfeited_on_leave(current, d(2027, 3, 2), price=10.0)["unvested_shares"] == 4500


# Fixed calendar vest dates -----------------------------------------------------------------


def test_meta_grant_starting_mid_quarter_vests_on_the_next_15th_of_feb_may_aug_nov():
    days = tranche_dates(META, d(2027, 3, 1))
    assert [day for day, _ in days[:5]] == [
        d(2027, 5, 15),
        d(2027, 8, 15),
        d(2027, 11, 15),
        d(2028, 2, 15),
        d(2028, 5, 15),
    ]
    assert days[-1][0] == d(2031, 2, 15)
    assert [f for _, f in days] == pytest.approx([1 / 16] * 16)
    # Starting on a vest date, the first vest is the next one.
    assert tranche_dates(META, d(2027, 2, 15))[0][0] == d(2027, 5, 15)
    # The common window from 30 Nov 2026: 3 of 16 tranches in year 1 (15 May, Aug, Nov 2027).
    grant = Grant(shares=1600.0, schedule=META)
    meta = package(d(2027, 3, 1), base=0.0, grants=(grant,))
    out = window([Segment(meta, d(2027, 3, 1))], d(2026, 11, 30))
    assert out["equity"].tolist() == pytest.approx([3_000.0, 4_000.0, 4_000.0, 4_000.0])


def test_calendar_dates_with_a_cliff_vest_the_cliff_on_the_first_date_after_it():
    schedule = VestingSchedule(cliff_months=12, frequency_months=3, vest_dates=META.vest_dates)
    days = tranche_dates(schedule, d(2027, 3, 1))
    # The cliff (1 Mar 2028) holds 4 quarters: 25 % on 15 May 2028, then 1/16 a quarter.
    assert days[0] == (d(2028, 5, 15), pytest.approx(0.25))
    assert days[1] == (d(2028, 8, 15), pytest.approx(1 / 16))
    assert sum(f for _, f in days) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("dates", "message"),
    [
        (((13, 15),), "vest_dates[0].month"),
        (((4, 31),), "vest_dates[0].day"),
        (((2, 15), (5, 15)), "vest_dates"),  # quarterly needs four
        (((2, 15), (2, 15), (8, 15), (11, 15)), "vest_dates"),
    ],
)
def test_calendar_dates_are_checked(dates, message):
    with pytest.raises(EngineInputError) as info:
        VestingSchedule(frequency_months=3, vest_dates=dates)
    assert info.value.field == message


def test_calendar_dates_allow_29_feb_and_round_trip_through_a_dict():
    schedule = VestingSchedule(frequency_months=12, vest_dates=((2, 29),))
    assert [day for day, _ in tranche_dates(schedule, d(2025, 1, 1))][:2] == [
        d(2025, 2, 28),
        d(2026, 2, 28),
    ]
    spec = package_from_dict(
        {
            "start": "2027-03-01",
            "base": 1,
            "stock": {"price": 10},
            "grants": [{"shares": 16, "preset": "meta_quarterly"}],
        }
    )
    assert spec.grants[0].schedule.vest_dates == ((2, 15), (5, 15), (8, 15), (11, 15))
    assert describe_schedule(spec.grants[0].schedule) == (
        "4 years: 25/25/25/25% per year, vesting quarterly on Feb/May/Aug/Nov 15, no cliff"
    )


# Bonus timing -------------------------------------------------------------------------------

CALENDAR = BonusCycle(start_month=1, payout_month=3, payout_day=15)


def bonus_package(start: dt.date, cycle: BonusCycle | None = CALENDAR) -> PackageSpec:
    """USD 200,000 base, a 15 % target: a 30,000 bonus for a whole bonus year."""
    return package(start, base=200_000.0, bonus_target_pct=15.0, bonus_cycle=cycle)


def test_first_year_bonus_is_prorated_by_days_and_paid_in_march():
    frame = project(bonus_package(d(2026, 10, 1)))
    # 1 Oct to 31 Dec 2026 is 92 of 365 days, paid 15 Mar 2027 (package month 6).
    assert frame.loc[6, "bonus"] == pytest.approx(30_000 * 92 / 365)
    assert frame.loc[18, "bonus"] == pytest.approx(30_000)  # 15 Mar 2028, a whole year
    assert frame["bonus"].astype(bool).sum() == 4  # Mar 2027, 2028, 2029, 2030


def test_a_start_after_the_cut_off_pays_no_first_year_bonus():
    cycle = BonusCycle(start_month=1, payout_month=3, cutoff=(10, 1))
    on_cut_off = project(bonus_package(d(2026, 10, 1), cycle))
    assert on_cut_off.loc[6, "bonus"] == pytest.approx(30_000 * 92 / 365)
    after = project(bonus_package(d(2026, 10, 2), cycle))
    assert after["bonus"].iloc[:12].sum() == 0
    assert after.loc[18, "bonus"] == pytest.approx(30_000)


def test_fiscal_year_without_proration_pays_a_whole_first_year():
    cycle = BonusCycle(start_month=7, payout_month=9, prorate_first_year=False)
    frame = project(bonus_package(d(2026, 10, 1), cycle))
    # The July 2026 to June 2027 bonus year is paid on 15 Sep 2027: package month 12.
    assert frame.loc[12, "bonus"] == pytest.approx(30_000)


def test_leaving_before_the_payout_loses_the_bonus_unless_it_is_paid():
    start = d(2026, 12, 1)
    leave = d(2027, 3, 1)
    new = package(leave, base=0.0)
    for paid, year1, year2 in ((False, 0.0, 0.0), (True, 30_000.0, 30_000 * 59 / 365)):
        cycle = BonusCycle(start_month=1, payout_month=3, paid_if_left=paid)
        current = bonus_package(d(2020, 1, 1), cycle)
        out = window([Segment(current, start, leave), Segment(new, leave)], start)
        # The 2026 bonus (paid 15 Mar 2027) and 59 days of 2027 (paid 15 Mar 2028).
        assert out["bonus"].tolist() == pytest.approx([year1, year2, 0, 0])
        lost = forfeited_on_leave(current, leave, price=10.0)["bonus_unpaid"]
        assert lost == pytest.approx(0.0 if paid else 30_000 + 30_000 * 59 / 365)
    # Still employed on the payout day (leaving 16 Mar): the 2026 bonus is paid.
    current = bonus_package(d(2020, 1, 1))
    late = d(2027, 3, 16)
    out = window([Segment(current, start, late), Segment(package(late, base=0.0), late)], start)
    assert out["bonus"].tolist() == pytest.approx([30_000.0, 0, 0, 0])
    # A payout on the new start date is not paid.
    on = d(2027, 3, 15)
    out = window([Segment(current, start, on), Segment(package(on, base=0.0), on)], start)
    assert out["bonus"].sum() == 0


def test_staying_places_each_bonus_in_its_payout_month():
    start = d(2026, 12, 1)
    out = window([Segment(bonus_package(d(2020, 1, 1)), start)], start)
    # Paid 15 Mar 2027, 2028, 2029, 2030: one in each window year.
    assert out["bonus"].tolist() == pytest.approx([30_000.0] * 4)


def test_anniversary_bonus_is_unchanged_in_month_12():
    frame = project(bonus_package(d(2025, 1, 31), cycle=None))
    assert frame.loc[12, "bonus"] == pytest.approx(30_000)
    assert frame["bonus"].astype(bool).sum() == 4


def test_bonus_cycle_is_checked():
    with pytest.raises(EngineInputError) as info:
        BonusCycle(payout_month=13)
    assert info.value.field == "payout_month"
    with pytest.raises(EngineInputError) as info:
        BonusCycle(cutoff=(6, 31))
    assert info.value.field == "cutoff[0].day"


# Sign-on terms -----------------------------------------------------------------------------

HALVES = ((0, 0.5), (12, 0.5))


def test_instalment_sign_on_is_paid_on_its_dates():
    spec = package(d(2027, 3, 1), sign_on=(SignOn(50_000, instalments=HALVES),))
    frame = project(spec)
    assert frame.loc[1, "sign_on"] == pytest.approx(25_000)
    assert frame.loc[13, "sign_on"] == pytest.approx(25_000)
    assert frame["sign_on"].sum() == pytest.approx(50_000)


@pytest.mark.parametrize(
    ("leave", "kind", "expected"),
    [
        # 6 whole months served of the first half: 6 of 12 months unserved.
        (d(2027, 9, 1), "prorated", 25_000 * 6 / 12),
        (d(2027, 9, 1), "full", 25_000),
        # The second half is paid on the leave date: never paid, nothing to repay.
        (d(2028, 3, 1), "prorated", 0.0),
        # 18 months: the first half is earned; 6 months of the second.
        (d(2028, 9, 1), "prorated", 25_000 * 6 / 12),
        (d(2028, 9, 1), "full", 25_000),
        (d(2029, 3, 1), "full", 0.0),
    ],
)
def test_clawback_of_instalments_pro_rated_or_in_full(leave, kind, expected):
    spec = package(d(2027, 3, 1), sign_on=(SignOn(50_000, instalments=HALVES, clawback_kind=kind),))
    assert forfeited_on_leave(spec, leave, price=10.0)["sign_on_clawback"] == pytest.approx(
        expected
    )


def test_one_payment_clawed_back_in_full_within_n_months():
    spec = package(
        d(2027, 3, 1), sign_on=(SignOn(40_000, clawback_months=24, clawback_kind="full"),)
    )
    assert forfeited_on_leave(spec, d(2029, 2, 28))["sign_on_clawback"] == 40_000
    assert forfeited_on_leave(spec, d(2029, 3, 1))["sign_on_clawback"] == 0


def test_leaving_before_the_second_instalment_does_not_pay_it_in_the_window():
    start = d(2026, 12, 1)
    current = package(d(2026, 12, 1), base=0.0, sign_on=(SignOn(50_000, instalments=HALVES),))
    leave = d(2027, 12, 1)
    out = window([Segment(current, start, leave), Segment(package(leave, base=0.0), leave)], start)
    assert out["sign_on"].tolist() == pytest.approx([25_000.0, 0, 0, 0])


@pytest.mark.parametrize(
    "instalments",
    [((0, 0.5),), ((0, 0.5), (0, 0.5)), ((0, 0.0), (12, 1.0)), ((-1, 1.0),), "half"],
)
def test_instalments_are_checked(instalments):
    with pytest.raises(EngineInputError):
        SignOn(10_000, instalments=instalments)


def test_clawback_kind_is_checked():
    with pytest.raises(EngineInputError) as info:
        SignOn(10_000, clawback_kind="half")
    assert info.value.field == "clawback_kind"


# Invariants ---------------------------------------------------------------------------------

SCHEDULES = [*VESTING_PRESETS.values(), VestingSchedule(frequency_months=12, vest_dates=((2, 29),))]


@settings(max_examples=150, deadline=None)
@given(
    year=st.integers(2020, 2030),
    month=st.integers(1, 12),
    day=st.integers(1, 31),
    schedule=st.sampled_from(SCHEDULES),
)
def test_whole_schedule_vests_the_grant_whatever_the_start_day(year, month, day, schedule):
    last = [31, 29 if year % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    start = d(year, month, min(day, last))
    tranches = tranche_dates(schedule, start)
    days = [t for t, _ in tranches]
    assert days == sorted(days) and len(set(days)) == len(days) and days[0] > start
    assert sum(f for _, f in tranches) == pytest.approx(1.0)
    # Projected over the schedule (a year more for calendar dates), every share vests once.
    years = schedule.years + 1
    spec = package(
        start, base=0.0, horizon_years=years, grants=(Grant(shares=1_000.0, schedule=schedule),)
    )
    assert project_yearly(spec)["equity"].sum() == pytest.approx(10_000.0)
    stay = window([Segment(spec, start)], start, years)
    assert stay["equity"].sum() == pytest.approx(10_000.0)


@settings(max_examples=100, deadline=None)
@given(
    offset=st.integers(0, 1500),
    vest_day=st.integers(0, 400),
    schedule=st.sampled_from(SCHEDULES),
)
def test_staying_minus_leaving_is_the_forfeited_stock(offset, vest_day, schedule):
    start = d(2026, 11, 30)
    leave = start + dt.timedelta(days=offset % 1400 + 1)
    grant = Grant(shares=1_600.0, schedule=schedule, vest_start=start - dt.timedelta(days=vest_day))
    current = package(d(2020, 1, 31), base=0.0, grants=(grant,))
    new = package(leave, base=0.0)
    stay = window([Segment(current, start)], start)
    go = window([Segment(current, start, leave), Segment(new, leave)], start)
    pending = unvested_schedule(current, leave - dt.timedelta(days=1), price=10.0)
    in_window = pending[pending["date"] <= d(2030, 11, 30)]["value"].sum()
    assert stay["equity"].sum() - go["equity"].sum() == pytest.approx(in_window)


def test_json_input_reads_the_terms_and_names_bad_fields():
    spec = package_from_dict(
        {
            "start": "2026-10-01",
            "base": 200_000,
            "bonus_target_pct": 15,
            "bonus_cycle": {"start_month": 1, "payout_month": 3, "cutoff": [10, 1]},
            "sign_on": [
                {"amount": 50_000, "instalments": [[0, 0.5], [12, 0.5]], "clawback_kind": "full"}
            ],
        }
    )
    assert spec.bonus_cycle == BonusCycle(start_month=1, payout_month=3, cutoff=(10, 1))
    assert spec.sign_on[0].instalments == ((0, 0.5), (12, 0.5))
    with pytest.raises(EngineInputError) as info:
        package_from_dict({"start": "2026-10-01", "base": 1, "bonus_cycle": {"payout_mont": 3}})
    assert info.value.field == "bonus_cycle.payout_mont"
    with pytest.raises(EngineInputError) as info:
        package_from_dict(
            {"start": "2026-10-01", "base": 1, "sign_on": [{"amount": 1, "instalments": [[0, 2]]}]}
        )
    assert info.value.field == "sign_on[0].instalments[0].fraction"
