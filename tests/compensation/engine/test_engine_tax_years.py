"""Tax by tax year: each year's own table, the boundary day of a tax year, contributions.

Every figure is computed by hand in the comments from the tables in
``compensation/engine/tax/data``; a test passes within one unit of the currency.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import numpy as np
import pytest

from compensation.engine import (
    EngineInputError,
    Grant,
    PackageSpec,
    SignOn,
    Stock,
    VestingSchedule,
    cli,
    project_yearly,
)
from compensation.engine.io import package_from_dict
from compensation.engine.segments import Segment
from compensation.engine.tax.compute import yearly_contributions, yearly_tax
from compensation.engine.tax.tables import TaxTableError, load_regimes, load_table, regime_get
from compensation.engine.window import window_yearly

ONE_UNIT = 1.0

# --- Taiwan: the 2025 table for 2025 income, the 2026 table for 2026 on -----------------------

# 2025 income (MOF amounts for 2025, the same as 2024's), single, salary only, TWD 6,400,000:
#   deductions: exemption 97,000 + standard 131,000 + salary special 218,000 = 446,000
#   taxable: 6,400,000 - 446,000 = 5,954,000
#    5% x   590,000                              =    29,500
#   12% x   740,000 (1,330,000 - 590,000)        =    88,800
#   20% x 1,330,000 (2,660,000 - 1,330,000)      =   266,000
#   30% x 2,320,000 (4,980,000 - 2,660,000)      =   696,000   (1,080,300 to 4,980,000)
#   40% x   974,000 (5,954,000 - 4,980,000)      =   389,600
#                                                  1,469,900
# The MOF's shortcut gives the same: 5,954,000 x 40% - 911,700 = 1,469,900, where the
# progressive difference of the 40% band is 4,980,000 x 40% - 1,080,300 = 911,700 (not
# 829,700: with that difference the shortcut would give 1,551,900, which no bracket gives).
TW_2025_ON_6_4M = 1_469_900.0
# 2026 income (MOF amounts for 2026): deductions 101,000 + 136,000 + 227,000 = 464,000
#   taxable: 6,400,000 - 464,000 = 5,936,000
#   5% x 610,000 = 30,500; 12% x 770,000 = 92,400; 20% x 1,390,000 = 278,000;
#   30% x 2,420,000 = 726,000 (1,126,900 to 5,190,000); 40% x 746,000 = 298,400
#                                                  1,425,300
#   (shortcut: 5,936,000 x 40% - 949,100 = 1,425,300)
TW_2026_ON_6_4M = 1_425_300.0
# Labour, employment and health insurance on 6,400,000 of salary (533,333 a month, above both
# top grades), the same in 2025 and 2026 and not deductible (tests/compensation/engine/
# test_engine_contributions.py): 12 x (45,800 x 2.5% + 313,000 x 1.551%), 313,000 being
# NHIA's top insured amount from 1 Jan 2025
#   = 12 x (1,145 + 4,854.63) = 13,740 + 58,255.56 = 71,995.56
TW_INSURANCE_ON_6_4M = 71_995.56


def taiwan(start: dt.date, years: int) -> PackageSpec:
    return PackageSpec(
        name="tw",
        start=start,
        horizon_years=years,
        currency="TWD",
        base=6_400_000.0,
        stock=Stock(price=1.0),
        tax_regime="tw",
    )


def test_taiwan_2025_income_is_taxed_by_the_2025_amounts():
    assert float(yearly_tax(regime_get("tw"), 6_400_000, tax_year=2025)) == pytest.approx(
        TW_2025_ON_6_4M, abs=ONE_UNIT
    )
    spec = taiwan(dt.date(2025, 1, 1), 1)
    net = project_yearly(spec)["total_net"].iloc[0]
    assert net == pytest.approx(6_400_000 - TW_2025_ON_6_4M - TW_INSURANCE_ON_6_4M, abs=ONE_UNIT)


def test_each_tax_year_takes_its_own_table_then_the_latest():
    # 2025 by the 2025 table, 2026 by 2026's, 2027 (no table yet) by the latest, 2026's.
    spec = taiwan(dt.date(2025, 1, 1), 3)
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=3, prices=[np.ones(36)])
    assert out["tax"] == pytest.approx(
        [TW_2025_ON_6_4M, TW_2026_ON_6_4M, TW_2026_ON_6_4M], abs=ONE_UNIT
    )
    yearly = project_yearly(spec)
    tax = yearly["total"] - yearly["total_net"] - yearly["contributions"]
    assert list(tax) == pytest.approx(list(out["tax"]), abs=0.01)
    assert out["contributions"] == pytest.approx([TW_INSURANCE_ON_6_4M] * 3)


def test_a_year_before_the_earliest_table_takes_the_earliest():
    spec = taiwan(dt.date(2024, 1, 1), 1)
    net = project_yearly(spec)["total_net"].iloc[0]
    assert net == pytest.approx(6_400_000 - TW_2025_ON_6_4M - TW_INSURANCE_ON_6_4M, abs=ONE_UNIT)


def test_the_words_say_which_years_table_applied():
    assert regime_get("tw").label == "Taiwan 2025-2026 tax"
    assert taiwan(dt.date(2025, 1, 1), 2).tax_words == "Taiwan 2025-2026 tax"
    assert (
        taiwan(dt.date(2026, 1, 1), 4).tax_words == "Taiwan 2026 tax (2026 table used for 2027 on)"
    )
    assert (
        taiwan(dt.date(2027, 3, 1), 2).tax_words == "Taiwan 2026 tax (2026 table used for 2027 on)"
    )
    assert (
        taiwan(dt.date(2024, 1, 1), 1).tax_words
        == "Taiwan 2025 tax (2025 table used for 2024 and before)"
    )
    # Hong Kong names its years 2025/26: a later year is named the same way.
    assert (
        regime_get("hk").label_for(2026, 2028)
        == "Hong Kong salaries tax 2025/26 tax (2025/26 table used for 2026/27 on)"
    )


TABLE = """
key = "{key}"
name = "X"
tax_year = {year}
year_label = "{year}"
currency = "USD"
year_starts_month = 1
filing_status = "single"
sources = ["https://example.gov/x"]
[[parts]]
name = "income tax"
applies_to = "all"
deduction = 0
brackets = [[0, {rate}]]
"""


def _table(tmp: Path, name: str, year: int, rate: float = 10.0) -> None:
    text = TABLE.format(key=f"{name}_{year}", year=year, rate=rate)
    (tmp / f"{name}_{year}.toml").write_text(text, encoding="utf-8")


def test_a_regime_needs_the_same_tables_every_year(tmp_path):
    _table(tmp_path, "fed", 2025)
    _table(tmp_path, "state", 2025)
    _table(tmp_path, "fed", 2026, rate=20.0)
    regimes_file = tmp_path / "regimes.toml"
    regimes_file.write_text(
        '[a]\nplace = "A"\ntables = ["fed_2025", "state_2025", "fed_2026"]\n', encoding="utf-8"
    )
    with pytest.raises(TaxTableError, match="same tables"):
        load_regimes(tmp_path)
    _table(tmp_path, "state", 2026, rate=5.0)
    regimes_file.write_text(
        '[a]\nplace = "A"\ntables = ["fed_2025", "state_2025", "fed_2026", "state_2026"]\n',
        encoding="utf-8",
    )
    regime = load_regimes(tmp_path)["a"]
    assert [y.tax_year for y in regime.years] == [2025, 2026]
    # 2025: 10% + 10%; 2026: 20% + 5%; 2030: 2026's
    assert float(yearly_tax(regime, 100.0, tax_year=2025)) == pytest.approx(20.0)
    assert float(yearly_tax(regime, 100.0, tax_year=2030)) == pytest.approx(25.0)


# --- A regime in another currency needs its exchange rate -------------------------------------


def test_a_regime_in_another_currency_refuses_a_missing_fx_to_tax():
    # USD pay taxed in Singapore without a rate would be taxed as if USD 1 were SGD 1.
    with pytest.raises(EngineInputError, match="fx_to_tax") as caught:
        PackageSpec(name="x", start=dt.date(2026, 1, 1), base=100_000.0, tax_regime="sg")
    assert caught.value.field == "fx_to_tax"
    assert "SGD" in caught.value.message and "USD" in caught.value.message
    with pytest.raises(EngineInputError, match="fx_to_tax"):
        package_from_dict({"name": "x", "start": "2026-01-01", "base": 100_000, "tax_regime": "sg"})
    given = PackageSpec(
        name="x", start=dt.date(2026, 1, 1), base=100_000.0, tax_regime="sg", fx_to_tax=1.35
    )
    assert given.to_tax_currency == 1.35
    # In the regime's own currency the rate may be left out: it is 1.
    same = PackageSpec(
        name="x", start=dt.date(2026, 1, 1), base=1.0, currency="SGD", tax_regime="sg"
    )
    assert same.to_tax_currency == 1.0


# --- The command line taxes as the board does ---------------------------------------------------

# A job already held: its grant has vested since June 2025, and the projection starts on
# 1 Dec 2026. Its 2026 tax year holds January to November's vests as well as December, so
# December is not taxed as if it were 2026's only income (the old projection did that: it
# printed a year-1 net about 3,200 higher than the window's).
HELD = {
    "name": "Held since 2025",
    "start": "2026-12-01",
    "horizon_years": 4,
    "currency": "USD",
    "base": 200000,
    "raise_pct": 3,
    "bonus_target_pct": 15,
    "grants": [
        {
            "value": 400000,
            "weights": [25, 25, 25, 25],
            "frequency_months": 3,
            "vest_start": "2025-06-01",
        }
    ],
    "stock": {"price": 100, "growth_pct": 5},
    "tax_regime": "us-ca",
    "fx_to_home": 1.5,
}


def test_the_cli_net_is_the_window_net_year_by_year(tmp_path, capsys):
    path = tmp_path / "held.json"
    path.write_text(json.dumps(HELD), encoding="utf-8")
    assert cli.main(["project", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    cli_net = [row["total_net_home"] for row in printed["years"]]
    spec = package_from_dict(HELD)
    prices = np.array([spec.stock.price_at_month(t) for t in range(1, spec.months + 1)])
    window = window_yearly(
        [Segment(spec, spec.start)], window_start=spec.start, years=4, prices=[prices]
    )
    assert cli_net == pytest.approx(list(window["net"]), abs=0.01)
    assert [row["total_home"] for row in printed["years"]] == pytest.approx(
        list(window["total"]), abs=0.01
    )


# --- A vest on a tax year's first day is taxed in that year -----------------------------------

ONE_YEAR_CLIFF = VestingSchedule(total_months=12, frequency_months=12, year_weights=(100.0,))


def test_a_vest_on_1_january_is_taxed_in_the_new_year():
    # USD 120,000 a year in Washington from 1 Jan 2026 and 100,000 shares at 1 vesting on
    # 1 Jan 2027 (start + 12 months). Window 1 Jan 2026, two years: the vest is on the first
    # window year's last day (it counts in year 1) but in tax year 2027. Both years are taxed
    # by the 2026 tables (2027 by the latest published).
    # 2026: 120,000 -> federal 103,900 taxable: 10% x 12,400 (1,240) + 12% x 38,000 (4,560)
    #   + 22% x 53,500 (11,770) = 17,570; FICA 7.65% x 120,000 = 9,180; WA Cares 0.58% = 696
    #   -> 27,446.00
    # 2027: 120,000 + 100,000 = 220,000 -> federal 203,900 taxable: 1,240 + 4,560
    #   + 22% x 55,300 (12,166) + 24% x 96,075 (23,058) + 32% x 2,125 (680) = 41,704;
    #   FICA 6.2% x 184,500 (11,439) + 2,900 + 2.35% x 20,000 (470) = 14,809;
    #   WA Cares 1,276 -> 57,789.00, borne 100 / 220 by the vest and 120 / 220 by 2027's pay
    # Year 1: 27,446.00 + 57,789.00 x 100 / 220 = 53,713.73 (taxing the vest in 2026 gave
    # 57,789.00); year 2: 57,789.00 x 120 / 220 = 31,521.27
    spec = PackageSpec(
        name="wa",
        start=dt.date(2026, 1, 1),
        horizon_years=2,
        base=120_000.0,
        grants=(Grant(shares=100_000.0, schedule=ONE_YEAR_CLIFF),),
        stock=Stock(price=1.0),
        tax_regime="us-wa",
    )
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=2, prices=[np.ones(24)])
    assert out["equity"] == pytest.approx([100_000, 0])
    assert out["tax"] == pytest.approx([53_713.73, 31_521.27], abs=ONE_UNIT)
    tax = project_yearly(spec)["total"] - project_yearly(spec)["total_net"]
    assert list(tax) == pytest.approx([53_713.73, 31_521.27], abs=ONE_UNIT)


def test_a_vest_on_1_april_is_taxed_in_hong_kongs_new_year():
    # HKD 600,000 a year from 1 Apr 2026 and 1,000,000 shares at 1 vesting on 1 Apr 2027, the
    # first day of 2027/28. Window 1 Apr 2026, two years. MPF: 1,500 a month (50,000 a
    # month is above the 30,000 where the cap binds), 18,000 a year.
    # 2026/27: 600,000 -> net 582,000, chargeable 450,000: 16,000 + 17% x 250,000 = 58,500
    #   (standard rate 15% x 582,000 = 87,300)
    # 2027/28: 600,000 + 1,000,000 -> net 1,582,000, chargeable 1,450,000:
    #   16,000 + 17% x 1,250,000 = 228,500 (standard 15% x 1,582,000 = 237,300), borne
    #   1,000 / 1,600 by the vest (142,812.50) and 600 / 1,600 by 2027/28's pay (85,687.50)
    # Year 1: 58,500 + 142,812.50 = 201,312.50 (taxing the vest in 2026/27 gave 228,500)
    spec = PackageSpec(
        name="hk",
        start=dt.date(2026, 4, 1),
        horizon_years=2,
        currency="HKD",
        base=600_000.0,
        grants=(Grant(shares=1_000_000.0, schedule=ONE_YEAR_CLIFF),),
        stock=Stock(price=1.0),
        tax_regime="hk",
    )
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=2, prices=[np.ones(24)])
    assert out["equity"] == pytest.approx([1_000_000, 0])
    assert out["tax"] == pytest.approx([201_312.50, 85_687.50], abs=ONE_UNIT)


def test_a_payment_before_new_year_in_a_month_mostly_after_it_stays_in_its_year():
    # A window from 15 Dec 2026: its first month runs 15 Dec 2026 to 14 Jan 2027 and is
    # December's pay (a month is in the tax year of its first day), and a USD 100,000 sign-on
    # paid on the start day, 15 Dec 2026, is 2026 income. The job starts 15 Dec with
    # USD 120,000 a year in Washington.
    # 2026: the sign-on and the month from 15 Dec, 100,000 + 10,000 = 110,000: federal 93,900
    #   taxable: 1,240 + 4,560 + 22% x 43,500 (9,570) = 15,370.00; FICA 7.65% x
    #   110,000 = 8,415; WA Cares 0.58% = 638 -> 24,423.00
    # 2027 (the 2026 tables): the months from 15 Jan 2027 to 15 Dec 2027 (the last one after
    #   the window), 120,000 -> 27,446.00 (test above), of which the window's 11 months bear
    #   11 / 12: 25,158.83
    spec = PackageSpec(
        name="wa",
        start=dt.date(2026, 12, 15),
        horizon_years=1,
        base=120_000.0,
        sign_on=(SignOn(100_000.0, 1),),
        stock=Stock(price=1.0),
        tax_regime="us-wa",
    )
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(24_423.00 + 25_158.83, abs=ONE_UNIT)


# --- Hong Kong MPF: 5% of each month's pay up to 1,500, deducted and paid out of take-home ----


def test_mpf_is_five_percent_of_pay_up_to_1500_a_month():
    hk = regime_get("hk")
    # HKD 240,000 = 20,000 a month: 5% = 1,000 a month, 12,000 a year (not 18,000).
    assert float(yearly_contributions(hk, 240_000)) == pytest.approx(12_000)
    # Tax: net income 240,000 - 12,000 = 228,000; chargeable 228,000 - 132,000 = 96,000:
    #   2% x 50,000 + 6% x 46,000 = 1,000 + 2,760 = 3,760 (standard 15% x 228,000 = 34,200)
    assert float(yearly_tax(hk, 240_000)) == pytest.approx(3_760, abs=ONE_UNIT)
    # HKD 1,000,000 = 83,333 a month: capped at 1,500 a month, 18,000 a year. Net income
    # 982,000, chargeable 850,000: 16,000 + 17% x 650,000 = 126,500 (standard 147,300)
    assert float(yearly_contributions(hk, 1_000_000)) == pytest.approx(18_000)
    assert float(yearly_tax(hk, 1_000_000)) == pytest.approx(126_500, abs=ONE_UNIT)
    # 84,000 = 7,000 a month, below the 7,100 minimum relevant income: no contribution.
    assert float(yearly_contributions(hk, 84_000)) == 0.0


def test_mpf_comes_off_take_home_pay_month_by_month():
    # HKD 240,000 a year from 1 Apr 2026 and a 100,000 sign-on on the first day; window and
    # 2026/27 tax year are the same twelve months.
    # MPF: April pays 120,000 -> capped at 1,500; May to March pay 20,000 -> 1,000 each:
    #   1,500 + 11 x 1,000 = 12,500 (5% of the year's 340,000 would be 17,000)
    # Tax: 340,000 - 12,500 = 327,500 net; chargeable 195,500: 1,000 + 3,000 + 5,000
    #   + 14% x 45,500 (6,370) = 15,370 (standard 15% x 327,500 = 49,125)
    # Take-home: 340,000 - 15,370 - 12,500 = 312,130
    spec = PackageSpec(
        name="hk",
        start=dt.date(2026, 4, 1),
        horizon_years=1,
        currency="HKD",
        base=240_000.0,
        sign_on=(SignOn(100_000.0, 1),),
        stock=Stock(price=1.0),
        tax_regime="hk",
    )
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["contributions"][0] == pytest.approx(12_500)
    assert out["tax"][0] == pytest.approx(15_370, abs=ONE_UNIT)
    assert out["net"][0] == pytest.approx(312_130, abs=ONE_UNIT)
    yearly = project_yearly(spec)
    assert yearly["contributions"].iloc[0] == pytest.approx(12_500)
    assert yearly["tax"].iloc[0] == pytest.approx(15_370, abs=ONE_UNIT)
    assert yearly["total_net"].iloc[0] == pytest.approx(312_130, abs=ONE_UNIT)


def test_no_contributions_without_a_table_that_levies_them():
    # Singapore's `sg` (an Employment Pass holder) levies no CPF.
    spec = PackageSpec(
        name="sg",
        start=dt.date(2025, 1, 1),
        horizon_years=1,
        currency="SGD",
        base=120_000.0,
        stock=Stock(price=1.0),
        tax_regime="sg",
    )
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["contributions"][0] == 0.0
    assert out["net"][0] == pytest.approx(out["total"][0] - out["tax"][0])


CONTRIBUTION = """
[[contributions]]
name = "fund"
rate = 5.0
monthly_cap = 1500
monthly_floor = 7100
deductible = true
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("rate = 5.0", "rate = 105.0"), "percentage"),
        (("monthly_cap = 1500", "monthly_cap = -1"), "monthly_cap"),
        (("monthly_floor = 7100", "monthly_floor = -1"), "monthly_floor"),
        (("deductible = true", 'deductible = "yes"'), "deductible"),
        (('name = "fund"\n', ""), "name"),
    ],
)
def test_the_loader_refuses_a_malformed_contribution(tmp_path, change, message):
    text = TABLE.format(key="x_2025", year=2025, rate=10.0) + CONTRIBUTION.replace(*change)
    (tmp_path / "x_2025.toml").write_text(text, encoding="utf-8")
    with pytest.raises(TaxTableError, match=message):
        load_table(tmp_path / "x_2025.toml")


# --- The first tax year includes the months before the decision date -------------------------

# SGD 120,000 a year (10,000 a month, no raise, no bonus, no stock), regime `sg`, the package
# held from the decision date 1 July 2025, a one-year window (1 Jul 2025 - 30 Jun 2026).
# Singapore's 2025 and 2026 tables are the same: relief 1,000; on SGD 120,000 of income
#   taxable 119,000: 2% x 10,000 = 200; 3.5% x 10,000 = 350; 7% x 40,000 = 2,800;
#   11.5% x 39,000 = 4,485                                          -> 7,835
# 2025: Jan-Jun earned at the current job too (6 x 10,000), so the year's income is 120,000:
#   tax 7,835, of which the window's Jul-Dec (60,000 of 120,000) = 3,917.50
# 2026: Jan-Jun in the window, Jul-Dec after it (the same pay): 7,835 x 1/2 = 3,917.50
# Year 1: 3,917.50 + 3,917.50 = 7,835.
# Before the fix 2025 saw only Jul-Dec: taxable 59,000: 200 + 350 + 7% x 19,000 = 1,880,
# all of it the window's: year 1 = 1,880 + 3,917.50 = 5,797.50 (understated by 2,037.50).
SG_CURRENT_YEAR_1 = 3_917.50 + 3_917.50
SG_NEW_JOB_YEAR_1 = 1_880.0 + 3_917.50


def singapore_from(start: dt.date) -> PackageSpec:
    return PackageSpec(
        name="sg",
        start=start,
        horizon_years=1,
        currency="SGD",
        base=120_000.0,
        raise_pct=0.0,
        stock=Stock(price=1.0),
        tax_regime="sg",
    )


def test_the_current_jobs_first_tax_year_counts_the_months_before_the_decision_date():
    decision = dt.date(2025, 7, 1)
    spec = singapore_from(decision)  # the current job's package starts on the decision date
    out = window_yearly(
        [Segment(spec, decision, current=True)],
        window_start=decision,
        years=1,
        prices=[np.ones(12)],
    )
    assert out["total"][0] == pytest.approx(120_000.0)
    assert out["tax"][0] == pytest.approx(SG_CURRENT_YEAR_1, abs=ONE_UNIT)
    # The same job with its package started years ago is taxed the same: nothing depends on
    # the day its package was entered.
    older = singapore_from(dt.date(2020, 7, 1))
    out = window_yearly(
        [Segment(older, decision, current=True)],
        window_start=decision,
        years=1,
        prices=[np.ones(12)],
    )
    assert out["tax"][0] == pytest.approx(SG_CURRENT_YEAR_1, abs=ONE_UNIT)


def test_a_new_job_from_the_decision_date_has_no_pay_before_it():
    # A new job starting on the decision date says nothing of what was earned before it
    # (perhaps in another country): its first tax year is its own months (hand figures above).
    decision = dt.date(2025, 7, 1)
    out = window_yearly(
        [Segment(singapore_from(decision), decision)],
        window_start=decision,
        years=1,
        prices=[np.ones(12)],
    )
    assert out["tax"][0] == pytest.approx(SG_NEW_JOB_YEAR_1, abs=ONE_UNIT)
