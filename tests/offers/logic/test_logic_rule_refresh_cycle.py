"""An internal transfer asks to keep its refresh cycle and its current grants (issue 15)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from offers.logic.negotiation import negotiation_points
from offers.logic.plan import MAX_ASKS, negotiation_plan
from offers.logic.rules import rule_for
from offers.logic.rules.base import MONEY_COMPONENTS, REFRESH
from tests.offers.logic.test_logic_negotiation_kinds import LOUD, as_kind
from tests.offers.logic.test_logic_plan import is_recruiter_safe

RULE = rule_for("refresh_cycle")
SCRIPT = (
    "Could we confirm that I keep my annual refresh on its usual cycle and my current grants "
    "vesting unchanged? The move should not reset my refresh eligibility."
)


def test_the_rule_is_registered_for_internal_transfers_only():
    assert RULE is not None
    assert RULE.applies("internal")
    assert not RULE.applies("external") and not RULE.applies("stay")


@pytest.mark.parametrize("kind", ["external", "stay"])
def test_never_raised_for_an_external_offer_or_for_staying(kind):
    assert "refresh_cycle" not in {p.rule for p in negotiation_points(as_kind(kind))}


def test_a_transfer_with_grants_or_refreshers_asks_to_keep_them():
    for grants, refreshers in ((1, 1), (3, 0), (0, 1)):
        ctx = as_kind("internal", replace(LOUD, offer=replace(LOUD.offer, grant_count=grants)))
        ctx = replace(ctx, offer=replace(ctx.offer, refresher_count=refreshers))
        point = RULE.evaluate(ctx)
        assert point is not None, (grants, refreshers)
        assert point.evidence == SCRIPT
        assert point.ask_amount is None and point.ask_term
        assert is_recruiter_safe(point.evidence)


def test_a_transfer_with_nothing_to_keep_asks_nothing():
    ctx = as_kind("internal")
    ctx = replace(ctx, offer=replace(ctx.offer, grant_count=0, refresher_count=0))
    assert RULE.evaluate(ctx) is None
    assert "refresh_cycle" not in {p.rule for p in negotiation_points(ctx)}


def test_the_plan_counts_it_as_a_term_not_money():
    assert RULE.component == REFRESH
    assert REFRESH not in MONEY_COMPONENTS
    ctx = as_kind("internal")
    points = negotiation_points(ctx)
    plan = negotiation_plan(ctx, points)
    assert len(plan.asks) <= MAX_ASKS
    mine = [a for a in plan.asks if a.rule == "refresh_cycle"]
    mine += [b for b in plan.background if b.point.rule == "refresh_cycle"]
    assert len(mine) == 1
    # Not a money ask: it takes nothing out of the gap, so the money asks are unchanged.
    without = negotiation_plan(ctx, [p for p in points if p.rule != "refresh_cycle"])
    assert plan.money_asked == without.money_asked
    assert plan.gap == without.gap
    for ask in plan.asks:
        if ask.rule == "refresh_cycle":
            assert ask.amount is None and ask.counted == 0 and ask.script == SCRIPT
