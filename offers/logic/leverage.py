"""Leverage: the alternatives the user can cite to a company, and the best of them.

An alternative is leverage only when it is an offer in hand that meets the user's hard
constraints (an option they would take): never an offer still expected, a process still
running, market data, or an option a hard constraint excludes. Bluffing with an option one
would not take is a bluff a company can call. Citing to one's own employer (a transfer, or
staying) takes another employer's offer.
"""

from __future__ import annotations

from offers.logic.rules.base import EXTERNAL, AlternativeFacts, NegotiationContext

IN_HAND = "offer_in_hand"


def would_take(alternative: AlternativeFacts) -> bool:
    """Return whether the alternative is an option the user has and would take."""
    return alternative.evidence_kind == IN_HAND and alternative.meets_constraints


def is_leverage(alternative: AlternativeFacts, ctx: NegotiationContext) -> bool:
    """Return whether the user can cite the alternative to this option's company."""
    return would_take(alternative) and (ctx.offer.kind == EXTERNAL or alternative.kind == EXTERNAL)


def leverage_of(ctx: NegotiationContext) -> tuple[AlternativeFacts, ...]:
    """Return the alternatives the user can cite for this option."""
    return tuple(a for a in ctx.alternatives if is_leverage(a, ctx))


def best_alternative(ctx: NegotiationContext) -> AlternativeFacts | None:
    """Return the best alternative the user would take: in hand, within their constraints."""
    taken = [a for a in ctx.alternatives if would_take(a)]
    return max(taken, key=lambda a: (a.value, a.name), default=None)
