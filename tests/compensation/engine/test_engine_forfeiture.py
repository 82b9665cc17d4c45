"""Leaving on a date: unvested equity, unpaid bonus, sign-on clawback, next vest."""

from __future__ import annotations

import datetime as dt

import pytest

from compensation.engine import (
    VESTING_PRESETS,
    EngineInputError,
    Grant,
    PackageSpec,
    Refresher,
    SignOn,
    Stock,
    forfeited_on_leave,
    next_vest_date,
    unvested_schedule,
)

START = dt.date(2025, 1, 1)


def package(**overrides) -> PackageSpec:
    fields = {
        "name": "Acme",
        "start": START,
        "base": 120_000.0,
        "bonus_target_pct": 10.0,
        "sign_on": (SignOn(50_000, 1), SignOn(20_000, 2)),
        "grants": (Grant(shares=4800, schedule=VESTING_PRESETS["even_4y_monthly"]),),
        "stock": Stock(price=10.0),
    }
    fields.update(overrides)
    return PackageSpec(**fields)


def test_forfeited_mid_year_two():
    result = forfeited_on_leave(package(), dt.date(2026, 1, 15), price=10.0)
    # 12 monthly vests done (through 2026-01-01): 36 x 100 shares left.
    assert result["unvested_shares"] == pytest.approx(3600)
    assert result["unvested_value"] == pytest.approx(36_000)
    assert result["unvested_by_year"] == [
        {"year": 2026, "shares": pytest.approx(1100), "value": pytest.approx(11_000)},
        {"year": 2027, "shares": pytest.approx(1200), "value": pytest.approx(12_000)},
        {"year": 2028, "shares": pytest.approx(1200), "value": pytest.approx(12_000)},
        {"year": 2029, "shares": pytest.approx(100), "value": pytest.approx(1_000)},
    ]
    # Year-2 bonus (12,000) pro-rated for 14 of 365 days; year-2 sign-on paid 2026-01-01, fully owed.
    assert result["bonus_unpaid"] == pytest.approx(12_000 * 14 / 365)
    assert result["sign_on_clawback"] == pytest.approx(20_000)
    assert result["total"] == pytest.approx(36_000 + 12_000 * 14 / 365 + 20_000)


def test_sign_on_clawback_is_pro_rated_by_unserved_months():
    result = forfeited_on_leave(package(), dt.date(2025, 4, 10), price=10.0)
    assert result["sign_on_clawback"] == pytest.approx(50_000 * 9 / 12)
    assert result["bonus_unpaid"] == pytest.approx(12_000 * 99 / 365)
    later = forfeited_on_leave(package(), dt.date(2027, 2, 1), price=10.0)
    assert later["sign_on_clawback"] == 0


def test_bonus_counts_as_paid_on_the_payout_date():
    result = forfeited_on_leave(package(sign_on=()), dt.date(2026, 1, 1), price=10.0)
    assert result["bonus_unpaid"] == 0
    assert result["sign_on_clawback"] == 0
    # The 2026-01-01 tranche vests on the leave date, the first day gone: it is forfeited.
    assert result["unvested_shares"] == pytest.approx(3700)


def test_default_price_is_projected_and_liquidity_discount_applies():
    spec = package(stock=Stock(price=10.0, growth_pct=10, liquidity_discount_pct=20))
    result = forfeited_on_leave(spec, dt.date(2026, 1, 1))
    assert result["price"] == pytest.approx(10 * 1.1 ** (365 / 365.25))
    # 37 tranches of 100 shares from the leave date (2026-01-01) on.
    assert result["unvested_value"] == pytest.approx(3700 * result["price"] * 0.8)


def test_current_job_with_old_vest_start():
    grant = Grant(
        shares=4800, schedule=VESTING_PRESETS["even_4y_yearly"], vest_start=dt.date(2023, 6, 1)
    )
    spec = package(grants=(grant,), sign_on=())
    result = forfeited_on_leave(spec, dt.date(2025, 3, 1), price=2.0)
    # Vested 2024-06-01; 2025-06-01, 2026-06-01 and 2027-06-01 remain.
    assert result["unvested_shares"] == pytest.approx(3600)
    assert [row["year"] for row in result["unvested_by_year"]] == [2025, 2026, 2027]


def test_refreshers_granted_before_leaving_are_forfeited_too():
    spec = package(
        grants=(),
        sign_on=(),
        refreshers=(Refresher(4_800, VESTING_PRESETS["even_4y_yearly"]),),
    )
    result = forfeited_on_leave(spec, dt.date(2026, 6, 1), price=10.0)
    # Only the year-2 refresher (granted 2026-01-01, 480 shares at $10) exists by then.
    assert result["unvested_shares"] == pytest.approx(480)


def test_next_vest_date_and_unvested_schedule():
    spec = package()
    assert next_vest_date(spec, dt.date(2026, 1, 15)) == dt.date(2026, 2, 1)
    assert next_vest_date(spec, dt.date(2026, 1, 1)) == dt.date(2026, 2, 1)
    assert next_vest_date(spec, dt.date(2029, 1, 1)) is None
    frame = unvested_schedule(spec, dt.date(2028, 9, 30), price=5.0)
    assert list(frame.columns) == ["date", "shares", "value"]
    assert list(frame["date"]) == [dt.date(2028, m, 1) for m in (10, 11, 12)] + [
        dt.date(2029, 1, 1)
    ]
    assert frame["value"].sum() == pytest.approx(400 * 5)


def test_bad_leave_date():
    with pytest.raises(EngineInputError) as info:
        forfeited_on_leave(package(), "2026-01-01")
    assert info.value.field == "leave_date"


def test_a_job_held_since_2022_prices_its_unvested_stock_from_today_not_the_hire_date():
    # Hired 1 Dec 2022, decision date 1 Dec 2026, today's price 170 growing 10 % a year. A
    # 2025 refresher of 400 shares vests 25 a quarter from 1 Jun 2025 to 1 Mar 2029: leaving on
    # 14 Feb 2027 forfeits the 9 tranches from 1 Mar 2027, 225 shares, at the price 75 days
    # after today: 170 x 1.1^(75 / 30.4375 / 12) = 173.36. From the hire date it was 253.80.
    spec = package(
        start=dt.date(2022, 12, 1),
        as_of=dt.date(2026, 12, 1),
        current_job=True,
        sign_on=(),
        bonus_target_pct=0.0,
        grants=(
            Grant(
                shares=400,
                schedule=VESTING_PRESETS["even_4y_quarterly"],
                vest_start=dt.date(2025, 3, 1),
            ),
        ),
        stock=Stock(price=170.0, growth_pct=10.0),
    )
    lost = forfeited_on_leave(spec, dt.date(2027, 2, 14))
    price = 170.0 * 1.1 ** (75 / 30.4375 / 12)
    assert price == pytest.approx(173.36, abs=0.01)
    assert lost["unvested_value"] == pytest.approx(225 * price)
