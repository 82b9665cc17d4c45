"""Deterministic projection: base, raises, bonus, sign-on, grants, refreshers, FX, tax."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import (
    VESTING_PRESETS,
    EngineInputError,
    Grant,
    PackageSpec,
    Refresher,
    SignOn,
    Stock,
    VestingSchedule,
    annualized,
    assumption_terms,
    assumptions,
    project,
    project_yearly,
)
from compensation.engine.components import COMPONENTS, DATED_COMPONENTS

START = dt.date(2025, 1, 1)
YEARLY = VESTING_PRESETS["even_4y_yearly"]
MONTHLY = VESTING_PRESETS["even_4y_monthly"]


def package(**overrides) -> PackageSpec:
    fields = {"name": "Acme", "start": START, "horizon_years": 4, "base": 120_000.0}
    fields.update(overrides)
    return PackageSpec(**fields)


def test_base_is_paid_monthly_with_yearly_raises():
    monthly = project(package(raise_pct=10))
    assert list(monthly.index[:2]) == [1, 2] and len(monthly) == 48
    assert monthly.loc[1, "base"] == 10_000
    assert monthly.loc[12, "base"] == 10_000
    assert monthly.loc[13, "base"] == pytest.approx(11_000)
    yearly = project_yearly(package(raise_pct=10))
    np.testing.assert_allclose(yearly["base"], [120_000, 132_000, 145_200, 159_720])


def test_bonus_paid_once_at_each_year_end():
    monthly = project(package(raise_pct=10, bonus_target_pct=10, bonus_multiplier=1.5))
    bonus = monthly["bonus"]
    assert bonus.loc[12] == pytest.approx(18_000)
    assert bonus.loc[24] == pytest.approx(19_800)
    assert bonus.sum() == pytest.approx(bonus.loc[[12, 24, 36, 48]].sum())


def test_sign_on_in_first_month_of_its_year_and_relocation_in_month_1():
    spec = package(sign_on=(SignOn(50_000, 1), SignOn(30_000, 2), SignOn(9, 7)), relocation=8_000)
    monthly = project(spec)
    assert monthly.loc[1, "sign_on"] == 50_000
    assert monthly.loc[13, "sign_on"] == 30_000
    assert monthly["sign_on"].sum() == 80_000  # year 7 is beyond the horizon
    assert monthly.loc[1, "relocation"] == 8_000 and monthly["relocation"].sum() == 8_000
    yearly = project_yearly(spec)
    assert list(yearly["sign_on"]) == [50_000, 30_000, 0, 0]


def test_grant_by_value_converts_at_grant_price_and_grows_with_price():
    spec = package(
        grants=(Grant(value=100_000, grant_price=100, schedule=YEARLY),),
        stock=Stock(price=100, growth_pct=10),
    )
    monthly = project(spec)
    assert monthly.loc[12, "equity_grants"] == pytest.approx(250 * 110)
    assert monthly.loc[24, "equity_grants"] == pytest.approx(250 * 121)
    assert monthly.loc[12, "grant_0"] == pytest.approx(250 * 110)
    assert monthly["equity_grants"].drop(index=[12, 24, 36, 48]).abs().sum() == 0


def test_grant_value_defaults_to_current_stock_price_and_shares_are_used_as_given():
    by_value = package(grants=(Grant(value=40_000, schedule=YEARLY),), stock=Stock(price=50))
    by_shares = package(grants=(Grant(shares=800, schedule=YEARLY),), stock=Stock(price=50))
    np.testing.assert_allclose(
        project(by_value)["equity_grants"], project(by_shares)["equity_grants"]
    )
    assert project_yearly(by_value)["equity"].iloc[0] == pytest.approx(10_000)


def test_liquidity_discount_applies_to_equity():
    spec = package(
        grants=(Grant(shares=1000, schedule=YEARLY),),
        stock=Stock(price=100, liquidity_discount_pct=25),
    )
    assert project_yearly(spec)["equity"].iloc[0] == pytest.approx(250 * 100 * 0.75)


def test_current_job_grant_with_vest_start_before_package_start():
    # Vest start 6 months before the package start: vests 1-6 already happened.
    grant = Grant(shares=4800, schedule=MONTHLY, vest_start=dt.date(2024, 7, 1))
    spec = package(horizon_years=2, grants=(grant,), stock=Stock(price=10))
    monthly = project(spec)
    assert monthly.loc[1, "grant_0"] == pytest.approx(100 * 10)
    assert monthly["grant_0"].sum() == pytest.approx(24 * 100 * 10)
    late = dataclasses.replace(grant, vest_start=dt.date(2025, 4, 1))
    monthly = project(dataclasses.replace(spec, grants=(late,)))
    assert monthly.loc[3, "grant_0"] == 0 and monthly.loc[4, "grant_0"] == pytest.approx(1000)
    # A grant that finished vesting before the start contributes nothing.
    old = dataclasses.replace(grant, vest_start=dt.date(2019, 1, 1))
    assert project(dataclasses.replace(spec, grants=(old,)))["grant_0"].sum() == 0


def test_refreshers_start_mid_horizon_at_the_then_projected_price():
    flat = package(refreshers=(Refresher(48_000, MONTHLY, first_year=3),), stock=Stock(price=10))
    yearly = project_yearly(flat)
    np.testing.assert_allclose(yearly["equity"], [0, 0, 12_000, 24_000])
    grown = dataclasses.replace(flat, stock=Stock(price=10, growth_pct=10))
    monthly = project(grown)
    # Granted at month 24 at price 10 * 1.1^2; each vest is worth 1000 * 1.1^((t - 24) / 12).
    expected_year3 = sum(1000 * 1.1 ** (k / 12) for k in range(1, 13))
    assert monthly.loc[25:36, "refreshers"].sum() == pytest.approx(expected_year3)
    assert monthly.loc[:24, "refreshers"].sum() == 0


def test_fx_and_tax():
    spec = package(
        bonus_target_pct=10,
        grants=(Grant(shares=1000, schedule=YEARLY),),
        stock=Stock(price=100),
        fx_to_home=0.5,
        tax_rate_pct=40,
    )
    yearly = project_yearly(spec)
    total = 120_000 + 12_000 + 25_000
    assert yearly["total"].iloc[0] == pytest.approx(total)
    assert yearly["total_home"].iloc[0] == pytest.approx(total * 0.5)
    assert yearly["total_net"].iloc[0] == pytest.approx(total * 0.6)
    assert yearly["total_net_home"].iloc[0] == pytest.approx(total * 0.3)
    assert yearly["cumulative"].iloc[-1] == pytest.approx(yearly["total"].sum())
    assert yearly["cumulative_home"].iloc[-1] == pytest.approx(yearly["total_home"].sum())
    # The pay components in the registry's order, then the totals.
    assert list(yearly.columns) == [
        *COMPONENTS,
        "total",
        "cumulative",
        "total_home",
        "cumulative_home",
        "tax",
        "contributions",
        "total_net",
        "total_net_home",
    ]


def test_price_path_overrides_projection():
    spec = package(
        grants=(Grant(shares=1000, schedule=YEARLY),),
        refreshers=(Refresher(4_000, YEARLY),),
        stock=Stock(price=100, growth_pct=50),
    )
    path = np.full(48, 50.0)
    path[24:] = 25.0  # halves after year 2
    yearly = project_yearly(spec, price_path=path)
    # Refreshers granted at months 12 and 24 (price 50) vest 1,000 at grant price a year;
    # a vest at month 36 (price 25) is worth half that.
    assert yearly["equity"].iloc[0] == pytest.approx(250 * 50)
    assert yearly["equity"].iloc[1] == pytest.approx(250 * 50 + 1_000)
    assert yearly["equity"].iloc[2] == pytest.approx(250 * 25 + 500 + 500)
    with pytest.raises(EngineInputError) as info:
        project(spec, price_path=np.ones(10))
    assert info.value.field == "price_path"


def test_monthly_columns_and_total():
    spec = package(
        bonus_target_pct=15,
        sign_on=(SignOn(10_000),),
        grants=(Grant(shares=10, schedule=MONTHLY), Grant(shares=20, schedule=YEARLY)),
        stock=Stock(price=3),
    )
    monthly = project(spec)
    # Base, each component paid on its day (the registry's), the stock vests, then the total.
    assert list(monthly.columns) == [
        "base",
        *DATED_COMPONENTS,
        "equity_grants",
        "refreshers",
        "total",
        "grant_0",
        "grant_1",
    ]
    assert set(DATED_COMPONENTS) >= {"bonus", "sign_on", "relocation"}
    parts = monthly[["base", *DATED_COMPONENTS, "equity_grants", "refreshers"]]
    np.testing.assert_allclose(monthly["total"], parts.sum(axis=1))
    np.testing.assert_allclose(monthly["equity_grants"], monthly["grant_0"] + monthly["grant_1"])


def test_annualized_averages_over_grant_vesting_length():
    spec = package(
        horizon_years=6,
        sign_on=(SignOn(40_000),),
        grants=(Grant(shares=4000, schedule=YEARLY),),
        stock=Stock(price=10),
    )
    result = annualized(spec)
    assert result["first_year_total"] == pytest.approx(120_000 + 40_000 + 10_000)
    assert result["years_averaged"] == 4
    assert result["average_yearly_total"] == pytest.approx(120_000 + 10_000 + 40_000 / 4)
    assert annualized(package(horizon_years=3))["years_averaged"] == 3


def test_assumptions_describe_everything():
    spec = package(
        grants=(Grant(value=400_000, schedule=VESTING_PRESETS["google_33_33_22_12"]),),
        refreshers=(Refresher(50_000),),
        stock=Stock(price=100, growth_pct=5, ticker="ACME"),
        fx_to_home=0.9,
        tax_rate_pct=35,
    )
    info = assumptions(spec)
    grant = info["grants"][0]
    assert grant["value_at_grant"] == 400_000 and grant["value_per_year_at_grant"] == 100_000
    assert grant["schedule"] == "4 years: 33/33/22/12% per year, vesting monthly, no cliff"
    assert info["stock"]["projected_price_by_year"][0] == pytest.approx(105)
    assert info["fx_to_home"] == 0.9 and info["tax_rate_pct"] == 35
    assert info["equity_total"] == pytest.approx(sum(info["equity_by_year"]))
    assert info["refreshers"][0]["first_year"] == 2
    # The terms alone (what the export lists) are the same, without the projected equity.
    terms = assumption_terms(spec)
    assert terms == {k: v for k, v in info.items() if k not in ("equity_by_year", "equity_total")}
    # A caller that has the projection passes it: the same facts, projected once.
    yearly = project_yearly(spec)
    assert assumptions(spec, yearly) == info
    assert annualized(spec, yearly) == annualized(spec)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"horizon_years": 0}, "horizon_years"),
        ({"horizon_years": 11}, "horizon_years"),
        ({"base": -1}, "base"),
        ({"base": float("nan")}, "base"),
        ({"tax_rate_pct": 101}, "tax_rate_pct"),
        ({"fx_to_home": 0}, "fx_to_home"),
        ({"start": "2025-01-01"}, "start"),
        ({"grants": ("x",)}, "grants[0]"),
    ],
)
def test_invalid_package_raises_naming_field(overrides, field):
    with pytest.raises(EngineInputError) as info:
        package(**overrides)
    assert info.value.field == field


def test_invalid_parts_raise_naming_field():
    with pytest.raises(EngineInputError) as info:
        Grant(value=1, shares=1)
    assert info.value.field == "value"
    with pytest.raises(EngineInputError) as info:
        Grant()
    assert info.value.field == "value"
    with pytest.raises(EngineInputError) as info:
        Stock(price=0)
    assert info.value.field == "price"
    with pytest.raises(EngineInputError) as info:
        SignOn(100, year=0)
    assert info.value.field == "year"
    with pytest.raises(EngineInputError) as info:
        Refresher(-5)
    assert info.value.field == "yearly_value"


@st.composite
def packages(draw: st.DrawFn) -> PackageSpec:
    schedule = VestingSchedule(
        cliff_months=draw(st.sampled_from((0, 6, 12))),
        frequency_months=draw(st.sampled_from((1, 3, 6, 12))),
    )
    return package(
        horizon_years=draw(st.integers(1, 6)),
        base=draw(st.floats(0, 1e6)),
        raise_pct=draw(st.floats(0, 20)),
        bonus_target_pct=draw(st.floats(0, 50)),
        bonus_multiplier=draw(st.floats(0, 2)),
        sign_on=(SignOn(draw(st.floats(0, 1e5)), draw(st.integers(1, 3))),),
        grants=(Grant(value=draw(st.floats(0, 1e6)), schedule=schedule),),
        refreshers=(Refresher(draw(st.floats(0, 1e5)), schedule),),
        stock=Stock(price=draw(st.floats(1, 500)), growth_pct=draw(st.floats(-50, 50))),
    )


@settings(max_examples=40, deadline=None)
@given(packages(), st.floats(0, 1e5), st.floats(0, 1e6))
def test_totals_are_non_negative_and_grow_with_base_and_grant(spec, more_base, more_grant):
    yearly = project_yearly(spec)
    assert (yearly["total"] >= 0).all()
    assert (np.diff(yearly["cumulative"]) >= -1e-9).all()
    richer = dataclasses.replace(spec, base=spec.base + more_base)
    assert (project_yearly(richer)["total"] >= yearly["total"] - 1e-6).all()
    grant = spec.grants[0]
    bigger = dataclasses.replace(
        spec, grants=(dataclasses.replace(grant, value=grant.value + more_grant),)
    )
    assert (project_yearly(bigger)["total"] >= yearly["total"] - 1e-6).all()
