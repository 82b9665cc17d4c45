"""One return per person per tax year: rules that share a table are taxed on the combined
income (`tables.tables_for_year`, `tax.joint_tax`, `segment_tax.tax_groups`). A move from
California to Washington files one federal return (one standard deduction, one set of
brackets, the Social Security wage base and the Additional Medicare threshold once), each
state taxing the income earned there; a move from an Employment Pass to CPF in Singapore files
one Singapore return.

Every figure is computed by hand in the comments from the tables in
``compensation/engine/tax/data``.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from compensation.engine import PackageSpec, Stock
from compensation.engine.ledger import window_ledger
from compensation.engine.segment_tax import tax_groups
from compensation.engine.segments import Segment
from compensation.engine.tax.tables import regime_get, tables_for_year
from compensation.engine.window import window_yearly

DECISION = dt.date(2027, 1, 1)
MOVE = dt.date(2027, 2, 15)

# California at USD 240,000 a year until 15 Feb 2027, then Washington at USD 300,000 a year.
# Base counts whole months: California pays January, 20,000; Washington February to December,
# 11 x 25,000 = 275,000. 2027 (the 2026 tables, the latest): 295,000 together.
# One federal return on 295,000: taxable 295,000 - 16,100 = 278,900:
#   10% x 12,400 = 1,240; 12% x 38,000 = 4,560; 22% x 55,300 = 12,166;
#   24% x 96,075 = 23,058; 32% x 54,450 = 17,424; 35% x 22,675 = 7,936.25   -> 66,384.25
# Social Security 6.2% x 184,500 (the wage base once)                      -> 11,439.00
# Medicare 1.45% x 200,000 = 2,900 + 2.35% x 95,000 = 2,232.50              ->  5,132.50
# California on its 20,000: taxable 14,294: 1% x 11,079 = 110.79 + 2% x 3,215 = 64.30
#                                                                           ->    175.09
# California SDI 1.3% x 20,000                                              ->    260.00
# WA Cares 0.58% x 275,000                                                  ->  1,595.00
#                                                                              84,985.84
# Two returns (the old figures): California's job 390 + 1,240 + 290 + 175.09 + 260 =
# 2,355.09; Washington's 59,384.25 + 11,439 + 4,662.50 + 1,595 = 77,080.75; together
# 79,435.84, 5,550.00 too low (federal +6,610, Social Security -1,240, Medicare +180).
ONE_RETURN = 84_985.84
TWO_RETURNS = 79_435.84
FEDERAL_AND_FICA = 66_384.25 + 11_439.00 + 5_132.50
# Borne by income: California's job 20/295 of the federal return and FICA and its own state
# tax, 5,624.12 + 175.09 + 260 = 6,059.21; Washington's 275/295 and WA Cares, 77,331.63 + 1,595
# = 78,926.63.
CALIFORNIA_SHARE = FEDERAL_AND_FICA * 20 / 295 + 175.09 + 260.0
WASHINGTON_SHARE = FEDERAL_AND_FICA * 275 / 295 + 1_595.0


def job(base: float, start: dt.date, regime: str, currency: str = "USD") -> PackageSpec:
    return PackageSpec(
        name=regime,
        start=start,
        horizon_years=1,
        currency=currency,
        base=base,
        stock=Stock(price=1.0),
        tax_regime=regime,
    )


def california_then_washington() -> list[Segment]:
    return [
        Segment(job(240_000.0, DECISION, "us-ca"), DECISION, MOVE, current=True),
        Segment(job(300_000.0, MOVE, "us-wa"), MOVE),
    ]


def test_a_move_from_california_to_washington_files_one_federal_return():
    segments = california_then_washington()
    assert tax_groups(segments) == [[0, 1]]
    prices = [np.ones(12)] * 2
    out = window_yearly(segments, window_start=DECISION, years=1, prices=prices)
    assert out["total"][0] == pytest.approx(295_000.0)
    assert out["tax"][0] == pytest.approx(ONE_RETURN, abs=0.01)
    assert out["tax"][0] != pytest.approx(TWO_RETURNS, abs=1.0)


def test_the_ledger_shows_one_federal_return_and_each_states_tax_and_adds_up():
    segments = california_then_washington()
    prices = [np.ones(12)] * 2
    out = window_yearly(segments, window_start=DECISION, years=1, prices=prices)
    ledger = window_ledger(segments, window_start=DECISION, years=1, prices=prices, currency="USD")
    assert ledger.total() == pytest.approx(float(out["net"][0]), abs=1e-6)
    tax = {
        k: -sum(x.amount for x in ledger.lines if x.item == "tax" and x.segment == k)
        for k in (0, 1)
    }
    assert tax[0] == pytest.approx(CALIFORNIA_SHARE, abs=0.01)
    assert tax[1] == pytest.approx(WASHINGTON_SHARE, abs=0.01)
    (working,) = [w for w in ledger.tax_years if w.tax_year == 2027]
    assert working.segments == (0, 1)
    assert working.cash == pytest.approx(295_000.0)
    parts = {p.name: p for p in working.parts}
    # One federal return, one set of FICA: each once, on the combined income.
    names = [p.name for p in working.parts]
    assert names.count("federal income tax") == 1
    assert parts["federal income tax"].income == pytest.approx(295_000.0)
    assert parts["federal income tax"].brackets.taxable == pytest.approx(278_900.0)
    assert parts["federal income tax"].tax == pytest.approx(66_384.25, abs=0.01)
    assert parts["Social Security"].tax == pytest.approx(11_439.00, abs=0.01)
    assert parts["Medicare and Additional Medicare"].tax == pytest.approx(5_132.50, abs=0.01)
    # Each state on the income earned there.
    assert parts["California income tax"].income == pytest.approx(20_000.0)
    assert parts["California income tax"].tax == pytest.approx(175.09, abs=0.01)
    assert parts["WA Cares premium"].income == pytest.approx(275_000.0)
    assert working.tax == pytest.approx(ONE_RETURN, abs=0.01)
    # No Washington line is charged to the California job, nor California's to Washington's.
    for line in ledger.lines:
        if line.item == "tax" and line.name.startswith("California"):
            assert line.segment == 0
        if line.item == "tax" and line.name.startswith("WA"):
            assert line.segment == 1
        assert abs(line.amount) == pytest.approx(
            line.quantity * line.unit_price * line.share * line.fx, rel=1e-9
        )


def test_rules_sharing_a_table_take_it_once_and_others_keep_theirs():
    shared = tables_for_year([regime_get("us-ca"), regime_get("us-wa")], 2027)
    kinds = {s.table.kind: s.members for s in shared}
    assert kinds == {
        "us_federal": (0, 1),
        "us_fica": (0, 1),
        "us_california": (0,),
        "us_washington": (1,),
    }
    # Different countries share nothing: each is taxed alone.
    taipei = [
        Segment(job(240_000.0, DECISION, "us-ca"), DECISION, MOVE, current=True),
        Segment(job(4_000_000.0, MOVE, "tw", "TWD"), MOVE),
    ]
    assert tax_groups(taipei) == [[0], [1]]


# Singapore: an Employment Pass (sg) at SGD 120,000 a year until 1 July 2026, then a PR with
# CPF (sg-cpf) at SGD 180,000 a year. Both hold the Singapore resident income tax: one return
# for 2026, with the 2026 income's table (YA 2027, the latest the two publish; the same rates
# as YA 2026). CPF 2026: 20% of ordinary wages up to 8,000 a month: 6 x 1,600 = 9,600,
# deducted (CPF relief). Income 60,000 + 90,000 = 150,000, taxable 150,000 - 9,600 - 1,000 =
# 139,400: 200 + 350 + 2,800 + 4,600 + 15% x 19,400 (2,910) = 10,860, borne 60/150 (4,344) by
# the Employment Pass months and 90/150 (6,516) by the CPF months.
# Two returns: 60,000 -> 59,000 taxable: 200 + 350 + 7% x 19,000 = 1,880; 90,000 - 9,600 =
# 80,400 -> 79,400 taxable: 200 + 350 + 7% x 39,400 = 3,308; together 5,188.
SG_DECISION = dt.date(2026, 1, 1)
SG_MOVE = dt.date(2026, 7, 1)


def test_an_employment_pass_then_cpf_files_one_singapore_return():
    segments = [
        Segment(job(120_000.0, SG_DECISION, "sg", "SGD"), SG_DECISION, SG_MOVE, current=True),
        Segment(job(180_000.0, SG_MOVE, "sg-cpf", "SGD"), SG_MOVE),
    ]
    assert tax_groups(segments) == [[0, 1]]
    prices = [np.ones(12)] * 2
    out = window_yearly(segments, window_start=SG_DECISION, years=1, prices=prices)
    assert out["tax"][0] == pytest.approx(10_860.0, abs=0.01)
    assert out["tax"][0] != pytest.approx(5_188.0, abs=1.0)
    assert out["contributions"][0] == pytest.approx(9_600.0, abs=0.01)
    ledger = window_ledger(
        segments, window_start=SG_DECISION, years=1, prices=prices, currency="SGD"
    )
    tax = {
        k: -sum(x.amount for x in ledger.lines if x.item == "tax" and x.segment == k)
        for k in (0, 1)
    }
    assert tax == pytest.approx({0: 4_344.0, 1: 6_516.0}, abs=0.01)
    assert ledger.total() == pytest.approx(float(out["net"][0]), abs=1e-6)
    (working,) = [w for w in ledger.tax_years if w.tax_year == 2026]
    assert working.deductible == pytest.approx(9_600.0)
    assert working.label == "YA 2027"
