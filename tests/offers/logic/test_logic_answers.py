"""Answers are read as answers: a refused ask is not asked again, a counter is answered with
thanks and one different ask (or a yes), a pending ask waits for its follow-up.

The offer is test_logic_plan's (an E5 offer at the top of its band, targeted E6, USD); its plan
with no log asks for stock, remote work and the deadline.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from offers.logic.answers import (
    CLOSED,
    NEXT_STEP,
    WAITING,
    counters_to_answer,
)
from offers.logic.draft import draft_message, message_note
from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.rules.base import (
    ACCEPTED,
    COUNTERED,
    LEVEL,
    REFUSED,
    REMOTE,
    STOCK,
    LoggedAsk,
)
from tests.offers.logic.test_logic_plan import CTX

MONDAY = date(2026, 1, 5)  # the context's today is Saturday 10 January 2026
NUMBERED = re.compile(r"^\d\. ", re.M)


def plan_of(*asks):
    ctx = replace(CTX, log=tuple(asks))
    return negotiation_plan(ctx, negotiation_points(ctx))


def components(plan):
    return [a.component for a in plan.asks]


STOCK_COUNTER = LoggedAsk(
    topic=STOCK,
    asked_on=MONDAY,
    channel="Recruiter",
    contact="Chris",
    outcome=COUNTERED,
    answered_on=date(2026, 1, 8),
    answer="Stock stays at USD 720,000; sign-on to USD 70,000.",
)


def test_the_plan_without_a_log_asks_for_stock():
    assert STOCK in components(plan_of())


def test_a_counter_in_words_is_thanked_for_and_not_asked_again():
    plan = plan_of(STOCK_COUNTER)
    assert STOCK not in components(plan)
    note = next(b.note for b in plan.background if b.point.component == STOCK)
    assert note == (
        "They came back on 8 Jan 2026 (Chris, Recruiter): Stock stays at USD 720,000; sign-on "
        "to USD 70,000. Not asked again in the same terms: accept it, or make one different ask."
    )
    text = draft_message(plan)
    lines = text.splitlines()
    assert lines[2] == "Thank you for coming back to me on the stock."
    # One different ask after the thanks, never the stock again; the rest waits.
    assert len(plan.to_send) == 1 and plan.to_send[0].component != STOCK
    assert lines[3:5] == ["", plan.to_send[0].script]
    assert "Could we talk about it this week? Thank you again." in lines  # one ask: "it"
    assert "in stock" not in text and not NUMBERED.search(text)
    assert any("once the asks above are settled" in b.note for b in plan.background)


def test_a_counter_with_nothing_else_to_ask_is_accepted():
    others = [
        LoggedAsk(topic=c, asked_on=MONDAY, outcome=ACCEPTED, answered_on=date(2026, 1, 6))
        for c in {p.component for p in negotiation_points(CTX) if p.component} - {STOCK}
    ]
    plan = plan_of(*others, STOCK_COUNTER)
    assert plan.to_send == ()
    text = draft_message(plan)
    assert "Thank you for coming back to me on the stock." in text
    assert "I'm happy to accept this." in text
    assert message_note(plan) == ""


def test_a_counter_already_replied_to_is_not_thanked_again():
    later = LoggedAsk(topic=REMOTE, asked_on=date(2026, 1, 9))
    assert counters_to_answer((STOCK_COUNTER, later)) == ()
    plan = plan_of(STOCK_COUNTER, later)
    assert STOCK not in components(plan)
    assert "coming back to me on the stock" not in draft_message(plan)


def test_a_refused_ask_is_never_asked_again_even_when_another_answer_revises_it():
    refused = LoggedAsk(topic=STOCK, asked_on=MONDAY, outcome=REFUSED, answered_on=MONDAY)
    relevel = LoggedAsk(
        topic=LEVEL,
        asked_on=date(2026, 1, 6),
        outcome=REFUSED,
        answered_on=date(2026, 1, 7),
        revised=(STOCK,),
    )
    plan = plan_of(refused, relevel)
    assert STOCK not in components(plan)
    stock = next(b for b in plan.background if b.point.component == STOCK)
    assert stock.note.startswith("Refused on 5 Jan 2026")
    assert "in stock" not in draft_message(plan)


def test_another_parts_answer_makes_a_different_ask_the_next_step():
    relevel = LoggedAsk(
        topic=LEVEL, asked_on=MONDAY, outcome=REFUSED, answered_on=MONDAY, revised=(STOCK,)
    )
    plan = plan_of(relevel)
    stock = next(a for a in plan.asks if a.component == STOCK)
    assert stock.status == NEXT_STEP and plan.to_send == (stock,)  # the one ask it answers with
    # One sentence of thanks (the next step's own, said once), then the rest of its script.
    opening = "Thank you for coming back to me on the level."
    assert stock.script.startswith(opening)
    lines = draft_message(plan).splitlines()
    assert lines[2:5] == [opening, "", stock.script.removeprefix(opening).lstrip()]


def test_a_pending_ask_is_not_repeated_and_waits_for_its_follow_up():
    pending = LoggedAsk(topic=STOCK, asked_on=date(2026, 1, 8), channel="Recruiter")
    plan = plan_of(pending)
    stock = next(a for a in plan.asks if a.component == STOCK)
    # Thursday 8 Jan + 4 working days (Fri 9, Mon 12, Tue 13, Wed 14) = Wednesday 14 Jan.
    assert stock.status == WAITING and stock.state.follow_up_on == date(2026, 1, 14)
    assert stock.script not in draft_message(plan)
    assert "in stock" not in draft_message(plan)
    assert all(a.status != CLOSED for a in plan.asks)


def test_two_counters_are_thanked_for_in_one_sentence_and_two_asks_are_numbered():
    from offers.logic.answers import counter_thanks

    remote = LoggedAsk(topic="remote", asked_on=MONDAY, outcome="countered", answered_on=MONDAY)
    stock = LoggedAsk(topic=STOCK, asked_on=MONDAY, outcome="countered", answered_on=MONDAY)
    assert counter_thanks(remote, stock) == (
        "Thank you for coming back to me on the remote arrangement and the stock."
    )
    assert counter_thanks(stock, stock) == "Thank you for coming back to me on the stock."
