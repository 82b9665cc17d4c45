"""Asks within reach, on one basis (issue 35 item 7), on hand-built contexts.

Private stock is asked in cash; stock beyond the offered level's band is asked up to its top,
the rest as a sign-on (a transfer: with the level only); the make-whole's parts add up to its
total; the money asked is the gross gap, or the plan says why less; one's own employer is never
asked for a sign-on or a make-whole.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.rules import RULES_BY_KEY
from offers.logic.rules.base import (
    BASE,
    REFUSED,
    SIGN_ON,
    STOCK,
    CurrentJobFacts,
    LoggedAsk,
    NegotiationContext,
    OfferFacts,
    ScenarioAdjustment,
    ScenarioOutcome,
)
from tests.offers.logic.facts import BAND, TODAY

# Down-levelled (E5 offered, E6 targeted: the loop went well), base below the E5 band's top
# (240,000), so no base-cap exception: E6 stock is the band's 250,000 mid, 100,000 a year more
# than the 150,000 offered; the E5 band's stock tops out at 200,000. Nothing else asks money.
OFFER = OfferFacts(
    key="option",
    name="Option E5",
    company="Option Co",
    currency="USD",
    yearly_totals=(400_000.0,) * 4,
    yearly_home=(400_000.0,) * 4,
    base=220_000,
    stock_per_year=150_000,
    level_code="E5",
    level_order=5,
    target_level_code="E6",
    target_level_order=6,
    band=BAND,
    remote_weeks_allowed=52,
    signals=("strong_hire",) * 4,
)
CTX = NegotiationContext(offer=OFFER, current=None, today=TODAY)


def plan_of(ctx: NegotiationContext = CTX, **kwargs):
    return negotiation_plan(ctx, negotiation_points(ctx), **kwargs)


def with_offer(**changes) -> NegotiationContext:
    return replace(CTX, offer=replace(OFFER, **changes))


def by_component(plan):
    return {a.component: a for a in plan.asks}


def test_stock_beyond_the_band_is_asked_up_to_its_top_and_the_rest_as_a_sign_on():
    plan = plan_of()
    # The gap: E6 stock, 100,000 a year x 4 = 400,000. The E5 band leaves 200,000 - 150,000 =
    # 50,000 a year (200,000 over 4 years) for stock; the other 200,000 is one sign-on.
    assert plan.gap.amount == pytest.approx(400_000)
    asks = by_component(plan)
    assert set(asks) == {STOCK, SIGN_ON}
    stock, sign_on = asks[STOCK], asks[SIGN_ON]
    assert stock.amount == 50_000 and stock.per_year and stock.counted == 200_000
    assert sign_on.amount == 200_000 and not sign_on.per_year
    assert plan.money_asked == pytest.approx(plan.gap.amount)
    assert stock.script.endswith(
        "Within the E5 band, stock goes up to USD 200,000 a year. "
        "Could we add USD 50,000 a year in stock?"
    )
    assert "I'd like the level reviewed" in stock.script
    assert sign_on.script.endswith("Could you add a sign-on bonus of USD 200,000?")
    # The target: stock at the band's top, the rest in the sign-on, the level asked.
    assert plan.target.stock_per_year == 200_000 and plan.target.sign_on == 200_000
    assert plan.target.level_code == "E6"
    # No ask says more stock a year than the band holds: 150,000 + 50,000 = its top.
    assert OFFER.stock_per_year + stock.amount <= BAND.stock_max


def test_at_the_top_of_the_band_already_the_rest_is_one_sign_on_with_the_level_asked():
    plan = plan_of(with_offer(stock_per_year=200_000))
    # E6 stock 250,000 - 200,000 = 50,000 a year x 4 = 200,000, all beyond the band's top.
    asks = by_component(plan)
    assert STOCK not in asks
    assert asks[SIGN_ON].amount == 200_000 and asks[SIGN_ON].rule == "down_level"
    assert "I'd like the level reviewed" in asks[SIGN_ON].script
    assert plan.target.level_code == "E6" and plan.target.stock_per_year == 200_000


def test_base_at_the_top_of_the_band_keeps_the_next_levels_stock_asked_once():
    # Base at the E5 band's top (240,000): the next level's stock is the exception to ask for
    # (it needs approval): 100,000 a year, beyond the band, asked once, no sign-on for it.
    plan = plan_of(with_offer(base=240_000))
    asks = by_component(plan)
    assert asks[STOCK].amount == 100_000 and asks[STOCK].counted == 400_000
    assert [p.rule for p in asks[STOCK].merged] == ["top_of_band"]
    assert SIGN_ON not in asks
    assert "Within the E5 band" not in asks[STOCK].script


def test_a_transfer_asks_stock_up_to_the_band_and_says_the_rest_comes_with_the_level():
    plan = plan_of(with_offer(kind="internal"))
    # 50,000 a year up to the band's top (200,000 over 4 years); the other 200,000 of the
    # 400,000 gap is no sign-on (one's own employer pays none): the plan says why it is short.
    asks = by_component(plan)
    assert asks[STOCK].amount == 50_000 and SIGN_ON not in asks
    assert plan.money_asked == pytest.approx(200_000)
    assert (
        "They are USD 200,000 short of it: beyond the top of its band, stock comes only with "
        "the level."
    ) in plan.private_notes
    # Already at the band's top: the ask is the re-level itself, no money.
    plan = plan_of(with_offer(kind="internal", stock_per_year=200_000))
    stock = by_component(plan)[STOCK]
    assert stock.amount is None and plan.money_asked == 0
    assert stock.script == (
        "I interviewed for E6 and the team's feedback supports E6. I'd like the level "
        "reviewed, or, if the level can't move, E6 pay."
    )
    assert "They are USD 200,000 short of it" in " ".join(plan.private_notes)


def test_private_stock_is_asked_in_cash_on_the_same_basis_with_the_reason():
    ctx = with_offer(is_private=True)
    plan = plan_of(ctx)
    # Private: no band cap for cash. E6 stock 100,000 a year x 4 years = 400,000, asked once
    # as a sign-on of 400,000: the same gross figure over the same horizon.
    assert plan.gap.amount == pytest.approx(400_000)
    asks = by_component(plan)
    assert STOCK not in asks
    cash = asks[SIGN_ON]
    assert cash.rule == "down_level" and cash.amount == 400_000 and cash.currency == "USD"
    assert cash.counted == 400_000 == plan.money_asked
    assert cash.script.endswith(
        "The shares are private and only sell in buybacks, so I'd like the difference over the "
        "4 years in cash. Could you add a sign-on bonus of USD 400,000?"
    )
    assert "in stock?" not in cash.script
    # The target keeps the offered stock and adds the cash; "Play it out" plays a sign-on.
    assert plan.target.stock_per_year == 150_000 and plan.target.sign_on == 400_000
    rule = RULES_BY_KEY[cash.rule]
    assert rule.scenario_adjustment(cash.point) == ScenarioAdjustment(
        extra_sign_on=400_000, to_target_level=True
    )
    assert rule.answered(cash.point, ScenarioOutcome(extra_sign_on=400_000)) is True
    assert rule.answered(cash.point, ScenarioOutcome(extra_stock_yearly=100_000)) is False


def test_private_stock_on_an_sgd_offer_is_asked_in_sgd_cash_to_the_thousand():
    # Paid in SGD, stock priced in USD (1 USD = 1.35 SGD): as stock the ask would be said in
    # USD; in cash it is the offer's SGD. E6 stock SGD 100,000 a year x 4 = SGD 400,000.
    ctx = with_offer(is_private=True, currency="SGD", stock_currency="USD", fx_stock_to_offer=1.35)
    cash = by_component(plan_of(ctx))[SIGN_ON]
    assert cash.currency == "SGD" and cash.amount == 400_000
    assert "Could you add a sign-on bonus of SGD 400,000?" in cash.script


def test_a_private_transfer_asks_its_stock_as_base_a_year_never_a_sign_on():
    plan = plan_of(with_offer(kind="internal", is_private=True))
    # 100,000 a year of E6 stock, in cash: base up 100,000 a year (400,000 over 4 years).
    asks = by_component(plan)
    assert set(asks) == {BASE}
    assert asks[BASE].amount == 100_000 and asks[BASE].per_year
    assert asks[BASE].counted == 400_000 == plan.money_asked
    assert asks[BASE].script.endswith("Could the base move up by USD 100,000 a year?")
    rule = RULES_BY_KEY[asks[BASE].rule]
    assert rule.scenario_adjustment(asks[BASE].point) == ScenarioAdjustment(
        base_increase=100_000, to_target_level=True
    )


# One's own employer ---------------------------------------------------------------------------

LEAVING = CurrentJobFacts(
    yearly_totals_if_stay=(600_000.0,) * 4,
    unvested_forfeited_by_year=((2026, 104_000.0), (2027, 73_000.0), (2028, 28_000.0)),
    unvested_total=205_000,
    sign_on_clawback=30_000,
)


@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize("stock", [150_000, 200_000])
def test_a_transfer_never_asks_a_sign_on_or_a_make_whole(private, stock):
    # Even with forfeits, an outside offer, stock beyond the band and private stock to hand.
    ctx = replace(
        with_offer(kind="internal", is_private=private, stock_per_year=stock), current=LEAVING
    )
    plan = plan_of(ctx)
    assert not {a.component for a in plan.asks} & {SIGN_ON}
    for ask in plan.asks:
        said = f"{ask.title} {ask.term} {ask.script}".lower()
        assert "sign-on" not in said and "make-whole" not in said


# The make-whole and the gap's basis -----------------------------------------------------------


def test_the_make_whole_schedule_adds_up_to_its_total():
    point = RULES_BY_KEY["make_whole"].evaluate(replace(CTX, current=LEAVING))
    assert point is not None
    # The total, USD 205,000, is said to 10,000 (halves up): USD 210,000. Each year to the same
    # step: 100,000 + 70,000 + 30,000 = 200,000; the largest year, 2026, takes the 10,000 left:
    # 110,000 + 70,000 + 30,000 = 210,000. Each year rounded on its own (by its size) would say
    # 100,000 + 73,000 + 28,000 = 201,000.
    assert "I walk away from USD 210,000 of unvested stock" in point.evidence
    assert "(2026: USD 110,000, 2027: USD 70,000, 2028: USD 30,000)" in point.evidence
    # Without a by-year schedule the total alone is said.
    bare = replace(LEAVING, unvested_forfeited_by_year=())
    point = RULES_BY_KEY["make_whole"].evaluate(replace(CTX, current=bare))
    assert point is not None and "(by year not given)" in point.evidence


def test_a_value_gap_after_tax_is_asked_in_gross_pay():
    # At the target level (no level gap), staying pays 600,000 x 4 = 2,400,000 against the
    # offer's 1,600,000: 800,000 on the board's basis. Keeping half of gross pay, it takes
    # 1,600,000 gross: the sign-on asks all of it, not the 800,000 the point states.
    at_level = replace(OFFER, target_level_code="E5", target_level_order=5)
    ctx = replace(CTX, offer=at_level, current=LEAVING)
    plan = plan_of(ctx, keep_rate=0.5)
    assert plan.gap.amount == pytest.approx(1_600_000)
    sign_on = by_component(plan)[SIGN_ON]
    assert sign_on.amount == 1_600_000 and sign_on.rule == "below_stay"
    assert plan.money_asked == pytest.approx(plan.gap.amount)


def test_the_plan_says_why_its_asks_fall_short_of_the_gap():
    refused = LoggedAsk(
        topic=STOCK,
        asked_on=date(2026, 1, 5),
        outcome=REFUSED,
        answered_on=date(2026, 1, 6),
    )
    ctx = replace(with_offer(base=240_000), log=(refused,))
    plan = plan_of(ctx)
    # The 400,000 of E6 stock was asked and refused: nothing is asked for it again.
    assert plan.gap.amount == pytest.approx(400_000) and plan.money_asked == 0
    assert (
        "They are USD 400,000 short of it: USD 400,000 of it is in asks held for later or "
        "already answered."
    ) in plan.private_notes
    # With nothing held back the asks add up to the gap and no such note is written.
    assert not any("short of it" in n for n in plan_of(with_offer(base=240_000)).private_notes)
