"""Progressive tax, checked by hand from the published brackets (arithmetic in each test).

Every figure below is computed from the table named in the data file's ``sources``; a test
passes within one unit of the currency.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import PackageSpec, SignOn, Stock, project_yearly
from compensation.engine.errors import EngineInputError
from compensation.engine.segments import Segment
from compensation.engine.tax.compute import (
    monthly_tax_and_contributions,
    top_rate,
    yearly_tax,
)
from compensation.engine.tax.tables import (
    DATA_DIR,
    TaxTableError,
    load_regimes,
    load_table,
    regime_get,
    regimes,
)
from compensation.engine.window import window_yearly

ONE_UNIT = 1.0


def tax(key: str, cash: float, equity: float = 0.0, year: int | None = None) -> float:
    return float(yearly_tax(regime_get(key), cash, equity, year))


# --- United States, 2025, single (2026's tables: test_tax_tables_2026.py) --------------------

# US federal on 200,000 of wages: taxable 200,000 - 15,750 = 184,250
#   10% x 11,925                        =  1,192.50
#   12% x (48,475 - 11,925 = 36,550)    =  4,386.00
#   22% x (103,350 - 48,475 = 54,875)   = 12,072.50
#   24% x (184,250 - 103,350 = 80,900)  = 19,416.00
#                                         37,067.00
# FICA: 6.2% x 176,100 (wage base) = 10,918.20; Medicare 1.45% x 200,000 = 2,900.00
#   (Additional Medicare starts above 200,000)                             13,818.20
FEDERAL_200K = 37_067.00
FICA_200K = 13_818.20


def test_california_and_us_federal_on_200k_of_wages():
    # California: taxable 200,000 - 5,706 = 194,294
    #   1% x 11,079                          =    110.79
    #   2% x (26,264 - 11,079 = 15,185)      =    303.70
    #   4% x (41,452 - 26,264 = 15,188)      =    607.52
    #   6% x (57,542 - 41,452 = 16,090)      =    965.40
    #   8% x (72,724 - 57,542 = 15,182)      =  1,214.56
    #   9.3% x (194,294 - 72,724 = 121,570)  = 11,306.01
    #                                          14,507.98
    # SDI 1.2% x 200,000 = 2,400
    expected = FEDERAL_200K + FICA_200K + 14_507.98 + 2_400.00  # 67,793.18
    assert tax("us-ca", 200_000, year=2025) == pytest.approx(expected, abs=ONE_UNIT)
    assert expected == pytest.approx(67_793.18)


def test_washington_and_us_federal_on_400k_has_additional_medicare():
    # Federal: taxable 400,000 - 15,750 = 384,250
    #   1,192.50 + 4,386.00 + 12,072.50
    #   + 24% x (197,300 - 103,350 = 93,950)   = 22,548.00
    #   + 32% x (250,525 - 197,300 = 53,225)   = 17,032.00
    #   + 35% x (384,250 - 250,525 = 133,725)  = 46,803.75
    #                                           104,034.75
    # FICA: 10,918.20 + 1.45% x 400,000 (5,800) + 0.9% x (400,000 - 200,000) (1,800)
    #                                            18,518.20
    # Washington: no income tax; WA Cares 0.58% x 400,000 = 2,320.00
    expected = 104_034.75 + 18_518.20 + 2_320.00  # 124,872.95
    assert tax("us-wa", 400_000, year=2025) == pytest.approx(expected, abs=ONE_UNIT)


def test_new_york_state_and_us_federal_on_400k():
    # NY: taxable 400,000 - 8,000 = 392,000
    #   4% x 8,500 = 340; 4.5% x 3,200 = 144; 5.25% x 2,200 = 115.50;
    #   5.5% x 66,750 = 3,671.25; 6% x 134,750 = 8,085;
    #   6.85% x (392,000 - 215,400 = 176,600) = 12,097.10          -> 24,452.85
    # Supplemental tax: NY AGI 400,000 is past 215,400 + 50,000, so the lower brackets'
    #   benefit is recaptured in full: 568 + 1,831 = 2,399              -> 26,851.85
    #   (= 6.85% x 392,000 = 26,852.00, less the statute's rounding of 2,399.15)
    expected = 104_034.75 + 18_518.20 + 26_851.85  # 149,404.80
    assert tax("us-ny", 400_000, year=2025) == pytest.approx(expected, abs=ONE_UNIT)


# --- Singapore resident, YA 2026 ---------------------------------------------------------------


def test_singapore_resident_matches_the_iras_table():
    # IRAS: tax on the first 280,000 is 36,550; on the first 500,000, 84,150.
    # 300,000 less 1,000 earned income relief = 299,000: 36,550 + 20% x 19,000 = 40,350
    assert tax("sg", 300_000) == pytest.approx(40_350, abs=ONE_UNIT)
    # 600,000 -> 599,000: 84,150 + 23% x 99,000 = 106,920
    assert tax("sg", 600_000) == pytest.approx(106_920, abs=ONE_UNIT)
    # 21,000 -> 20,000 chargeable: nothing
    assert tax("sg", 21_000) == 0.0


# --- Taiwan, 2026 income (the latest table; 2025's is in test_engine_tax_years.py) -------------


def test_taiwan_consolidated_income_tax():
    # 2026 amounts: net income 3,000,000 - (101,000 + 136,000 + 227,000) = 2,536,000
    #   5% x 610,000 = 30,500; 12% x 770,000 = 92,400; 20% x 1,156,000 = 231,200 -> 354,100
    # MOF's progressive difference for the 20% band: 2,536,000 x 20% - 153,100 = 354,100
    assert tax("tw", 3_000_000) == pytest.approx(354_100, abs=ONE_UNIT)
    assert float(yearly_tax(regime_get("tw"), 3_000_000, tax_year=2026)) == pytest.approx(354_100)
    # 6,000,000 -> 5,536,000 x 40% - 949,100 = 1,265,300
    assert tax("tw", 6_000_000) == pytest.approx(1_265_300, abs=ONE_UNIT)


# --- Hong Kong, 2025/26 --------------------------------------------------------------------------


def test_hong_kong_progressive_rates_when_lower():
    # Net income 600,000 - 18,000 MPF = 582,000; chargeable 582,000 - 132,000 = 450,000
    #   2% x 50,000 + 6% x 50,000 + 10% x 50,000 + 14% x 50,000 = 16,000
    #   + 17% x 250,000 = 42,500 -> 58,500; standard rate 15% x 582,000 = 87,300
    assert tax("hk", 600_000) == pytest.approx(58_500, abs=ONE_UNIT)


def test_hong_kong_standard_rate_when_lower():
    # Net income 9,982,000; progressive: 16,000 + 17% x (9,850,000 - 200,000) = 1,656,500
    # standard: 15% x 5,000,000 + 16% x 4,982,000 = 750,000 + 797,120 = 1,547,120
    assert tax("hk", 10_000_000) == pytest.approx(1_547_120, abs=ONE_UNIT)


# --- Mainland China, 2025 ------------------------------------------------------------------------


def test_china_wages_and_equity_incentives_taxed_separately():
    # Wages 600,000 - 60,000 = 540,000: 540,000 x 30% - 52,920 (quick deduction) = 109,080
    # Equity income 300,000 (no deduction): 300,000 x 20% - 16,920 = 43,080
    assert tax("cn", 600_000, 300_000) == pytest.approx(109_080 + 43_080, abs=ONE_UNIT)
    # The same 900,000 all as wages would be 840,000 x 35% - 85,920 = 208,080
    assert tax("cn", 900_000) == pytest.approx(208_080, abs=ONE_UNIT)


# --- Invariants ----------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(sorted(regimes())),
    income=st.floats(min_value=0, max_value=30_000_000),
    step=st.floats(min_value=1, max_value=1_000_000),
    kind=st.sampled_from(["cash", "equity"]),
)
def test_tax_is_monotone_and_its_marginal_rate_at_most_the_top_rate(key, income, step, kind):
    regime = regime_get(key)

    def on(x: float) -> float:
        return float(yearly_tax(regime, x, 0.0) if kind == "cash" else yearly_tax(regime, 0.0, x))

    low, high = on(income), on(income + step)
    assert high >= low - 1e-6
    assert high - low <= step * top_rate(regime, kind) + 1e-6  # float rounding at 10^7
    assert low <= income * top_rate(regime, kind) + 1e-6


@settings(max_examples=40, deadline=None)
@given(
    key=st.sampled_from(sorted(regimes())),
    cash=st.lists(st.floats(min_value=0, max_value=200_000), min_size=24, max_size=24),
    equity=st.lists(st.floats(min_value=0, max_value=300_000), min_size=24, max_size=24),
)
def test_monthly_shares_add_up_to_each_years_tax(key, cash, equity):
    regime = regime_get(key)
    years = np.repeat([2026, 2027], 12)
    c, e = np.array(cash), np.array(equity)
    out, contributions = monthly_tax_and_contributions(regime, years, c, e)

    def levied(pay: float, tax_year: int, deductible_only: bool) -> float:
        # Each month's contribution: rate x pay up to its wage ceiling, capped, nothing below
        # the floor. All the pay is ordinary wages here (no `ordinary` given): a contribution
        # on additional wages (CPF's on bonuses, Taiwan's supplementary premium) levies none.
        return sum(
            min(r.rate * min(pay, r.monthly_wage_ceiling or np.inf), r.monthly_cap or np.inf)
            for r in regime.for_year(tax_year).contributions
            if pay >= r.monthly_floor
            and r.levied_on != "additional"
            and (r.deductible or not deductible_only)
        )

    for tax_year, y in ((2026, slice(0, 12)), (2027, slice(12, 24))):
        deductible = sum(levied(pay, tax_year, True) for pay in c[y])
        expected = float(
            yearly_tax(regime, c[y].sum(), e[y].sum(), tax_year, deductible=deductible)
        )
        assert out[y].sum() == pytest.approx(expected, rel=1e-9, abs=1e-6)
        assert contributions[y] == pytest.approx([levied(pay, tax_year, False) for pay in c[y]])
    assert np.all(out >= 0)


def test_every_table_names_its_year_currency_status_and_official_source():
    for path in DATA_DIR.glob("*.toml"):
        if path.stem == "regimes":
            continue
        table = load_table(path)
        assert table.tax_year in (2025, 2026)
        assert table.currency in {"USD", "SGD", "TWD", "HKD", "CNY"}
        assert table.filing_status and table.sources
        assert all(s.startswith("https://") for s in table.sources)


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
key = "x_2025"
name = "X"
tax_year = 2025
year_label = "2025"
currency = "USD"
year_starts_month = 1
filing_status = "single"
sources = ["https://example.gov/x"]
[[parts]]
name = "income tax"
applies_to = "all"
deduction = 0
brackets = [[0, 10.0], [100, 20.0]]
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("[[0, 10.0], [100, 20.0]]", "[[0, 10.0], [50, 20.0], [40, 30.0]]"), "increase"),
        (("[[0, 10.0], [100, 20.0]]", "[[0, 10.0], [100, 120.0]]"), "percentage"),
        (('currency = "USD"', 'currency = "XYZ"'), "ISO 4217"),
        (('["https://example.gov/x"]', '["example.gov"]'), "sources"),
        (('applies_to = "all"', 'applies_to = "bonus"'), "applies_to"),
        (("tax_year = 2025\n", ""), "tax_year"),
        (('key = "x_2025"', 'key = "y_2025"'), "file name"),
    ],
)
def test_the_loader_refuses_a_malformed_table(tmp_path, change, message):
    path = _write(tmp_path, "x_2025", GOOD.replace(*change))
    with pytest.raises(TaxTableError, match=message):
        load_table(path)


def test_a_regime_refuses_unknown_tables_and_mixed_currencies(tmp_path):
    _write(tmp_path, "x_2025", GOOD)
    _write(tmp_path, "z_2025", GOOD.replace("x_2025", "z_2025").replace('"USD"', '"SGD"'))
    _write(tmp_path, "regimes", '[a]\nplace = "A"\ntables = ["x_2025", "nope"]\n')
    with pytest.raises(TaxTableError, match="unknown"):
        load_regimes(tmp_path)
    _write(tmp_path, "regimes", '[a]\nplace = "A"\ntables = ["x_2025", "z_2025"]\n')
    with pytest.raises(TaxTableError, match="currency"):
        load_regimes(tmp_path)
    _write(tmp_path, "regimes", '[a]\nplace = "A"\ntables = ["x_2025"]\n')
    assert load_regimes(tmp_path)["a"].label == "A 2025 tax"


def test_labels_say_the_place_and_the_year():
    assert regime_get("us-ca").label == "California + US federal 2025-2026 tax"
    assert regime_get("hk").label == "Hong Kong salaries tax 2025/26 tax"
    spec = PackageSpec(name="x", start=dt.date(2026, 1, 1), base=1.0, tax_rate_pct=30)
    assert spec.tax_words == "flat 30% (no tax table for this place)"
    sg = PackageSpec(
        name="x",
        start=dt.date(2025, 1, 1),
        horizon_years=1,
        base=1.0,
        tax_regime="sg",
        currency="SGD",
    )
    assert sg.tax_words == "Singapore resident YA 2026 tax"
    # Income of 2026 on is taxed by the latest table, and the words say so.
    later = PackageSpec(
        name="x", start=dt.date(2026, 1, 1), base=1.0, tax_regime="sg", currency="SGD"
    )
    assert later.tax_words == "Singapore resident YA 2026 tax (YA 2026 table used for YA 2027 on)"


def test_unknown_regime_and_needless_fx_are_input_errors():
    with pytest.raises(EngineInputError, match="tax_regime"):
        PackageSpec(name="x", start=dt.date(2026, 1, 1), base=1.0, tax_regime="mars")
    with pytest.raises(EngineInputError, match="fx_to_tax"):
        PackageSpec(
            name="x", start=dt.date(2026, 1, 1), base=1.0, tax_regime="us-ca", fx_to_tax=2.0
        )


# --- Tax years against the window ----------------------------------------------------------------


def test_monthly_tax_is_shared_in_proportion_to_income_within_each_year():
    regime = regime_get("sg")
    years = np.array([2025] * 12 + [2026] * 12)
    cash = np.full(24, 25_000.0)
    cash[5] += 300_000.0  # a large month in 2025
    out, _ = monthly_tax_and_contributions(regime, years, cash, np.zeros(24))
    # 2025: 600,000 -> 106,920, a 600,000 share each month by income
    assert out[:12].sum() == pytest.approx(106_920, abs=ONE_UNIT)
    assert out[5] == pytest.approx(106_920 * 325_000 / 600_000)
    # 2026: 300,000 -> 40,350
    assert out[12:].sum() == pytest.approx(40_350, abs=ONE_UNIT)


def _flat_stock() -> Stock:
    return Stock(price=1.0)


def test_a_window_starting_in_december_taxes_december_with_the_rest_of_its_year():
    # 240,000 a year in Washington from 1 Jan 2026; window 1 Dec 2026 for one year.
    spec = PackageSpec(
        name="wa",
        start=dt.date(2026, 1, 1),
        base=240_000.0,
        stock=_flat_stock(),
        tax_regime="us-wa",
    )
    ws = dt.date(2026, 12, 1)
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    # December 2026 carries 1/12 of 2026's tax on 240,000; Jan-Nov 2027, 11/12 of 2027's on
    # 240,000 (December 2027, after the window, is counted for the rate, not for the value).
    assert out["tax"][0] == pytest.approx(tax("us-wa", 240_000), abs=ONE_UNIT)


def test_a_new_job_from_july_is_taxed_on_its_part_year():
    # 120,000 a year from 1 Jul 2027 in Washington; window 1 Jan 2027 for one year: 2027's
    # income from this job is 6 x 10,000 = 60,000, taxed by the 2026 tables (the latest).
    # Federal: 60,000 - 16,100 = 43,900: 10% x 12,400 (1,240) + 12% x 31,500 (3,780) = 5,020
    # FICA: 6.2% + 1.45% of 60,000 = 4,590.00; WA Cares 0.58% = 348.00 -> 9,958.00
    spec = PackageSpec(
        name="new",
        start=dt.date(2027, 7, 1),
        base=120_000.0,
        stock=_flat_stock(),
        tax_regime="us-wa",
    )
    ws = dt.date(2027, 1, 1)
    out = window_yearly(
        [Segment(spec, dt.date(2027, 7, 1))], window_start=ws, years=1, prices=[np.ones(12)]
    )
    assert out["total"][0] == pytest.approx(60_000)
    assert out["tax"][0] == pytest.approx(9_958.00, abs=ONE_UNIT)


def test_hong_kong_tax_years_run_from_april():
    # HKD 1,200,000 a year from 1 Jan 2027 and a 600,000 sign-on in January; window one year
    # from 1 Jan 2027.
    # MPF: 1,500 a month (every month pays 30,000 or more; January's 700,000 too).
    # 2026/27 (to 31 Mar 2027): 3 x 100,000 + 600,000 = 900,000; MPF 3 x 1,500 = 4,500
    #   (three months of the job, not a year's 18,000); net 895,500; chargeable 763,500:
    #   progressive: 16,000 + 17% x (763,500 - 200,000) = 111,795 (standard 134,325)
    # 2027/28: 1,200,000 (Jan-Mar 2028 after the window count for the rate); MPF 18,000;
    #   net 1,182,000; progressive: 16,000 + 17% x 850,000 = 160,500 (standard 177,300);
    #   9/12 in the window = 120,375
    spec = PackageSpec(
        name="hk",
        start=dt.date(2027, 1, 1),
        base=1_200_000.0,
        currency="HKD",
        sign_on=(SignOn(600_000.0, 1),),
        stock=_flat_stock(),
        tax_regime="hk",
    )
    ws = dt.date(2027, 1, 1)
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(111_795 + 120_375, abs=ONE_UNIT)
    assert out["contributions"][0] == pytest.approx(12 * 1_500)


def test_the_regime_currency_is_reached_through_the_fx_rate():
    # USD 100,000 a year taxed in Singapore at 1 USD = 1.35 SGD: SGD 135,000 - 1,000 = 134,000
    #   7,950 (first 120,000) + 15% x 14,000 = 10,050 SGD = 10,050 / 1.35 = 7,444.44 USD
    spec = PackageSpec(
        name="sg",
        start=dt.date(2026, 1, 1),
        base=100_000.0,
        stock=_flat_stock(),
        tax_regime="sg",
        fx_to_tax=1.35,
    )
    ws = dt.date(2026, 1, 1)
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(10_050 / 1.35, abs=ONE_UNIT)
    # Home currency TWD at 32 per USD: the same tax, 32 times the number.
    home = PackageSpec(
        name="sg",
        start=dt.date(2026, 1, 1),
        base=100_000.0,
        stock=_flat_stock(),
        tax_regime="sg",
        fx_to_tax=1.35,
        fx_to_home=32.0,
    )
    out = window_yearly([Segment(home, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(32 * 10_050 / 1.35, abs=32 * ONE_UNIT)


def test_flat_rate_fallback_is_unchanged():
    spec = PackageSpec(
        name="flat",
        start=dt.date(2026, 1, 1),
        base=100_000.0,
        stock=_flat_stock(),
        tax_rate_pct=30.0,
    )
    ws = dt.date(2026, 1, 1)
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[np.ones(12)])
    assert out["tax"][0] == pytest.approx(30_000)


def test_simulated_paths_are_taxed_path_by_path():
    # Two price paths: the richer path pays more tax at a higher rate.
    from compensation.engine import Grant, VestingSchedule

    grant = Grant(
        shares=10_000.0,
        schedule=VestingSchedule(total_months=12, frequency_months=12, year_weights=(100.0,)),
    )
    spec = PackageSpec(
        name="g",
        start=dt.date(2026, 1, 1),
        horizon_years=1,
        base=0.0,
        grants=(grant,),
        stock=Stock(price=10.0, volatility_pct=30.0),
        tax_regime="us-wa",
    )
    ws = dt.date(2026, 1, 1)
    prices = np.vstack([np.full(12, 10.0), np.full(12, 40.0)])
    out = window_yearly([Segment(spec, ws)], window_start=ws, years=1, prices=[prices])
    assert out["tax"][:, 0] == pytest.approx(
        [tax("us-wa", 0, 100_000), tax("us-wa", 0, 400_000)], abs=ONE_UNIT
    )


def test_project_yearly_taxes_each_calendar_year():
    spec = PackageSpec(
        name="ca", start=dt.date(2026, 1, 1), horizon_years=1, base=200_000.0, tax_regime="us-ca"
    )
    yearly = project_yearly(spec)
    # 2026's tables (test_tax_tables_2026.py): federal 36,734 + FICA 14,339 + California
    # 14,507.98 (2025's brackets) + SDI 1.3% x 200,000 = 2,600 -> 68,180.98
    assert yearly["total_net"].iloc[0] == pytest.approx(200_000 - 68_180.98, abs=ONE_UNIT)
