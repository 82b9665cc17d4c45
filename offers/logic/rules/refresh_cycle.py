"""An internal transfer: keep the annual refresh on its cycle and the current grants vesting."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import INTERNAL, REFRESH, NegotiationContext, NegotiationPoint, Rule


class RefreshCycle(Rule):
    """Ask one's own employer that the move resets neither the refresh cycle nor the grants."""

    key = "refresh_cycle"
    # Only a transfer carries its refreshers and grants over; a new employer starts its own.
    kinds = frozenset({INTERNAL})
    component = REFRESH

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Ask to keep the refresh cycle and the current grants when the transfer has them."""
        offer = ctx.offer
        if offer.refresher_count <= 0 and offer.grant_count <= 0:
            return None
        if offer.grant_count and offer.refresher_count:
            trigger = _("the transfer keeps its current grants and its annual refresher")
        elif offer.grant_count:
            trigger = _("the transfer keeps its current grants")
        else:
            trigger = _("the transfer keeps its annual refresher")
        return NegotiationPoint(
            rule=self.key,
            title=_("Keep the refresh cycle through the move"),
            trigger=trigger,
            ask_term=_("annual refresh on its usual cycle; current grants vesting unchanged"),
            priority=2,
            evidence=_(
                "Could we confirm that I keep my annual refresh on its usual cycle and my current "
                "grants vesting unchanged? The move should not reset my refresh eligibility."
            ),
            figures={
                "grant_count": float(offer.grant_count),
                "refresher_count": float(offer.refresher_count),
            },
        )


RULE = RefreshCycle()
