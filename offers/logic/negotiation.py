"""Negotiation points for one offer: every registered rule that is for its kind, in order.

The facts the rules read and the point they raise live in ``offers.logic.rules.base``; each
rule lives in its own module under ``offers.logic.rules``. Money asks are in the offer's
currency (what you say to the recruiter); home-currency gaps are converted with
``fx_offer_to_home`` (home amount = offer amount x fx).
"""

from __future__ import annotations

from dataclasses import replace

from offers.logic.errors import LogicInputError
from offers.logic.rules import RULES
from offers.logic.rules.base import (
    EVIDENCE_STRENGTH,
    OPTION_KINDS,
    NegotiationContext,
    NegotiationPoint,
    point_said,
)


def _check_context(ctx: NegotiationContext) -> None:
    """Raise LogicInputError unless the context is usable."""
    prefs = ctx.prefs
    if not prefs.fx_offer_to_home > 0:
        raise LogicInputError("fx_offer_to_home", "exchange rate must be above 0")
    if prefs.horizon_years < 1:
        raise LogicInputError("horizon_years", "horizon must be at least one year")
    if not ctx.offer.yearly_totals or not ctx.offer.yearly_home:
        raise LogicInputError("yearly_totals", "offer needs at least one year of totals")
    if ctx.offer.kind not in OPTION_KINDS:
        raise LogicInputError("kind", f"kind must be one of {sorted(OPTION_KINDS)}")
    for alternative in ctx.alternatives:
        if alternative.evidence_kind not in EVIDENCE_STRENGTH:
            raise LogicInputError(
                "evidence_kind",
                f"{alternative.name}: evidence kind must be one of {list(EVIDENCE_STRENGTH)}",
            )
        if alternative.kind not in OPTION_KINDS:
            raise LogicInputError(
                "kind", f"{alternative.name}: kind must be one of {sorted(OPTION_KINDS)}"
            )


def negotiation_points(ctx: NegotiationContext) -> list[NegotiationPoint]:
    """Return the points every rule for the offer's kind raises, by priority, then largest ask."""
    _check_context(ctx)
    points = [
        (order, point)
        for order, rule in enumerate(RULES)
        if rule.applies(ctx.offer.kind) and (point := rule.evaluate(ctx))
    ]
    points.sort(
        key=lambda row: (
            row[1].priority,
            row[1].ask_amount is None,
            -(row[1].ask_amount or 0.0),
            row[0],
        )
    )
    return [
        point_said(
            ctx, point if point.component else replace(point, component=RULES[order].component)
        )
        for order, point in points
    ]
