"""An internal transfer onto another payroll asks to bridge a base localised down (issue 35,
item 11: the transfer's plan is refresher parity and localisation). Figures by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.rules import rule_for
from offers.logic.rules.base import BASE, CurrentJobFacts, NegotiationPrefs
from tests.offers.logic.test_logic_negotiation_kinds import as_kind
from tests.offers.logic.test_logic_plan import is_recruiter_safe

RULE = rule_for("localisation")


def transfer(base=4_800_000.0, base_home=205_000.0, fx=0.03125):
    """A move onto a TWD payroll (32 TWD a USD) from a USD 205,000 base."""
    ctx = as_kind("internal")
    return replace(
        ctx,
        offer=replace(ctx.offer, currency="TWD", base=base),
        current=CurrentJobFacts(yearly_totals_if_stay=(300_000.0,) * 4, base_home=base_home),
        prefs=NegotiationPrefs(home_currency="USD", fx_offer_to_home=fx),
    )


def test_a_base_localised_down_asks_an_allowance_for_two_years():
    # TWD 4,800,000 x 0.03125 = USD 150,000 against USD 205,000: the difference is
    # USD 55,000 a year = TWD 1,760,000.
    (point,) = [p for p in negotiation_points(transfer()) if p.rule == "localisation"]
    assert RULE.component == BASE and point.component == BASE
    assert point.ask_term == "a localisation allowance of about TWD 1,760,000 a year for two years"
    assert point.ask_amount is None  # a term: the gap's money is not re-asked as base
    assert point.evidence == (
        "Moving onto the local payroll, my base goes from USD 205,000 to TWD 4,800,000 (about "
        "USD 150,000 at today's rate). Could a localisation allowance of about TWD 1,760,000 a "
        "year bridge the difference for the first two years?"
    )
    assert is_recruiter_safe(point.evidence)


@pytest.mark.parametrize(
    "changes",
    [
        {"base": 6_400_000.0},  # USD 200,000: within 5 % of 205,000, nothing to bridge
        {"base_home": 0.0},  # today's base not known
    ],
)
def test_no_ask_when_the_base_holds_or_is_not_known(changes):
    assert RULE.evaluate(transfer(**changes)) is None


def test_only_for_a_transfer():
    assert RULE.applies("internal") and not RULE.applies("external")
    assert not RULE.applies("stay")


def test_the_plan_asks_it_as_a_term_not_as_money():
    # A quiet transfer: at its level, remote enough, no deadline, nothing to keep, no rival.
    ctx = transfer()
    quiet = replace(
        ctx.offer, band=None, target_level_order=None, remote_weeks_allowed=52.0,
        overlap_hours=8.0, deadline=None, grant_count=0, refresher_count=0,
    )  # fmt: skip
    ctx = replace(ctx, offer=quiet, alternatives=())
    plan = negotiation_plan(ctx, negotiation_points(ctx))
    (ask,) = [a for a in plan.asks if a.rule == "localisation"]
    assert ask.amount is None and "TWD 1,760,000 a year" in ask.script
