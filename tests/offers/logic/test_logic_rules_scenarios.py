"""Each rule plays its ask out as scenario fields and says when a scenario meets it."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from offers.logic.rules import RULES_BY_KEY
from offers.logic.rules.base import NegotiationPoint, ScenarioAdjustment, ScenarioOutcome


def point(rule: str, ask: float | None = None, **figures: float | str) -> NegotiationPoint:
    return NegotiationPoint(
        rule=rule,
        title="title",
        trigger="trigger",
        ask_amount=ask,
        ask_currency="USD" if ask is not None else None,
        ask_term="term",
        priority=2,
        evidence="evidence",
        figures=dict(figures),
    )


def adjust(p: NegotiationPoint) -> ScenarioAdjustment | None:
    return RULES_BY_KEY[p.rule].scenario_adjustment(p)


def answered(p: NegotiationPoint, **outcome: object) -> bool | None:
    return RULES_BY_KEY[p.rule].answered(p, ScenarioOutcome(**outcome))


@pytest.mark.parametrize("rule", ["below_stay", "competing_offer"])
def test_value_gap_is_played_as_sign_on_and_met_by_the_value_gained(rule):
    p = point(rule, 1_234.4, gap_home=1_000.0)
    assert adjust(p) == ScenarioAdjustment(extra_sign_on=Decimal("1234"))
    assert answered(p, value_gain_home=999.6) is True
    assert answered(p, value_gain_home=999.4) is False
    assert answered(point(rule, 1_234.4), value_gain_home=5_000.0) is None


def test_make_whole_counts_sign_on_and_extra_stock_over_the_grant_years():
    p = point("make_whole", 100_000.0)
    assert adjust(p) == ScenarioAdjustment(extra_sign_on=Decimal("100000"))
    assert answered(p, extra_sign_on=40_000, extra_stock_yearly=15_000, grant_years=4) is True
    assert answered(p, extra_sign_on=40_000, extra_stock_yearly=15_000, grant_years=3) is False


@pytest.mark.parametrize("rule", ["clawback", "back_loaded"])
def test_sign_on_asks_are_met_by_the_extra_sign_on(rule):
    p = point(rule, 30_000.0)
    assert adjust(p) == ScenarioAdjustment(extra_sign_on=Decimal("30000"))
    assert answered(p, extra_sign_on=30_000) is True
    assert answered(p, extra_sign_on=29_000, extra_stock_yearly=50_000) is False
    assert adjust(point(rule)) is None
    assert answered(point(rule), extra_sign_on=1) is None


def test_top_of_band_is_played_as_stock_and_falls_back_to_any_sign_on():
    p = point("top_of_band", 90_000.0)
    assert adjust(p) == ScenarioAdjustment(extra_stock_yearly=Decimal("90000"))
    assert answered(p, extra_stock_yearly=90_000) is True
    assert answered(p, extra_stock_yearly=89_000, extra_sign_on=500_000) is False
    full = point("top_of_band")
    assert adjust(full) is None
    assert answered(full, extra_sign_on=1) is True
    assert answered(full, extra_stock_yearly=1) is False


def test_down_level_is_met_by_the_target_level_or_its_stock():
    p = point("down_level", 90_000.0, target_level="E6")
    assert adjust(p) == ScenarioAdjustment(
        extra_stock_yearly=Decimal("90000"), to_target_level=True
    )
    assert answered(p, level_code="E6") is True
    assert answered(p, level_code="L6", level_order=6, target_level_order=6) is True
    assert answered(p, level_code="L5", level_order=5, target_level_order=6) is False
    assert answered(p, level_code="X", level_order=0, target_level_order=0) is False
    assert answered(p, extra_stock_yearly=90_000) is True
    no_ask = point("down_level", target_level="E6")
    assert adjust(no_ask) is None
    assert answered(no_ask, extra_stock_yearly=1_000_000) is False


def test_remote_gap_is_played_as_the_weeks_needed():
    p = point("remote_gap", required_remote_weeks=8.0)
    assert adjust(p) == ScenarioAdjustment(remote_weeks_per_year=8)
    assert answered(p, remote_weeks=8.0) is True
    assert answered(p, remote_weeks=7.0) is False


def test_stock_risk_is_played_as_base_over_four_years():
    p = point("stock_risk", 100_000.0)
    assert adjust(p) == ScenarioAdjustment(base_increase=Decimal("25000"))
    assert answered(p, base_increase=20_000, horizon_years=4, extra_sign_on=20_000) is True
    assert answered(p, base_increase=20_000, horizon_years=4, extra_sign_on=19_000) is False
    assert adjust(point("stock_risk")) is None
    assert answered(point("stock_risk"), extra_sign_on=1e9) is None


def test_start_date_is_played_as_the_proposed_start():
    p = point("start_date", proposed_start="2027-03-01")
    assert adjust(p) == ScenarioAdjustment(start_date=date(2027, 3, 1))
    assert answered(p, start_date=date(2027, 3, 1)) is True
    assert answered(p, start_date=date(2027, 2, 28)) is False
    assert answered(p) is False


@pytest.mark.parametrize("rule", ["low_overlap", "exploding_deadline", "relocation", "verdict"])
def test_rules_without_a_scenario_field_play_nothing_and_cannot_say(rule):
    p = point(rule, 10.0)
    assert adjust(p) is None
    assert answered(p, extra_sign_on=1e9, extra_stock_yearly=1e9, value_gain_home=1e9) is None
