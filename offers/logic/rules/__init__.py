"""The negotiation rules, one module each, and the one registry that lists them.

A rule is an object with ``key``, ``applies(kind)``, ``evaluate(ctx)``,
``scenario_adjustment(point)`` and ``answered(point, outcome)`` (see ``base.NegotiationRule``).
Everything that needs to know about a rule looks it up here; nothing else names one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from offers.logic.rules import (
    back_loaded,
    below_stay,
    clawback,
    competing_offer,
    down_level,
    exploding_deadline,
    localisation,
    low_overlap,
    make_whole,
    refresh_cycle,
    relocation,
    remote_gap,
    start_date,
    stock_risk,
    top_of_band,
    verdict,
)
from offers.logic.rules.base import NegotiationRule

# In this order when two points tie on priority and ask.
RULES: tuple[NegotiationRule, ...] = (
    below_stay.RULE,
    make_whole.RULE,
    clawback.RULE,
    top_of_band.RULE,
    down_level.RULE,
    competing_offer.RULE,
    remote_gap.RULE,
    low_overlap.RULE,
    back_loaded.RULE,
    exploding_deadline.RULE,
    stock_risk.RULE,
    relocation.RULE,
    start_date.RULE,
    refresh_cycle.RULE,
    localisation.RULE,
    verdict.RULE,
)
RULES_BY_KEY: Mapping[str, NegotiationRule] = MappingProxyType({r.key: r for r in RULES})


def rule_for(key: str) -> NegotiationRule | None:
    """Return the rule with this key, or None."""
    return RULES_BY_KEY.get(key)
