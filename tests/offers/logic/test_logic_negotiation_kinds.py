"""Each rule knows the kind of option: an external offer, an internal transfer or staying.

Hand-written cases: one context in which every rule fires for an external offer, then the same
facts for a transfer and for staying (DOMAIN.md, "Negotiation by kind of option").
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest

from offers.logic.errors import LogicInputError
from offers.logic.negotiation import negotiation_points
from offers.logic.rules import RULES
from offers.logic.rules.base import (
    AlternativeFacts,
    CurrentJobFacts,
    NegotiationContext,
    NegotiationPrefs,
    OfferFacts,
)
from tests.offers.logic.facts import BAND, TODAY

OUTSIDE_OFFER = AlternativeFacts(
    name="TikTok 2-2",
    company="TikTok",
    value=1_900_000,
    first_year=450_000,
    evidence_kind="offer_in_hand",
)
MARKET = AlternativeFacts(
    name="Levels median",
    company="market",
    value=2_500_000,
    first_year=600_000,
    evidence_kind="band_median",
)
TRANSFER = AlternativeFacts(
    name="Transfer to Taipei",
    company="Northwind",
    value=2_500_000,
    first_year=600_000,
    evidence_kind="offer_in_hand",
    kind="internal",
)
# Every rule fires on these facts for an external offer, except the transfer's own ask.
LOUD = NegotiationContext(
    offer=OfferFacts(
        key="option",
        name="Option E5",
        company="Option Co",
        currency="USD",
        yearly_totals=(300_000.0, 350_000.0, 450_000.0, 500_000.0),
        yearly_home=(400_000.0,) * 4,
        base=240_000,
        stock_per_year=150_000,
        level_code="E5",
        level_order=5,
        target_level_code="E6",
        target_level_order=6,
        band=BAND,
        remote_weeks_allowed=0,
        relocation_required=True,
        overlap_hours=0.35,
        start_date=date(2026, 2, 1),
        deadline=TODAY + timedelta(days=5),
        vesting_year_weights=(0.05, 0.15, 0.4, 0.4),
        grant_count=1,
        refresher_count=1,
        is_private=True,
        signals=("strong_hire",) * 4,
    ),
    current=CurrentJobFacts(
        yearly_totals_if_stay=(500_000.0,) * 4,
        unvested_forfeited_by_year=((2026, 150_000.0),),
        unvested_total=150_000,
        sign_on_clawback=30_000,
        next_vest_date=date(2026, 2, 15),
        next_vest_value=60_000,
    ),
    alternatives=(OUTSIDE_OFFER,),
    prefs=NegotiationPrefs(required_remote_weeks=26, min_overlap_hours=4),
    today=TODAY,
)
ALL_RULES = {rule.key for rule in RULES}
# Keeping the refresh cycle and bridging a localised base are asked of one's own employer only.
TRANSFER_ONLY = {"refresh_cycle", "localisation"}
TRANSFER_RULES = {
    "refresh_cycle",
    "down_level",
    "competing_offer",
    "remote_gap",
    "low_overlap",
    "exploding_deadline",
    "verdict",
}
STAY_RULES = {"competing_offer", "remote_gap", "low_overlap"}
# Money one's own employer does not pay to move or keep you.
OWN_EMPLOYER_NEVER = ("sign-on", "relocation", "make-whole")


def as_kind(kind: str, ctx: NegotiationContext = LOUD) -> NegotiationContext:
    return replace(ctx, offer=replace(ctx.offer, kind=kind))


def rules_for(ctx: NegotiationContext) -> set[str]:
    return {p.rule for p in negotiation_points(ctx)}


def test_an_external_offer_keeps_every_rule():
    assert rules_for(LOUD) == ALL_RULES - TRANSFER_ONLY
    assert len(ALL_RULES) == 16


def test_a_transfer_negotiates_level_remote_terms_time_and_retention_only():
    points = negotiation_points(as_kind("internal"))
    assert {p.rule for p in points} == TRANSFER_RULES
    for point in points:
        said = f"{point.title} {point.ask_term} {point.evidence}".lower()
        assert not any(word in said for word in OWN_EMPLOYER_NEVER), (point.rule, said)


def test_staying_gets_only_retention_and_remote_arrangement_points():
    points = negotiation_points(as_kind("stay"))
    assert {p.rule for p in points} == STAY_RULES
    for point in points:
        said = f"{point.title} {point.ask_term} {point.evidence}".lower()
        assert not any(word in said for word in OWN_EMPLOYER_NEVER), (point.rule, said)


@pytest.mark.parametrize(
    ("key", "kinds"),
    [
        ("below_stay", {"external"}),
        ("make_whole", {"external"}),
        ("clawback", {"external"}),
        ("top_of_band", {"external"}),
        ("down_level", {"external", "internal"}),
        ("competing_offer", {"external", "internal", "stay"}),
        ("remote_gap", {"external", "internal", "stay"}),
        ("low_overlap", {"external", "internal", "stay"}),
        ("back_loaded", {"external"}),
        ("exploding_deadline", {"external", "internal"}),
        ("stock_risk", {"external"}),
        ("relocation", {"external"}),
        ("start_date", {"external"}),
        ("refresh_cycle", {"internal"}),
        ("verdict", {"external", "internal"}),
    ],
)
def test_each_rule_says_which_kinds_it_is_for(key, kinds):
    rule = next(r for r in RULES if r.key == key)
    assert {k for k in ("external", "internal", "stay") if rule.applies(k)} == kinds


def test_retention_asks_for_a_grant_and_rests_on_outside_offers_only():
    external = {p.rule: p for p in negotiation_points(LOUD)}["competing_offer"]
    assert external.ask_term == "match in stock or sign-on"
    for kind in ("internal", "stay"):
        point = {p.rule: p for p in negotiation_points(as_kind(kind))}["competing_offer"]
        assert point.ask_term == "a retention grant in stock to close the gap"
        assert point.ask_amount == pytest.approx(external.ask_amount)
        assert point.figures["alternative"] == "TikTok 2-2"
    # Market data and another role at one's own employer are no leverage for retention.
    no_leverage = replace(LOUD, alternatives=(MARKET, TRANSFER))
    assert "competing_offer" not in rules_for(as_kind("stay", no_leverage))
    assert "competing_offer" not in rules_for(as_kind("internal", no_leverage))
    # An external offer may still cite them.
    assert "competing_offer" in rules_for(no_leverage)


def test_unknown_kind_is_refused():
    with pytest.raises(LogicInputError) as info:
        negotiation_points(as_kind("sabbatical"))
    assert info.value.field == "kind"
    bad = replace(LOUD, alternatives=(replace(OUTSIDE_OFFER, kind="freelance"),))
    with pytest.raises(LogicInputError) as info:
        negotiation_points(bad)
    assert info.value.field == "kind"
