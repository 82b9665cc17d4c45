"""The 2026 tables (US federal, FICA, California, New York, Washington), New York's
supplemental tax and Taiwan's national health insurance top grade, checked by hand.

Every figure is computed in the comments from the official publications the data files cite
(``compensation/engine/tax/data/*_2026.toml``): IRS Rev. Proc. 2025-32, SSA's 2026 fact
sheet, EDD's 2026 SDI rate, New York's FY2026 budget (S3009C) and NHIA's insured amount table.
Tax passes within one unit of the currency, contributions to the cent.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from compensation.engine import PackageSpec, Stock
from compensation.engine.segments import Segment
from compensation.engine.tax.compute import (
    column_contributions,
    year_tax_parts,
    yearly_contributions,
    yearly_tax,
)
from compensation.engine.tax.tables import regime_get
from compensation.engine.window import window_yearly

ONE_UNIT = 1.0
CENT = 0.01


def parts(key: str, cash: float, tax_year: int) -> dict[str, float]:
    """Return each part's tax on ``cash`` of wages in ``tax_year``, by the part's name."""
    year = regime_get(key).for_year(tax_year)
    assert year.tax_year == tax_year  # the year's own tables, not another year's
    return {p.name: p.tax for p in year_tax_parts(year, cash, 0.0)}


# --- US federal and FICA, 2026, single ----------------------------------------------------------

# Federal on 200,000 of wages in 2026: taxable 200,000 - 16,100 = 183,900
#   10% x 12,400                         =  1,240.00
#   12% x (50,400 - 12,400 = 38,000)     =  4,560.00
#   22% x (105,700 - 50,400 = 55,300)    = 12,166.00
#   24% x (183,900 - 105,700 = 78,200)   = 18,768.00
#                                          36,734.00  (2025's tables: 37,067.00)
FEDERAL_200K = 36_734.00
# Social Security 6.2% x 184,500 (the 2026 wage base) = 11,439.00 (2025: 10,918.20)
# Medicare 1.45% x 200,000 = 2,900.00 (the Additional Medicare Tax starts above 200,000)
SOCIAL_SECURITY_200K = 11_439.00
MEDICARE_200K = 2_900.00


def test_federal_income_tax_and_fica_on_200k_in_2026():
    taxes = parts("us-wa", 200_000, 2026)
    assert taxes["federal income tax"] == pytest.approx(FEDERAL_200K, abs=CENT)
    assert taxes["Social Security"] == pytest.approx(SOCIAL_SECURITY_200K, abs=CENT)
    assert taxes["Medicare and Additional Medicare"] == pytest.approx(MEDICARE_200K, abs=CENT)
    # Washington: WA Cares 0.58% x 200,000 = 1,160
    assert taxes["WA Cares premium"] == pytest.approx(1_160.00, abs=CENT)


def test_the_top_federal_bracket_and_the_wage_base_in_2026():
    # 1,000,000 of wages: taxable 983,900:
    #   1,240 + 4,560 + 12,166 + 24% x 96,075 (23,058) + 32% x 54,450 (17,424)
    #   + 35% x (640,600 - 256,225 = 384,375) (134,531.25) + 37% x (983,900 - 640,600 =
    #   343,300) (127,021) = 320,000.25 (192,979.25 on the first 640,600)
    # Social Security stops at the wage base: 6.2% x 184,500 = 11,439
    # Medicare 2,900 + 2.35% x 800,000 (18,800) = 21,700
    taxes = parts("us-ca", 1_000_000, 2026)
    assert taxes["federal income tax"] == pytest.approx(320_000.25, abs=CENT)
    assert taxes["Social Security"] == pytest.approx(11_439.00, abs=CENT)
    assert taxes["Medicare and Additional Medicare"] == pytest.approx(21_700.00, abs=CENT)


# --- California, 2026: SDI 1.3%; the brackets are 2025's (no 2026 schedule verified) -------------


def test_california_2026_sdi_is_1_3_percent_on_2025s_brackets():
    # California: taxable 200,000 - 5,706 = 194,294 on 2025's schedule X
    #   110.79 + 303.70 + 607.52 + 965.40 + 1,214.56 + 9.3% x 121,570 (11,306.01) = 14,507.98
    # SDI 1.3% x 200,000 = 2,600 (2025: 1.2%, 2,400)
    taxes = parts("us-ca", 200_000, 2026)
    assert taxes["California income tax"] == pytest.approx(14_507.98, abs=CENT)
    assert taxes["California SDI"] == pytest.approx(2_600.00, abs=CENT)
    # All of it: 36,734 + 11,439 + 2,900 + 14,507.98 + 2,600 = 68,180.98 (2025: 67,793.18)
    total = float(yearly_tax(regime_get("us-ca"), 200_000, tax_year=2026))
    assert total == pytest.approx(68_180.98, abs=ONE_UNIT)
    assert float(yearly_tax(regime_get("us-ca"), 200_000, tax_year=2025)) == pytest.approx(
        67_793.18, abs=ONE_UNIT
    )


# --- A 2026 window month is taxed by the 2026 table, and the words say which table ----------------


def washington(start: dt.date, years: int) -> PackageSpec:
    return PackageSpec(
        name="wa",
        start=start,
        horizon_years=years,
        base=200_000.0,
        stock=Stock(price=1.0),
        tax_regime="us-wa",
    )


def test_a_2026_window_is_taxed_by_the_2026_tables_and_says_so():
    # 200,000 of 2026 wages in Washington: 36,734 + 11,439 + 2,900 + 1,160 = 52,233.00
    # (2025's tables gave 37,067 + 10,918.20 + 2,900 + 1,160 = 52,045.20)
    spec = washington(dt.date(2026, 1, 1), 1)
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(52_233.00, abs=ONE_UNIT)
    assert spec.tax_words == "Washington + US federal 2026 tax"
    assert washington(dt.date(2026, 12, 1), 2).tax_words == (
        "Washington + US federal 2026 tax (2026 table used for 2027 on)"
    )
    # June 2025 to May 2027: 2025 and 2026 by their own tables, 2027 by 2026's.
    assert washington(dt.date(2025, 6, 1), 2).tax_words == (
        "Washington + US federal 2025-2026 tax (2026 table used for 2027 on)"
    )
    assert washington(dt.date(2025, 1, 1), 2).tax_words == "Washington + US federal 2025-2026 tax"
    assert regime_get("us-ny").label == "New York State + US federal (not NYC) 2025-2026 tax"


# --- New York: the 2026 rates and the supplemental tax (tax benefit recapture) ----------------------

# The 2026 schedule (S3009C): 3.9% to 8,500, 4.4% to 11,700, 5.15% to 13,900, 5.4% to 80,650,
# 5.9% to 215,400, 6.85% to 1,077,550, 9.65% to 5,000,000, 10.3% to 25,000,000, 10.9% above.
#   tax on the first 80,650: 331.50 + 140.80 + 113.30 + 3,604.50 = 4,190.10
#   on the first 215,400: 4,190.10 + 5.9% x 134,750 (7,950.25) = 12,140.35
#   on the first 1,077,550: 12,140.35 + 6.85% x 862,150 (59,057.275) = 71,197.625
# 1,500,000 of wages: taxable 1,492,000: 71,197.625 + 9.65% x 414,450 (39,994.425) = 111,192.05
# NY AGI 1,500,000 is past 1,077,550 + 50,000: the benefit of the lower brackets is recaptured
# in full, 567 + 2,047 + 30,172 = 32,786: 143,978.05, which is 9.65% of ALL the taxable income
# (9.65% x 1,492,000 = 143,978.00, the statute's amounts being rounded to the dollar).
NY_MAIN_2026_1_5M = 111_192.05
NY_SUPPLEMENTAL_2026_1_5M = 32_786.00


def test_new_york_at_1_5m_pays_the_top_rate_on_all_its_income():
    taxes = parts("us-ny", 1_500_000, 2026)
    assert taxes["New York State income tax"] == pytest.approx(NY_MAIN_2026_1_5M, abs=CENT)
    assert taxes["New York supplemental tax"] == pytest.approx(NY_SUPPLEMENTAL_2026_1_5M, abs=CENT)
    ny = taxes["New York State income tax"] + taxes["New York supplemental tax"]
    assert ny == pytest.approx(0.0965 * 1_492_000, abs=ONE_UNIT)
    # 2025 (the 4% to 6% rates): 71,413.025 + 39,994.425 = 111,407.45 of the schedule, which
    # left out 2,399 + 30,172 = 32,571 of supplemental tax: 143,978.45
    taxes_2025 = parts("us-ny", 1_500_000, 2025)
    assert taxes_2025["New York State income tax"] == pytest.approx(111_407.45, abs=CENT)
    assert taxes_2025["New York supplemental tax"] == pytest.approx(32_571.00, abs=CENT)


def test_new_yorks_recapture_phases_in_over_50000_of_agi():
    # 150,000 of wages in 2026: taxable 142,000, NY AGI 150,000, in the 5.9% bracket:
    #   schedule 4,190.10 + 5.9% x 61,350 (3,619.65) = 7,809.75
    #   supplemental 567 x (150,000 - 107,650) / 50,000 = 567 x 0.847 = 480.249
    taxes = parts("us-ny", 150_000, 2026)
    assert taxes["New York State income tax"] == pytest.approx(7_809.75, abs=CENT)
    assert taxes["New York supplemental tax"] == pytest.approx(480.25, abs=CENT)
    # Below NY AGI 107,650 there is none: 100,000 of wages.
    assert parts("us-ny", 100_000, 2026)["New York supplemental tax"] == 0.0
    # 300,000 (AGI past 215,400 + 50,000): 567 + 2,047 = 2,614 in full. Taxable 292,000:
    #   12,140.35 + 6.85% x 76,600 (5,247.10) = 17,387.45, + 2,614 = 20,001.45 (6.85% of all of
    #   it is 20,002.00)
    assert parts("us-ny", 300_000, 2026)["New York supplemental tax"] == pytest.approx(2_614.00)
    # Above AGI 25,000,000, 10.9% of all the taxable income: 30,000,000 of wages, taxable
    # 29,992,000 x 10.9% = 3,269,128.00
    high = parts("us-ny", 30_000_000, 2026)
    ny = high["New York State income tax"] + high["New York supplemental tax"]
    assert ny == pytest.approx(0.109 * 29_992_000, abs=ONE_UNIT)


# New York's supplemental tax as Tax Law 601(d-1) to (d-4) word it (PolicyEngine-US's
# ny_supplemental_tax with the same amounts): in the bracket the taxable income reaches, the
# lower brackets' benefit recaptured so far plus the bracket's increment times the part of
# 50,000 of NY AGI above the bracket's start (107,650 at least); above AGI 25,000,000, 10.9%
# of the taxable income less the schedule's tax.
RECAPTURE = {  # (bracket start, recaptured below it, the bracket's increment)
    2025: ((0.0, 0.0, 568.0), (215_400.0, 568.0, 1_831.0), (1_077_550.0, 2_399.0, 30_172.0),
           (5_000_000.0, 32_571.0, 32_500.0)),
    2026: ((0.0, 0.0, 567.0), (215_400.0, 567.0, 2_047.0), (1_077_550.0, 2_614.0, 30_172.0),
           (5_000_000.0, 32_786.0, 32_500.0)),
}  # fmt: skip
PHASE_STARTS = (0.0, 8_500.0, 11_700.0, 13_900.0, 80_650.0, 215_400.0, 1_077_550.0, 5e6, 25e6)


def statute_supplemental(wages: float, tax_year: int, schedule_tax: float) -> float:
    agi, taxable = wages, wages - 8_000.0
    if agi <= 107_650:
        return 0.0
    if agi > 25_000_000:
        return 0.109 * taxable - schedule_tax
    start, before, increment = [b for b in RECAPTURE[tax_year] if b[0] <= taxable][-1]
    bracket_start = max(s for s in PHASE_STARTS if s <= taxable)
    fraction = min(1.0, max(0.0, agi - max(bracket_start, 107_650)) / 50_000)
    return before + increment * fraction


@pytest.mark.parametrize("tax_year", [2025, 2026])
def test_the_supplemental_brackets_are_the_statutes_outside_the_catch_up_strips(tax_year):
    # The brackets catch the statute's jumps at a bracket's start up with 100% of the first
    # 304.10 / 341.50, 12,173.49, 14,857.14 and 149,999.55 / .95 of taxable income above
    # 215,400, 1,077,550, 5,000,000 and 24,992,000 (the data file's comment): everywhere
    # else they are the statute's, to the cent.
    strips = [(215_400, 342), (1_077_550, 12_174), (5_000_000, 14_858), (24_992_000, 150_000)]
    for wages in np.linspace(8_000, 30_000_000, 3_001):
        taxable = wages - 8_000
        if any(s <= taxable <= s + w for s, w in strips):
            continue
        taxes = parts("us-ny", float(wages), tax_year)
        expected = statute_supplemental(wages, tax_year, taxes["New York State income tax"])
        assert taxes["New York supplemental tax"] == pytest.approx(expected, abs=CENT), wages


# --- Taiwan: national health insurance up to NHIA's top grade of 313,000 ------------------------

# TWD 250,000 a month of salary (3,000,000 a year), above the old top grade of 219,500 and
# below the new one of 313,000 (NHIA's insured amount table from 1 Jan 2025):
#   national health insurance: 250,000 x 5.17% x 30% (the employee's share) x (1 + 0
#   dependants: the engine models the insured alone) = 250,000 x 1.551% = 3,877.50 a month,
#   x 12 = 46,530.00 (capped at 219,500 it was 3,404.445 a month, 40,853.34: 5,676.66 a year
#   low)
#   labour and employment insurance: 45,800 x 2.5% = 1,145 a month, 13,740 a year
# A 1,500,000 bonus paid in December: the supplementary premium exempts 4 x the insured
#   amount, 4 x 250,000 = 1,000,000 (878,000 at the old cap): 2.11% x 500,000 = 10,550.00
#   (2.11% x 622,000 = 13,124.20 at the old cap)
NHI_250K = 46_530.00


@pytest.mark.parametrize("tax_year", [2025, 2026])
def test_taiwans_health_insurance_reaches_the_313000_grade(tax_year):
    tw = regime_get("tw")
    salary = np.full(12, 250_000.0)
    cash = salary.copy()
    cash[-1] += 1_500_000.0
    _, _, by_rule = column_contributions(tw, np.full(12, tax_year), cash, ordinary=salary)
    nhi, insured = by_rule[tax_year, "national health insurance"]
    assert insured == pytest.approx(salary)  # the whole salary is insured
    assert float(nhi.sum()) == pytest.approx(NHI_250K, abs=CENT)
    premium, _ = by_rule[tax_year, "NHI supplementary premium"]
    assert float(premium.sum()) == pytest.approx(10_550.00, abs=CENT)
    # All the contributions: 13,740 + 46,530 + 10,550 = 70,820.00
    levied = yearly_contributions(tw, 3_000_000, tax_year, additional=1_500_000)
    assert float(levied) == pytest.approx(70_820.00, abs=CENT)


def test_above_the_top_grade_the_insured_amount_and_the_exemption_stop_at_313000():
    # 400,000 a month: insured 313,000: 313,000 x 1.551% = 4,854.63 a month (NHIA's premium
    # table for employees: 4,855), 58,255.56 a year; a 1,500,000 bonus pays on the part above
    # 4 x 313,000 = 1,252,000: 2.11% x 248,000 = 5,232.80.
    # 13,740 + 58,255.56 + 5,232.80 = 77,228.36
    tw = regime_get("tw")
    levied = yearly_contributions(tw, 4_800_000, 2026, additional=1_500_000)
    assert float(levied) == pytest.approx(77_228.36, abs=CENT)
