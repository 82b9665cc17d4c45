"""Employee contributions, apart from income tax: Singapore's CPF, Taiwan's labour and health
insurance, Shanghai's social insurance and housing fund (and Hong Kong's MPF, in
test_engine_tax_years.py).

Every figure is computed by hand in the comments from the tables in
``compensation/engine/tax/data`` (each cites its official sources). Contributions are exact
to the cent; tax passes within one unit of the currency, as in test_engine_tax.py.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from compensation.engine import PackageSpec, SignOn, Stock, project_yearly
from compensation.engine.segments import Segment
from compensation.engine.tax.compute import (
    monthly_tax_and_contributions,
    yearly_contributions,
    yearly_tax,
)
from compensation.engine.tax.tables import TaxTableError, load_table, regime_get
from compensation.engine.window import window_yearly

ONE_UNIT = 1.0
CENT = 0.01


def one_year(spec: PackageSpec) -> dict[str, float]:
    """Return the first year's window figures (the window starting on the package start)."""
    ws = spec.start
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    return {k: float(v[0]) for k, v in out.items()}


def package(regime: str, currency: str, start: dt.date, base: float, **terms) -> PackageSpec:
    return PackageSpec(
        name=regime,
        start=start,
        horizon_years=1,
        currency=currency,
        base=base,
        stock=Stock(price=1.0),
        tax_regime=regime,
        **terms,
    )


# --- Singapore: CPF for citizens and PRs (sg-cpf), none on an Employment Pass (sg) ------------

# A citizen on SGD 120,000 a year of salary (10,000 a month) from 1 Jan 2026, with a 15 % bonus
# (18,000) paid on the year's last day, 31 Dec 2026; the 2026 CPF table:
#   ordinary wages: 20% x min(10,000, 8,000 ceiling) = 1,600 a month; x 12 = 19,200
#   additional wage ceiling: 102,000 - 12 x 8,000 (ordinary wages subject to CPF) = 6,000
#   additional wages (the bonus): 20% x min(18,000, 6,000) = 1,200
#   CPF: 19,200 + 1,200 = 20,400 (the most there is: 20% of the 102,000 annual ceiling)
# Tax (YA 2027, the resident rates): 138,000 - 20,400 CPF relief - 1,000 earned income relief
#   = 116,600 chargeable: 0% x 20,000 + 2% x 10,000 (200) + 3.5% x 10,000 (350)
#   + 7% x 40,000 (2,800) + 11.5% x 36,600 (4,209) = 7,559
# Take-home: 138,000 - 7,559 - 20,400 = 110,041
SG_CPF_2026 = 20_400.0
SG_TAX_2026_WITH_CPF = 7_559.0
# The same pay on an Employment Pass (`sg`): no CPF; 138,000 - 1,000 = 137,000 chargeable:
#   200 + 350 + 2,800 + 11.5% x 40,000 (4,600) + 15% x 17,000 (2,550) = 10,500;
#   take-home 127,500 (the CPF costs 20,400 of take-home and saves 2,941 of tax).
SG_TAX_2026_NO_CPF = 10_500.0


def singapore(regime: str, **terms) -> PackageSpec:
    terms.setdefault("bonus_target_pct", 15.0)
    return package(regime, "SGD", dt.date(2026, 1, 1), 120_000.0, **terms)


def test_cpf_for_a_citizen_on_120k_and_a_bonus_in_2026():
    out = one_year(singapore("sg-cpf"))
    assert out["total"] == pytest.approx(138_000)
    assert out["contributions"] == pytest.approx(SG_CPF_2026, abs=CENT)
    assert out["tax"] == pytest.approx(SG_TAX_2026_WITH_CPF, abs=ONE_UNIT)
    assert out["net"] == pytest.approx(110_041, abs=ONE_UNIT)
    yearly = project_yearly(singapore("sg-cpf"))
    assert yearly["contributions"].iloc[0] == pytest.approx(SG_CPF_2026, abs=CENT)
    assert yearly["total_net"].iloc[0] == pytest.approx(110_041, abs=ONE_UNIT)
    # The table functions say the same (the bonus paid in the year's last month).
    regime = regime_get("sg-cpf")
    assert float(yearly_contributions(regime, 120_000, 2026, additional=18_000)) == (
        pytest.approx(SG_CPF_2026)
    )
    assert float(
        yearly_tax(regime, 138_000, tax_year=2026, deductible=SG_CPF_2026)
    ) == pytest.approx(SG_TAX_2026_WITH_CPF, abs=ONE_UNIT)


def test_an_employment_pass_holder_pays_no_cpf():
    out = one_year(singapore("sg"))
    assert out["contributions"] == 0.0
    assert out["tax"] == pytest.approx(SG_TAX_2026_NO_CPF, abs=ONE_UNIT)
    assert out["net"] == pytest.approx(127_500, abs=ONE_UNIT)


def test_a_bonus_inside_the_additional_wage_ceiling_is_levied_in_full():
    # SGD 60,000 of salary (5,000 a month, under the ceiling) and a 20% bonus of 12,000:
    #   ordinary: 20% x 5,000 x 12 = 12,000; additional wage ceiling 102,000 - 60,000 = 42,000,
    #   so all the bonus: 20% x 12,000 = 2,400; CPF 14,400.
    spec = package("sg-cpf", "SGD", dt.date(2026, 1, 1), 60_000.0, bonus_target_pct=20.0)
    assert one_year(spec)["contributions"] == pytest.approx(14_400, abs=CENT)


@pytest.mark.parametrize(
    ("year", "cpf"),
    [
        (2025, 17_760.0),  # 20% x 7,400 (the 2025 ceiling) x 12
        (2026, 19_200.0),  # 20% x 8,000 (the 2026 ceiling) x 12
    ],
)
def test_each_year_has_its_own_ordinary_wage_ceiling(year, cpf):
    spec = package("sg-cpf", "SGD", dt.date(year, 1, 1), 120_000.0)
    assert one_year(spec)["contributions"] == pytest.approx(cpf, abs=CENT)


def test_a_window_across_two_calendar_years_takes_each_years_ceiling():
    # From 1 Jul 2025: July to December at 7,400, January to June 2026 at 8,000:
    #   6 x 1,480 + 6 x 1,600 = 8,880 + 9,600 = 18,480.
    spec = package("sg-cpf", "SGD", dt.date(2025, 7, 1), 120_000.0)
    assert one_year(spec)["contributions"] == pytest.approx(18_480, abs=CENT)


def test_cpf_ceilings_are_in_sgd_whatever_the_package_currency():
    # USD 90,000 at 1 USD = 1.35 SGD is SGD 10,125 a month, above the 8,000 ceiling:
    #   CPF SGD 19,200 a year = USD 19,200 / 1.35 = 14,222.22.
    spec = package("sg-cpf", "USD", dt.date(2026, 1, 1), 90_000.0, fx_to_tax=1.35)
    assert one_year(spec)["contributions"] == pytest.approx(19_200 / 1.35, abs=CENT)


def test_cpf_is_levied_apart_from_stock():
    # Stock vests are not wages for CPF: a grant changes the tax, never the CPF.
    from compensation.engine import Grant

    spec = singapore("sg-cpf", grants=(Grant(value=100_000.0),))
    out = one_year(spec)
    assert out["equity"] > 0
    assert out["contributions"] == pytest.approx(SG_CPF_2026, abs=CENT)


# --- Taiwan: labour, employment and health insurance, and the supplementary premium -----------

# TWD 6,400,000 in 2025: base 5,000,000 (416,667 a month) and a 28% bonus of 1,400,000 paid on
# 31 Dec 2025.
#   labour insurance 11.5% + employment insurance 1% = 12.5% of the insured salary, capped at
#     the top grade 45,800; the employee pays 20%: 45,800 x 2.5% = 1,145 a month; x 12 = 13,740
#   national health insurance: 5.17% of the insured amount, capped at the top grade 313,000
#     (NHIA's table from 1 Jan 2025); the employee pays 30% (no dependants):
#     313,000 x 1.551% = 4,854.63 a month; x 12 = 58,255.56
#   supplementary premium: 2.11% of the year's bonuses above 4 x 313,000 = 1,252,000:
#     2.11% x (1,400,000 - 1,252,000) = 2.11% x 148,000 = 3,122.80
#   contributions: 13,740 + 58,255.56 + 3,122.80 = 75,118.36
#   tax: 1,469,900, as on 6,400,000 of salary (test_engine_tax_years.py): the premiums are not
#     deducted (only as an itemised deduction, instead of the standard one assumed)
#   take-home: 6,400,000 - 1,469,900 - 75,118.36 = 4,854,981.64
TW_CONTRIBUTIONS = 75_118.36


def test_taiwan_insurance_and_the_supplementary_premium_on_6_4m_with_a_bonus():
    spec = package("tw", "TWD", dt.date(2025, 1, 1), 5_000_000.0, bonus_target_pct=28.0)
    out = one_year(spec)
    assert out["total"] == pytest.approx(6_400_000)
    assert out["contributions"] == pytest.approx(TW_CONTRIBUTIONS, abs=CENT)
    assert out["tax"] == pytest.approx(1_469_900, abs=ONE_UNIT)
    assert out["net"] == pytest.approx(4_854_981.64, abs=ONE_UNIT)
    assert float(
        yearly_contributions(regime_get("tw"), 5_000_000, 2025, additional=1_400_000)
    ) == pytest.approx(TW_CONTRIBUTIONS)
    yearly = project_yearly(spec)
    assert yearly["contributions"].iloc[0] == pytest.approx(TW_CONTRIBUTIONS, abs=CENT)
    assert yearly["total_net"].iloc[0] == pytest.approx(4_854_981.64, abs=ONE_UNIT)


def test_the_supplementary_premium_counts_the_years_bonuses_together():
    # TWD 600,000 of salary (50,000 a month), a 100,000 sign-on on 1 Jan 2025 and a 50% bonus
    # (300,000) on 31 Dec 2025:
    #   labour + employment insurance: 50,000 is above the 45,800 top grade: 13,740
    #   health insurance: 50,000 x 1.551% = 775.50 a month; x 12 = 9,306
    #   supplementary premium: 4 x 50,000 = 200,000 of the year's bonuses is exempt; the
    #     sign-on (100,000) is inside it; the bonus takes the running total to 400,000:
    #     2.11% x (400,000 - 200,000) = 4,220
    #   contributions: 13,740 + 9,306 + 4,220 = 27,266
    spec = package(
        "tw",
        "TWD",
        dt.date(2025, 1, 1),
        600_000.0,
        bonus_target_pct=50.0,
        sign_on=(SignOn(100_000.0, 1),),
    )
    assert one_year(spec)["contributions"] == pytest.approx(27_266, abs=CENT)


def test_taiwan_insurance_is_not_deducted_from_taxable_income():
    tw = regime_get("tw")
    assert not any(c.deductible for y in tw.years for c in y.contributions)
    # yearly_tax takes the deductible contributions of the pay by default: none here.
    assert float(yearly_tax(tw, 6_400_000, tax_year=2025)) == pytest.approx(1_469_900, abs=1)


# --- Shanghai: social insurance and housing fund (cn-sh); none in the IIT-only `cn` ------------

# CNY 600,000 of salary (50,000 a month) in 2025, above Shanghai's upper limit of 37,302:
#   each month 37,302 x 8% (pension) = 2,984.16, x 2% (medical) = 746.04,
#   x 0.5% (unemployment) = 186.51, x 7% (housing fund) = 2,611.14: 6,527.85; x 12 = 78,334.20
#   IIT: 600,000 - 60,000 basic deduction - 78,334.20 = 461,665.80 taxable:
#     3% x 36,000 (1,080) + 10% x 108,000 (10,800) + 20% x 156,000 (31,200)
#     + 25% x 120,000 (30,000) + 30% x 41,665.80 (12,499.74) = 85,579.74
#   take-home: 600,000 - 85,579.74 - 78,334.20 = 436,086.06
#   (the `cn` regime: nothing levied, 540,000 taxable, 109,080 of IIT, take-home 490,920)
CN_CONTRIBUTIONS = 78_334.20
CN_TAX = 85_579.74


def test_shanghai_social_insurance_and_housing_fund_above_the_cap():
    out = one_year(package("cn-sh", "CNY", dt.date(2025, 1, 1), 600_000.0))
    assert out["contributions"] == pytest.approx(CN_CONTRIBUTIONS, abs=CENT)
    assert out["tax"] == pytest.approx(CN_TAX, abs=ONE_UNIT)
    assert out["net"] == pytest.approx(436_086.06, abs=ONE_UNIT)
    regime = regime_get("cn-sh")
    assert float(yearly_contributions(regime, 600_000)) == pytest.approx(CN_CONTRIBUTIONS)
    assert float(yearly_tax(regime, 600_000)) == pytest.approx(CN_TAX, abs=ONE_UNIT)
    iit_only = one_year(package("cn", "CNY", dt.date(2025, 1, 1), 600_000.0))
    assert iit_only["contributions"] == 0.0
    assert iit_only["tax"] == pytest.approx(109_080, abs=ONE_UNIT)


def test_a_month_above_the_cap_pays_no_more_in_the_month_of_a_bonus():
    # A 100,000 payment on 1 Dec 2025 takes December to 150,000, still capped at 37,302: the
    # contributions stay 78,334.20. IIT: 700,000 - 60,000 - 78,334.20 = 561,665.80 taxable:
    #   1,080 + 10,800 + 31,200 + 30,000 + 30% x 141,665.80 (42,499.74) = 115,579.74
    spec = package(
        "cn-sh",
        "CNY",
        dt.date(2025, 1, 1),
        600_000.0,
        sign_on=(SignOn(100_000.0, 1, instalments=((11, 1.0),)),),
    )
    out = one_year(spec)
    assert out["contributions"] == pytest.approx(CN_CONTRIBUTIONS, abs=CENT)
    assert out["tax"] == pytest.approx(115_579.74, abs=ONE_UNIT)


# --- The rules themselves --------------------------------------------------------------------


def test_the_additional_wage_ceiling_fills_up_in_date_order():
    # Ordinary wages of 8,500 a month (8,000 levied) and bonuses of 4,000 in March and 4,000 in
    # December 2026: the ceiling is 102,000 - 96,000 = 6,000, so March's 4,000 is levied in
    # full (800) and December's only 2,000 of it (400).
    regime = regime_get("sg-cpf")
    ordinary = np.full(12, 8_500.0)
    bonus = np.zeros(12)
    bonus[[2, 11]] = 4_000.0
    _, levied = monthly_tax_and_contributions(
        regime, np.full(12, 2026), ordinary + bonus, np.zeros(12), ordinary=ordinary
    )
    expected = np.full(12, 1_600.0)
    expected[2] += 800.0
    expected[11] += 400.0
    assert levied == pytest.approx(expected)


TABLE = """
key = "x_2025"
name = "X"
tax_year = 2025
year_label = "2025"
currency = "SGD"
year_starts_month = 1
filing_status = "single"
sources = ["https://example.gov/x"]

[[contributions]]
name = "on salary"
rate = 20.0
levied_on = "ordinary"
monthly_wage_ceiling = 8000
deductible = true

[[contributions]]
name = "on bonus"
rate = 20.0
levied_on = "additional"
yearly_wage_ceiling = 102000
ceiling_less = "on salary"
deductible = true
"""


def test_a_table_of_contributions_alone_loads(tmp_path):
    (tmp_path / "x_2025.toml").write_text(TABLE, encoding="utf-8")
    table = load_table(tmp_path / "x_2025.toml")
    assert table.parts == ()
    assert [c.levied_on for c in table.contributions] == ["ordinary", "additional"]
    assert table.contributions[1].ceiling_less == "on salary"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('levied_on = "ordinary"', 'levied_on = "bonus"'), "levied_on"),
        (('ceiling_less = "on salary"', 'ceiling_less = "on stock"'), "earlier contribution"),
        (("yearly_wage_ceiling = 102000\n", ""), "needs a 'yearly_wage_ceiling'"),
        (("monthly_wage_ceiling = 8000", "monthly_wage_ceiling = 0"), "monthly_wage_ceiling"),
        (('name = "on bonus"', 'name = "on salary"'), "another contribution"),
        (
            ('ceiling_less = "on salary"', 'ceiling_less = "on salary"\nmonthly_cap = 100'),
            "monthly_cap",
        ),
        (('ceiling_less = "on salary"', 'ceiling_less = "on salary"\nexempt_multiple = 4'), "both"),
        (
            ("[[contributions]]", "[[nothing]]"),
            "part or contribution",
        ),
    ],
)
def test_the_loader_refuses_a_malformed_contribution_rule(tmp_path, change, message):
    (tmp_path / "x_2025.toml").write_text(TABLE.replace(*change), encoding="utf-8")
    with pytest.raises(TaxTableError, match=message):
        load_table(tmp_path / "x_2025.toml")
