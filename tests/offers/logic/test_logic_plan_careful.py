"""Issue 26, hand-made: the plan reads the log, says only what helps, in each term's currency.

The offer and context are test_logic_plan's (an E5 offer at the top of its band, targeted E6,
leaving unvested stock, a deadline in five days); each case changes what it is about.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

import pytest

from offers.logic.answers import (
    CLOSED,
    FOLLOW_UP,
    NEXT_STEP,
    TO_ASK,
    WAITING,
    follow_up_day,
    working_days_after,
)
from offers.logic.draft import draft_message, message_note
from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.plan_figures import walk_away
from offers.logic.ranking import (
    CO_FIRST_TOLERANCE,
    OptionFacts,
    RankingPrefs,
    rank_options,
)
from offers.logic.rules.base import (
    ACCEPTED,
    BASE,
    COUNTERED,
    DEADLINE,
    LEVEL,
    REFUSED,
    REMOTE,
    STOCK,
    LoggedAsk,
    loop_words,
)
from offers.logic.sensitivity import weight_sensitivity
from tests.offers.logic.facts import TODAY
from tests.offers.logic.test_logic_plan import CTX, OFFER

# TODAY is Saturday 10 January 2026.
MONDAY = date(2026, 1, 5)


def plan_of(ctx=CTX, **kwargs):
    return negotiation_plan(ctx, negotiation_points(ctx), **kwargs)


def logged(ctx=CTX, *asks):
    return replace(ctx, log=tuple(asks))


def ask_of(plan, component):
    return next(a for a in plan.asks if a.component == component)


SAID = re.compile(r"\b[A-Z]{3} [\d,]+")


# The log -----------------------------------------------------------------------------------


def test_working_days_skip_the_weekend():
    assert working_days_after(date(2026, 1, 8), 4) == date(2026, 1, 14)  # Thu -> Wed
    waiting = LoggedAsk(topic=DEADLINE, asked_on=date(2026, 1, 8))
    assert follow_up_day(waiting, None) == date(2026, 1, 14)
    # Before a deadline on Tuesday 13th: the working day before it.
    assert follow_up_day(waiting, date(2026, 1, 13)) == date(2026, 1, 12)


def test_an_ask_waiting_for_its_answer_is_not_asked_again():
    asked = LoggedAsk(
        topic=DEADLINE,
        asked_on=TODAY - timedelta(days=2),
        channel="Recruiter",
        contact="Chris Alvarez",
    )
    plan = plan_of(logged(CTX, asked))
    deadline = ask_of(plan, DEADLINE)
    assert deadline.status == WAITING and not deadline.state.to_send
    assert deadline.state.note == (
        "Asked on 8 Jan 2026 through Chris Alvarez, Recruiter; waiting for an answer "
        "(follow up on 14 Jan 2026)."
    )
    text = draft_message(plan)
    assert deadline.script not in text
    assert "follow up" not in text and "deadline" not in text.lower()
    # The other asks still go out, numbered as sent.
    numbered = [line[3:] for line in text.splitlines() if re.match(r"^\d\. ", line)]
    assert numbered == [a.script for a in plan.asks if a.state.to_send]
    assert plan.waiting and not plan.follow_ups and plan.waiting_other == ()


def test_a_waiting_ask_is_followed_up_after_four_working_days():
    asked = LoggedAsk(topic=REMOTE, asked_on=MONDAY, channel="Recruiter", contact="Mei Lin")
    ctx = replace(logged(CTX, asked), offer=replace(OFFER, deadline=None))
    plan = plan_of(ctx)
    remote = ask_of(plan, REMOTE)
    assert remote.status == FOLLOW_UP and remote.state.follow_up_on == date(2026, 1, 9)
    text = draft_message(plan)
    assert remote.script not in text
    assert (
        "I also wanted to follow up on my question of 5 Jan 2026 about the remote arrangement: "
        "could you let me know where it stands?"
    ) in text


def test_with_everything_waiting_the_draft_is_the_follow_up_for_its_day():
    asks = [
        LoggedAsk(topic=component, asked_on=TODAY - timedelta(days=1))
        for component in (STOCK, REMOTE, DEADLINE, LEVEL)
    ]
    plan = plan_of(logged(CTX, *asks))
    assert all(a.status == WAITING for a in plan.asks)
    text = draft_message(plan)
    assert not re.search(r"^\d\. ", text, re.M)
    assert "I wanted to follow up on my question of 9 Jan 2026 about the stock" in text
    assert "Nothing to send today" not in text
    assert message_note(plan).startswith("Your asks are waiting for an answer: nothing to send")


def test_a_counter_is_the_next_step_and_the_message_thanks_them_first():
    came_back = LoggedAsk(
        topic=LEVEL,
        asked_on=MONDAY,
        channel="Recruiter",
        outcome=REFUSED,
        answered_on=date(2026, 1, 8),
        answer="E5 stays, stock raised to the E6 band",
        revised=(STOCK,),
    )
    plan = plan_of(logged(CTX, came_back))
    stock = ask_of(plan, STOCK)
    assert stock.status == NEXT_STEP and stock.state.to_send
    assert stock.state.note == (
        "They came back on 8 Jan 2026 (Recruiter): E5 stays, stock raised to the E6 band. "
        "Accept, or ask for USD 100,000 a year."
    )
    # The level was refused: not asked again, only its pay.
    assert stock.script.startswith(
        "Thank you for coming back to me on the level. As the level stays at E5, I'd like E6 pay."
    )
    assert "level reviewed" not in stock.script
    assert plan.target.level_code == "E5"
    # The draft thanks once, then says the rest of the script.
    opening = "Thank you for coming back to me on the level."
    lines = draft_message(plan).splitlines()
    assert lines[2:5] == [opening, "", stock.script.removeprefix(opening).lstrip()]


def test_a_refusal_or_an_agreement_closes_the_ask():
    refused = LoggedAsk(
        topic=REMOTE, asked_on=MONDAY, outcome=REFUSED, answered_on=date(2026, 1, 7)
    )
    plan = plan_of(logged(CTX, refused))
    assert REMOTE not in {a.component for a in plan.asks}
    closed = next(b for b in plan.background if b.point.component == REMOTE)
    assert closed.note.startswith("Refused on 7 Jan 2026") and "Not asked again" in closed.note
    agreed = replace(refused, outcome=ACCEPTED)
    plan = plan_of(logged(CTX, agreed))
    closed = next(b for b in plan.background if b.point.component == REMOTE)
    assert closed.note.startswith("Agreed on 7 Jan 2026")
    assert all(a.status != CLOSED for a in plan.asks)


def test_a_counter_on_a_term_is_not_asked_again_the_draft_thanks_and_moves_on():
    countered = LoggedAsk(
        topic=DEADLINE,
        asked_on=MONDAY,
        outcome=COUNTERED,
        answered_on=date(2026, 1, 6),
        answer="Two more days",
    )
    plan = plan_of(logged(CTX, countered))
    assert DEADLINE not in {a.component for a in plan.asks}
    closed = next(b for b in plan.background if b.point.component == DEADLINE)
    assert closed.note.startswith("They came back on 6 Jan 2026 (the company): Two more days.")
    text = draft_message(plan)
    assert text.splitlines()[2] == "Thank you for coming back to me on the deadline."
    assert len(plan.to_send) == 1 and plan.to_send[0].script in text


def test_no_log_means_every_ask_is_to_ask():
    plan = plan_of()
    assert {a.status for a in plan.asks} == {TO_ASK}
    assert plan.waiting == () and message_note(plan) == ""


# What the recruiter hears -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("signals", "changes", "said"),
    [
        (("strong_hire",) * 3 + ("hire",), {}, "the team's feedback supports E6"),
        (("strong_hire", "hire", "hire"), {}, "the loop went well"),
        (("strong_hire",) * 5 + ("strong_no_hire",), {}, ""),
        (("strong_hire", "lean_hire"), {}, ""),
        (("strong_hire",) * 4, {"rounds_ahead": True}, ""),
        (("hire",), {"in_hand": False}, ""),
        ((), {}, ""),
    ],
)
def test_the_loop_is_quoted_only_when_it_helps(signals, changes, said):
    offer = replace(OFFER, signals=signals, **changes)
    assert loop_words(offer, "E6") == said
    down = next(p for p in negotiation_points(replace(CTX, offer=offer)) if p.rule == "down_level")
    for text in (down.evidence, down.reason):
        assert "Hire" not in text and "round" not in text
        assert (said in text) if said else "feedback" not in text and "loop" not in text


def test_a_cap_below_the_offers_base_is_never_said():
    above = replace(OFFER, base=260_000)  # the band's base tops out at 240,000
    top = next(p for p in negotiation_points(replace(CTX, offer=above)) if p.rule == "top_of_band")
    for text in (top.evidence, top.reason):
        assert "capped" not in text and "240,000" not in text
        assert text.startswith("As base has little room to move")
    # At the cap it is the offer's own base: said as it is.
    at_cap = next(p for p in negotiation_points(CTX) if p.rule == "top_of_band")
    assert "capped at USD 240,000 for E5" in at_cap.reason


def test_stock_is_asked_in_the_grants_currency_round_and_cash_to_the_thousand():
    # Paid in SGD, stock priced in USD: 1 USD buys 1.35 SGD.
    sgd = replace(
        OFFER,
        currency="SGD",
        base=324_000,
        stock_per_year=202_500,
        stock_currency="USD",
        fx_stock_to_offer=1.35,
    )
    band = replace(
        OFFER.band,
        base_max=324_000,
        stock_mid=202_500,
        next_level_stock_mid=337_500 + 1_234,  # USD 250,914: 100,914 a year more
    )
    ctx = replace(
        CTX, offer=replace(sgd, band=band), prefs=replace(CTX.prefs, fx_offer_to_home=0.74)
    )
    plan = plan_of(ctx, keep_rate=0.5)
    stock = ask_of(plan, STOCK)
    assert stock.currency == "USD" and stock.amount == 100_000
    assert stock.script.endswith("Could we add USD 100,000 a year in stock?")
    # The base is the pay's (SGD); every stock figure is the grant's (USD).
    assert "(USD 250,000 a year instead of USD 150,000)" in stock.script
    assert stock.offer_amount == pytest.approx(135_000)
    assert plan.target.stock_currency == "USD"
    assert plan.target.stock_per_year == pytest.approx(250_000)
    for ask in plan.asks:
        if ask.amount is not None and ask.component != STOCK:
            assert ask.currency == "SGD" and ask.amount % 1_000 == 0
    assert plan.money_asked <= plan.gap.amount + 1e-6
    for text in [a.script for a in plan.asks]:
        for figure in SAID.findall(text):
            assert figure.endswith("000"), (figure, text)


def test_a_base_ask_is_rounded_to_the_thousand():
    from offers.logic.plan_figures import said_amount

    assert said_amount(12_345.0, 50_000.0, 1_000.0) == 12_000
    assert said_amount(12_500.0, 50_000.0, 1_000.0) == 13_000
    # Never above the room left: rounded down to fit.
    assert said_amount(12_800.0, 12_600.0, 1_000.0) == 12_000
    assert said_amount(400.0, 400.0, 1_000.0) == 0
    assert BASE  # the base asks share the cash step


def test_what_missing_remote_weeks_are_worth_is_bounded_by_their_pay():
    # Weights value a remote week at 200,000 over four years: 26 weeks would be 5.2 million.
    ctx = replace(CTX, prefs=replace(CTX.prefs, money_per_remote_week=200_000.0))
    remote = next(p for p in negotiation_points(ctx) if p.rule == "remote_gap")
    # 26 weeks of the offer's 400,000 a year: 200,000 a year, 800,000 over four years.
    assert remote.figures["gap_worth_home"] == pytest.approx(800_000)
    assert "outweigh their own pay (USD 200,000 a year)" in remote.private
    assert "condition, not a price" in remote.private
    assert "5,200,000" not in remote.private


# Walk-away and flips a person can act on ----------------------------------------------------

PREFS = RankingPrefs(weights={"comp": 2, "timezone": 3, "growth": 1}, required_remote_weeks=0)


def option(key, value, overlap=8.0, growth=3):
    return OptionFacts(
        key=key, name=key.title(), kind="external", comp_value=value, first_year_total=value / 4,
        remote_weeks_allowed=10, remote_policy="hybrid", overlap_hours=overlap, growth=growth,
    )  # fmt: skip


def total(options, key):
    return next(r.total for r in rank_options(options, PREFS) if r.key == key)


def test_a_co_first_option_walks_away_below_its_value_not_above():
    first = option("first", 1_000_000)
    close = option("close", 960_000)
    options = [first, close]
    gap = total(options, "first") - total(options, "close")
    assert 0 < gap <= CO_FIRST_TOLERANCE  # second, 4% less pay: a point and a third of fit
    walk = walk_away(options, PREFS, "close", tolerance=CO_FIRST_TOLERANCE)
    assert walk.current_rank == 2 and walk.level and walk.rival == "First"
    assert walk.value_home is not None and walk.value_home <= close.comp_value
    # Without the tolerance it would have to rank first: a figure above its value.
    strict = walk_away(options, PREFS, "close")
    assert strict.value_home > close.comp_value


def test_a_rise_beyond_a_negotiation_is_no_walk_away_figure():
    far = option("far", 400_000, overlap=0.0)
    options = [option("near", 1_000_000), far]
    walk = walk_away(options, PREFS, "far", tolerance=CO_FIRST_TOLERANCE)
    assert walk.value_home is None and "not money" in walk.reason


def test_the_first_choice_walks_away_at_or_below_its_value():
    options = [option("top", 1_000_000), option("next", 1_100_000, overlap=4.0)]
    walk = walk_away(options, PREFS, "top", tolerance=CO_FIRST_TOLERANCE)
    assert walk.current_rank == 1 and walk.value_home <= 1_000_000


def test_no_weight_moves_the_top_reads_as_words():
    options = [option("top", 1_000_000, growth=5), option("low", 900_000, overlap=4.0, growth=1)]
    sensitivity = weight_sensitivity(options, PREFS)
    assert sensitivity.unmoved
    assert all(r.any_weight for r in sensitivity.ranges.values())


def test_a_transfers_retention_grant_is_asked_in_the_parents_stock_currency():
    # Paid in TWD; the parent's stock is priced in USD (1 USD = 32 TWD). At its target level,
    # an outside offer worth USD 312,345 more over four years: a retention grant.
    twd = replace(
        OFFER,
        kind="internal",
        currency="TWD",
        base=4_800_000,
        stock_per_year=0,
        target_level_order=5,
        target_level_code="E5",
        band=None,
        stock_currency="USD",
        fx_stock_to_offer=32.0,
    )
    outside = replace(CTX.alternatives[0], value=1_912_345)
    ctx = replace(
        CTX,
        offer=twd,
        alternatives=(outside,),
        prefs=replace(CTX.prefs, fx_offer_to_home=1 / 32),
    )
    plan = plan_of(ctx)
    retention = next(a for a in plan.asks if a.component == "retention")
    assert retention.currency == "USD" and retention.amount == 310_000
    assert "Could we agree a retention grant of USD 310,000 in stock?" in retention.script
    assert "TWD" not in retention.script
    assert plan.target.stock_currency == "USD" and plan.target.retention == 310_000
