"""Stock vesting after an internal transfer is sourced by the days worked in each place
between its vesting start and its vest (the workday rule: Treas. Reg. 1.861-4(b)(2)(ii),
FTB Publication 1004, the OECD commentary on Art. 15): `segments.sourced_segments`.

The case: 1,000 shares at 100, vesting start 1 Jan 2027, all vesting on 1 Jan 2028; the
transfer on 2 Jul 2027. 1 Jan to 1 Jul 2027 is 31 + 28 + 31 + 30 + 31 + 30 + 1 = 182 days
of the vest's 365 in the first place, 183 in the second. Every figure is worked by hand in
the comments.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compensation.engine import PackageSpec, Stock
from compensation.engine.ledger import window_ledger
from compensation.engine.segments import Segment, days_before, sourced_segments
from compensation.engine.spec import Grant, VestingSchedule
from compensation.engine.window import window_yearly

DECISION = dt.date(2027, 1, 1)
MOVE = dt.date(2027, 7, 2)
PRICES = [np.full(12, 100.0)] * 2
# 100 % on the first anniversary of the vesting start.
ONE_YEAR_CLIFF = VestingSchedule(
    total_months=12, cliff_months=12, frequency_months=12, year_weights=(100.0,)
)
GRANT = Grant(shares=1_000.0, grant_price=100.0, schedule=ONE_YEAR_CLIFF, vest_start=DECISION)


def job(start: dt.date, *, rate: float = 0.0, regime: str | None = None) -> PackageSpec:
    return PackageSpec(
        name=regime or f"flat {rate}",
        start=start,
        horizon_years=1,
        base=0.0,
        stock=Stock(price=100.0, growth_pct=0.0),
        grants=(GRANT,),
        tax_rate_pct=rate,
        tax_regime=regime,
    )


def moved(first: PackageSpec, second: PackageSpec, *, transfer: bool = True) -> list[Segment]:
    """The current job until the move, then the transfer holding the same grant."""
    return [
        Segment(first, DECISION, MOVE, current=True),
        Segment(second, MOVE, transfer=transfer),
    ]


def test_the_days_of_a_vest_before_the_move():
    vest = dt.date(2028, 1, 1)
    assert days_before(DECISION, vest, MOVE) == (182, 365)  # 183 after it
    # A grant vesting from the move on has no day before it.
    assert days_before(MOVE, vest, MOVE) == (0, 183)


def test_a_vest_after_a_move_is_taxed_by_each_place_on_its_days():
    segments = moved(job(DECISION, rate=10.0), job(MOVE, rate=30.0))
    out = window_yearly(segments, window_start=DECISION, years=1, prices=PRICES)
    # The vest on 1 Jan 2028 closes window month 12: 1,000 x 100 = 100,000.
    assert out["equity"][0] == pytest.approx(100_000.0)
    # 10 % x 100,000 x 182/365 = 4,986.30; 30 % x 100,000 x 183/365 = 15,041.10: 20,027.40
    # (taxed wholly where it vests, it was 30,000).
    assert out["tax"][0] == pytest.approx(4_986.30 + 15_041.10, abs=0.01)
    whole = window_yearly(
        moved(job(DECISION, rate=10.0), job(MOVE, rate=30.0), transfer=False),
        window_start=DECISION,
        years=1,
        prices=PRICES,
    )
    assert whole["tax"][0] == pytest.approx(30_000.0)
    assert whole["equity"][0] == pytest.approx(out["equity"][0])


def test_the_ledger_shows_each_place_s_share_and_its_tax():
    segments = moved(job(DECISION, rate=10.0), job(MOVE, rate=30.0))
    ledger = window_ledger(segments, window_start=DECISION, years=1, prices=PRICES, currency="USD")
    vests = sorted(
        (x for x in ledger.lines if x.item == "grant_vest"), key=lambda x: x.place is None
    )
    assert [(x.segment, x.place, x.days) for x in vests] == [
        (1, 0, (182, 365)),
        (1, None, (183, 365)),
    ]
    for line, here in zip(vests, (182, 183), strict=True):
        assert line.day == dt.date(2028, 1, 1)
        assert (line.quantity, line.unit_price, line.fx) == (1_000.0, 100.0, 1.0)
        assert line.share == pytest.approx(here / 365)  # no liquidity discount
        # 1,000 x 100 x 182/365 = 49,863.01; x 183/365 = 50,136.99.
        assert line.amount == pytest.approx(100_000.0 * here / 365)
        assert line.taxable == pytest.approx(line.amount)
    taxes = {x.place: x for x in ledger.lines if x.item == "flat_tax"}
    assert (taxes[0].quantity, taxes[0].unit_price) == pytest.approx((0.10, 49_863.01), abs=0.01)
    assert (taxes[None].quantity, taxes[None].unit_price) == pytest.approx(
        (0.30, 50_136.99), abs=0.01
    )
    assert taxes[0].segment == taxes[None].segment == 1
    assert -taxes[0].amount == pytest.approx(4_986.30, abs=0.01)
    assert -taxes[None].amount == pytest.approx(15_041.10, abs=0.01)
    out = window_yearly(segments, window_start=DECISION, years=1, prices=PRICES)
    assert ledger.total() == pytest.approx(float(out["net"][0]))
    for line in ledger.lines:
        assert abs(line.amount) == pytest.approx(
            line.quantity * line.unit_price * line.share * line.fx, rel=1e-9
        )


def test_the_earlier_place_s_tables_tax_its_share_in_its_tax_year_of_the_vest():
    # From Washington (federal, FICA, WA Cares) to a flat 30 %: the US share, 49,863.01, is
    # US income of 2028, the vest's year (the 2026 tables, the latest published), alone on
    # that return (nothing else was earned in the US in 2028):
    #   federal: taxable 49,863.01 - 16,100 = 33,763.01: 10% x 12,400 + 12% x 21,363.01
    #            = 1,240 + 2,563.56                                          = 3,803.56
    #   Social Security 6.2% x 49,863.01                                     = 3,091.51
    #   Medicare 1.45% x 49,863.01                                           =   723.01
    #   WA Cares 0.58% x 49,863.01                                           =   289.21
    #                                                                          7,907.29
    # and the second place's 30 % x 50,136.99 = 15,041.10: 22,948.39 in all.
    segments = moved(job(DECISION, regime="us-wa"), job(MOVE, rate=30.0))
    out = window_yearly(segments, window_start=DECISION, years=1, prices=PRICES)
    assert out["tax"][0] == pytest.approx(7_907.29 + 15_041.10, abs=0.02)
    ledger = window_ledger(segments, window_start=DECISION, years=1, prices=PRICES, currency="USD")
    (us,) = ledger.tax_years
    assert (us.tax_year, us.segments, us.segment) == (2028, (0,), 0)
    assert us.equity == pytest.approx(100_000.0 * 182 / 365)
    parts = {p.name: p.tax for p in us.parts}
    assert parts["federal income tax"] == pytest.approx(3_803.56, abs=0.01)
    assert parts["Social Security"] == pytest.approx(3_091.51, abs=0.01)
    assert parts["Medicare and Additional Medicare"] == pytest.approx(723.01, abs=0.01)
    assert parts["WA Cares premium"] == pytest.approx(289.21, abs=0.01)
    # The US tax lines are the transfer's (segment 1), taxed in the place before (0).
    us_lines = [x for x in ledger.lines if x.item == "tax"]
    assert {(x.segment, x.place, x.tax_year) for x in us_lines} == {(1, 0, 2028)}
    assert -sum(x.amount for x in us_lines) == pytest.approx(7_907.29, abs=0.01)


def test_a_move_within_one_tax_rule_sources_nothing():
    segments = moved(job(DECISION, rate=30.0), job(MOVE, rate=30.0))
    expanded, origins = sourced_segments(segments)
    assert expanded == segments and origins == [(0, None), (1, None)]
    # A new employer's segment (not a transfer) is never split either.
    other = moved(job(DECISION, rate=10.0), job(MOVE, rate=30.0), transfer=False)
    assert sourced_segments(other)[0] == other


@settings(max_examples=60, deadline=None)
@given(move=st.dates(dt.date(2027, 1, 2), dt.date(2027, 12, 31)), start=st.integers(0, 900))
def test_the_shares_of_a_vest_add_up_to_it_for_any_move(move, start):
    vest_start = DECISION - dt.timedelta(days=start)
    grant = Grant(
        shares=1_000.0,
        grant_price=100.0,
        schedule=VestingSchedule(total_months=48, frequency_months=3),
        vest_start=vest_start,
    )
    first = PackageSpec(
        name="a",
        start=DECISION,
        base=0.0,
        stock=Stock(price=100.0, growth_pct=0.0),
        grants=(grant,),
        tax_rate_pct=10.0,
    )
    second = PackageSpec(
        name="b",
        start=move,
        base=0.0,
        stock=Stock(price=100.0, growth_pct=0.0),
        grants=(grant,),
        tax_rate_pct=30.0,
    )
    prices = [np.linspace(90.0, 160.0, 24)] * 2
    split = [Segment(first, DECISION, move, current=True), Segment(second, move, transfer=True)]
    whole = [Segment(first, DECISION, move, current=True), Segment(second, move)]
    a = window_yearly(split, window_start=DECISION, years=2, prices=prices)
    b = window_yearly(whole, window_start=DECISION, years=2, prices=prices)
    # The gross is the same: the shares of each vest add up to it.
    assert a["equity"] == pytest.approx(b["equity"], rel=1e-12)
    ledger = window_ledger(split, window_start=DECISION, years=2, prices=prices, currency="USD")
    by_vest: dict[dt.date, list[tuple[int, int]]] = {}
    for line in ledger.lines:
        if line.item == "grant_vest" and line.days is not None:
            by_vest.setdefault(line.day, []).append(line.days)
    for day, parts in by_vest.items():
        assert len(parts) == 2, day
        assert sum(here for here, _ in parts) == parts[0][1] == (day - vest_start).days
    # Each place's flat rate on its share: the tax lies between the two rates.
    taxed = float(a["tax"].sum())
    equity = float(a["equity"].sum())
    assert 0.10 * equity - 1e-6 <= taxed <= 0.30 * equity + 1e-6
    # A grant whose vesting starts on the move is the new place's alone: nothing changes.
    later = replace(grant, vest_start=move)
    starts = [replace(s, spec=replace(s.spec, grants=(later,))) for s in (split[0], split[1])]
    plain = [starts[0], replace(starts[1], transfer=False)]
    assert window_yearly(starts, window_start=DECISION, years=2, prices=prices)[
        "tax"
    ] == pytest.approx(
        window_yearly(plain, window_start=DECISION, years=2, prices=prices)["tax"], rel=1e-12
    )
    # Without a move (the transfer on the decision date, nothing before it) nothing changes.
    alone = [Segment(second, move, transfer=True)]
    plain = [Segment(second, move)]
    assert window_yearly(alone, window_start=move, years=1, prices=prices[:1])[
        "tax"
    ] == pytest.approx(
        window_yearly(plain, window_start=move, years=1, prices=prices[:1])["tax"], rel=1e-12
    )
