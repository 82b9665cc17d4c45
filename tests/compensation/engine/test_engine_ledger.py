"""The ledger (compensation/engine/ledger.py): every line a calculator rebuilds, adding up to
the window's figures (`window.window_yearly`) to the unit, after tax and gross."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import (
    BonusCycle,
    Grant,
    PackageSpec,
    Refresher,
    SignOn,
    Stock,
    VestingSchedule,
)
from compensation.engine.errors import EngineInputError
from compensation.engine.ledger import window_ledger
from compensation.engine.segments import Segment
from compensation.engine.tax.compute import bracket_slices, bracket_tax
from compensation.engine.tax.tables import regimes
from compensation.engine.window import percentile_prices, window_yearly

QUARTERLY = VestingSchedule(frequency_months=3)
JAN_2026 = dt.date(2026, 1, 1)


def sgd_offer(**kw: object) -> PackageSpec:
    """SGD 240,000 base; 4,000 USD-priced shares vesting 250 a quarter; 1 SGD = 24 TWD and
    1 USD = 4/3 SGD (so 32 TWD); a 25 % liquidity discount; Singapore resident tax."""
    args: dict[str, object] = {
        "name": "sg",
        "start": JAN_2026,
        "currency": "SGD",
        "base": 240_000.0,
        "grants": (Grant(shares=4000.0, schedule=QUARTERLY),),
        "stock": Stock(price=100.0, currency="USD", fx_to_package=4 / 3, liquidity_discount_pct=25),
        "fx_to_home": 24.0,
        "tax_regime": "sg",
    }
    args.update(kw)
    return PackageSpec(**args)  # type: ignore[arg-type]


def both(segments, window_start, years=4, prices=None, currency="TWD"):
    months = 12 * years
    if prices is None:
        prices = [percentile_prices(s.spec.stock, months) for s in segments]
    yearly = window_yearly(segments, window_start=window_start, years=years, prices=prices)
    ledger = window_ledger(
        segments, window_start=window_start, years=years, prices=prices, currency=currency
    )
    return yearly, ledger


def assert_adds_up(yearly, ledger) -> None:
    """The ledger's lines add up to the window's figures, year by year, net and gross."""
    for year in range(1, ledger.years + 1):
        assert ledger.total(year=year) == pytest.approx(yearly["net"][year - 1], abs=1e-6)
        assert ledger.total(after_tax=False, year=year) == pytest.approx(
            yearly["total"][year - 1], abs=1e-6
        )
    assert round(ledger.total()) == round(float(yearly["net"].sum()))
    for line in ledger.lines:
        product = line.quantity * line.unit_price * line.share * line.fx
        assert abs(line.amount) == pytest.approx(product, rel=1e-9, abs=1e-9), line
        assert (line.amount < 0) == (line.component in ("tax", "contributions")), line


def test_a_hand_built_offer_line_by_line():
    segments = [Segment(sgd_offer(), JAN_2026)]
    flat = [np.full(48, 100.0)]  # the assumed price at 0 % growth: USD 100 throughout
    yearly, ledger = both(segments, JAN_2026, prices=flat)
    assert_adds_up(yearly, ledger)
    base = [x for x in ledger.lines if x.item == "base"]
    # 12 months x SGD 20,000 x 24 = TWD 5,760,000 in each of the four years.
    assert [(x.quantity, x.unit_price, x.fx, x.amount) for x in base] == [
        (12.0, 20_000.0, 24.0, pytest.approx(5_760_000.0))
    ] * 4
    vests = [x for x in ledger.lines if x.item == "grant_vest"]
    # 16 quarterly vests (1 Apr 2026 to 1 Jan 2030), each 250 x USD 100 x 32 x (1 - 25 %)
    # = TWD 600,000.
    assert len(vests) == 16 and vests[0].day == dt.date(2026, 4, 1)
    assert vests[-1].day == dt.date(2030, 1, 1)
    for vest in vests:
        assert (vest.quantity, vest.unit_price, vest.share) == (250.0, 100.0, 0.75)
        assert vest.fx == pytest.approx(32.0)
        assert vest.amount == pytest.approx(600_000.0)
        # Taxed at its full value: 250 x USD 100 x 32 = TWD 800,000.
        assert vest.taxable == pytest.approx(800_000.0)
    # Gross: 4 x 5,760,000 + 16 x 600,000 = 32,640,000.
    assert ledger.total(after_tax=False) == pytest.approx(32_640_000.0)
    # Tax year 2026: 240,000 of salary and three vests at their full value, 250 x 100 x 4/3
    # = 33,333.33 each (the fourth, on 1 Jan 2027, is 2027's; the 25 % discount is the
    # decision's, not the tax's) = SGD 340,000; less the 1,000 relief, 339,000:
    # 200 + 350 + 2,800 + 4,600 + 6,000 + 7,200 + 7,600 + 7,800 (to 280,000)
    # + 40,000 x 20 % = 8,000 (to 320,000) + 19,000 x 22 % = 4,180: SGD 48,730
    # = TWD 1,169,520 (taxing the discounted vests, 75,000, gave SGD 43,350).
    (working,) = [w for w in ledger.tax_years if w.tax_year == 2026]
    (part,) = working.parts
    assert working.cash == pytest.approx(240_000.0) and working.equity == pytest.approx(100_000)
    assert part.brackets.taxable == pytest.approx(339_000.0)
    assert [s.tax for s in part.brackets.slices] == pytest.approx(
        [0, 200, 350, 2800, 4600, 6000, 7200, 7600, 7800, 8000, 4180]
    )
    assert part.tax == pytest.approx(48_730.0)
    tax_2026 = [x for x in ledger.lines if x.item == "tax" and x.tax_year == 2026]
    assert sum(x.amount for x in tax_2026) == pytest.approx(-1_169_520.0)
    # The 1 Jan 2027 vest is in window year 1 and tax year 2027: year 1 carries that share
    # of 2027's tax, year 2 the rest; together all of 2027's tax.
    tax_2027 = [x for x in ledger.lines if x.item == "tax" and x.tax_year == 2027]
    assert [x.year for x in tax_2027] == [1, 2]
    (w2027,) = [w for w in ledger.tax_years if w.tax_year == 2027]
    assert sum(x.share for x in tax_2027) == pytest.approx(1.0)
    assert sum(x.amount for x in tax_2027) == pytest.approx(-w2027.tax * 24)


def current_tw() -> PackageSpec:
    """The current job: TWD 3,000,000, a 20 % bonus and 400 TWD shares, Taiwan's tax."""
    return PackageSpec(
        name="current",
        start=dt.date(2024, 1, 1),
        currency="TWD",
        base=3_000_000.0,
        bonus_target_pct=20.0,
        grants=(Grant(shares=400.0),),
        stock=Stock(price=900.0, growth_pct=5.0, volatility_pct=20.0),
        tax_regime="tw",
    )


CASES = {
    "sg citizen (CPF), refresher, bonus, sign-on": lambda: [
        Segment(
            sgd_offer(
                start=dt.date(2026, 7, 1),
                tax_regime="sg-cpf",
                bonus_target_pct=15.0,
                sign_on=(SignOn(50_000.0, instalments=((0, 0.5), (6, 0.5))),),
                refreshers=(Refresher(40_000.0),),
                stock=Stock(price=100.0, currency="USD", fx_to_package=1.35, volatility_pct=30),
                fx_to_home=23.7,
            ),
            dt.date(2026, 7, 1),
        )
    ],
    "leaving a Taiwan job for Hong Kong": lambda: [
        Segment(current_tw(), dt.date(2026, 3, 1), dt.date(2026, 9, 1)),
        Segment(
            PackageSpec(
                name="hk",
                start=dt.date(2026, 9, 1),
                currency="HKD",
                base=1_200_000.0,
                bonus_target_pct=10.0,
                bonus_cycle=BonusCycle(start_month=1, payout_month=3, paid_if_left=True),
                grants=(Grant(value=800_000.0, schedule=QUARTERLY),),
                stock=Stock(price=80.0, growth_pct=8.0, volatility_pct=35.0),
                fx_to_home=4.1,
                tax_regime="hk",
            ),
            dt.date(2026, 9, 1),
        ),
    ],
    "California, flat-rate current job until a mid-month start": lambda: [
        Segment(
            PackageSpec(
                name="flat",
                start=dt.date(2025, 5, 10),
                base=150_000.0,
                bonus_target_pct=10.0,
                bonus_cycle=BonusCycle(start_month=1, payout_month=3, paid_if_left=True),
                grants=(Grant(shares=1000.0, vest_start=dt.date(2025, 5, 10)),),
                stock=Stock(price=50.0, volatility_pct=40.0),
                fx_to_home=1.0,
                tax_rate_pct=28.0,
            ),
            dt.date(2026, 11, 15),
            dt.date(2027, 2, 17),
        ),
        Segment(
            PackageSpec(
                name="ca",
                start=dt.date(2027, 2, 17),
                base=260_000.0,
                bonus_target_pct=15.0,
                sign_on=(SignOn(60_000.0), SignOn(30_000.0, year=2)),
                relocation=20_000.0,
                grants=(Grant(value=500_000.0),),
                refreshers=(Refresher(100_000.0),),
                stock=Stock(price=300.0, growth_pct=10.0, volatility_pct=30.0),
                tax_regime="us-ca",
            ),
            dt.date(2027, 2, 17),
        ),
    ],
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_ledger_adds_up_to_the_window(case):
    segments = CASES[case]()
    window_start = segments[0].start
    yearly, ledger = both(segments, window_start)
    assert_adds_up(yearly, ledger)
    # Each window year's tax and contribution lines are the window's tax and contributions.
    for year in range(1, ledger.years + 1):
        for column in ("tax", "contributions"):
            mine = [x.amount for x in ledger.lines if x.year == year and x.component == column]
            assert -sum(mine) == pytest.approx(yearly[column][year - 1], abs=1e-6)
    assert ledger.lines == tuple(sorted(ledger.lines, key=lambda x: (x.year, x.day)))


def test_contribution_lines_are_the_rate_of_the_pay_levied():
    (segment,) = CASES["sg citizen (CPF), refresher, bonus, sign-on"]()
    _, ledger = both([segment], segment.start)
    cpf = [x for x in ledger.lines if x.component == "contributions"]
    assert {x.name for x in cpf} == {"CPF on ordinary wages", "CPF on additional wages"}
    for line in cpf:
        assert line.quantity == pytest.approx(0.2)  # the employee's 20 % (up to 55)
        assert line.share == pytest.approx(1.0)


def test_bracket_slices_add_up_to_the_bracket_tax():
    incomes = [0.0, 500.0, 19_999.0, 50_000.0, 314_000.0, 1_234_567.0, 9_000_000.0]
    for regime in regimes().values():
        for year in regime.years:
            for part in year.parts:
                for brackets in filter(None, (part.brackets, part.alternative)):
                    for income in incomes:
                        taxable, slices = bracket_slices(brackets, income)
                        assert taxable == max(income - brackets.deduction, 0.0)
                        assert sum(s.tax for s in slices) == pytest.approx(
                            float(bracket_tax(brackets, income)), abs=1e-6
                        )
                        assert sum(s.high - s.low for s in slices) == pytest.approx(taxable)


def test_the_ledger_takes_one_price_path():
    segments = [Segment(sgd_offer(), JAN_2026)]
    with pytest.raises(EngineInputError, match="prices"):
        window_ledger(
            segments,
            window_start=JAN_2026,
            years=4,
            prices=[np.full((10, 48), 100.0)],
            currency="TWD",
        )


REGIMES = [None, "sg", "sg-cpf", "tw", "hk", "cn-sh", "us-ca", "us-ny"]
CURRENCY = {"sg": "SGD", "sg-cpf": "SGD", "tw": "TWD", "hk": "HKD", "cn-sh": "CNY"}


@settings(max_examples=40, deadline=None)
@given(
    regime=st.sampled_from(REGIMES),
    base=st.floats(10_000, 3_000_000),
    shares=st.floats(0, 20_000),
    price=st.floats(1, 1_000),
    growth=st.floats(-20, 40),
    discount=st.floats(0, 50),
    bonus=st.floats(0, 40),
    start_shift=st.integers(-30, 400),
    window_day=st.dates(dt.date(2025, 1, 1), dt.date(2028, 12, 31)),
    fx=st.floats(0.02, 50),
    years=st.integers(1, 5),
    leaving=st.booleans(),
)
def test_any_package_s_ledger_adds_up_to_its_window(
    regime,
    base,
    shares,
    price,
    growth,
    discount,
    bonus,
    start_shift,
    window_day,
    fx,
    years,
    leaving,
):
    currency = CURRENCY.get(regime or "", "USD")
    spec = PackageSpec(
        name="o",
        start=window_day + dt.timedelta(days=start_shift),
        horizon_years=years,
        currency=currency,
        base=base,
        bonus_target_pct=bonus,
        sign_on=(SignOn(base / 5),),
        grants=(Grant(shares=shares, schedule=QUARTERLY),),
        refreshers=(Refresher(price * shares / 8),),
        stock=Stock(price=price, growth_pct=growth, liquidity_discount_pct=discount),
        fx_to_home=fx,
        tax_regime=regime,
        tax_rate_pct=25.0,
    )
    segments = [Segment(spec, max(spec.start, window_day))]
    if leaving and spec.start > window_day:
        segments.insert(0, Segment(current_tw(), window_day, spec.start))
    yearly, ledger = both(segments, window_day, years=years)
    assert_adds_up(yearly, ledger)
