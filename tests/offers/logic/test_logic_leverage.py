"""Leverage is only an offer in hand that meets the hard constraints: never an offer still
expected, never an option a hard constraint excludes, never a bluff to one's own employer.

The offer is test_logic_plan's (Option E5, worth 1,600,000 over four years in home currency).
"""

from __future__ import annotations

from dataclasses import replace

from offers.logic.draft import draft_message
from offers.logic.leverage import best_alternative, leverage_of
from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.rules.base import EXTERNAL, INTERNAL, AlternativeFacts
from tests.offers.logic.test_logic_plan import CTX, OFFER

IN_HAND = AlternativeFacts(
    name="Rival in hand", company="Rival", value=1_700_000, first_year=450_000,
    evidence_kind="offer_in_hand",
)  # fmt: skip
EXPECTED = replace(
    IN_HAND, name="TikTok (expected)", company="TikTok", value=2_500_000,
    evidence_kind="active_process",
)  # fmt: skip
EXCLUDED = replace(
    IN_HAND, name="Meta (on site only)", company="Meta", value=2_200_000,
    meets_constraints=False,
)  # fmt: skip


def ctx_with(*alternatives, kind=EXTERNAL):
    return replace(CTX, alternatives=alternatives, offer=replace(OFFER, kind=kind))


def rules(ctx):
    return {p.rule: p for p in negotiation_points(ctx)}


def said(ctx):
    plan = negotiation_plan(ctx, negotiation_points(ctx))
    return " ".join([draft_message(plan), *plan.leverage, *(a.script for a in plan.asks)])


def test_an_offer_still_expected_is_no_leverage_and_no_best_alternative():
    ctx = ctx_with(EXPECTED)
    assert leverage_of(ctx) == () and best_alternative(ctx) is None
    assert "competing_offer" not in rules(ctx)
    assert "best_alternative" not in rules(ctx)["verdict"].figures
    assert "TikTok" not in said(ctx) and "competing" not in said(ctx)


def test_an_option_a_hard_constraint_excludes_is_no_leverage():
    ctx = ctx_with(EXCLUDED)
    assert leverage_of(ctx) == () and best_alternative(ctx) is None
    assert "competing_offer" not in rules(ctx)
    assert "Meta" not in said(ctx)


def test_the_best_alternative_is_the_best_option_in_hand_within_the_constraints():
    ctx = ctx_with(EXPECTED, EXCLUDED, IN_HAND)
    assert best_alternative(ctx) == IN_HAND
    verdict = rules(ctx)["verdict"]
    # 1,700,000 / 1,600,000 = 106 %: below the best alternative (more than 5 % above).
    assert verdict.figures["best_alternative"] == "Rival in hand"
    assert verdict.figures["best_alternative_ratio"] == 1_700_000 / 1_600_000
    competing = rules(ctx)["competing_offer"]
    assert competing.figures["alternative"] == "Rival in hand"
    assert "alternative_2" not in competing.figures  # the others are not cited at all
    # The gap it asks to close: 1,700,000 - 1,600,000 = 100,000 (home = offer currency).
    assert competing.figures["gap_home"] == 100_000


def test_a_transfer_never_bluffs_the_employer_with_an_option_the_user_would_not_take():
    ctx = ctx_with(EXCLUDED, EXPECTED, kind=INTERNAL)
    assert "competing_offer" not in rules(ctx)
    text = said(ctx)
    assert "Meta" not in text and "TikTok" not in text and "offer in hand" not in text
    # An outside offer in hand within the constraints is what a retention ask rests on.
    ctx = ctx_with(EXCLUDED, IN_HAND, kind=INTERNAL)
    assert rules(ctx)["competing_offer"].figures["alternative"] == "Rival in hand"


def test_a_transfer_cites_no_other_option_of_its_own_employer():
    inside = replace(IN_HAND, name="Another team", kind=INTERNAL)
    ctx = ctx_with(inside, kind="stay")
    assert leverage_of(ctx) == ()
    assert best_alternative(ctx) == inside  # still the user's own best alternative, privately
