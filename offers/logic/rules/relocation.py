"""Relocation required: ask for a relocation package (or a better one)."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    EXTERNAL,
    RELOCATION,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    money,
)


class Relocation(Rule):
    """Ask for a relocation package when the offer requires moving."""

    key = "relocation"
    # One's own employer does not pay to relocate a transfer.
    kinds = frozenset({EXTERNAL})
    component = RELOCATION

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        offer = ctx.offer
        if not offer.relocation_required:
            return None
        offered = offer.relocation_amount or 0.0
        term = _("relocation package: moving, temporary housing, flights home, tax gross-up")
        if offered > 0:
            say = _(
                "The relocation offer of {amount}: can it be grossed up and cover temporary housing "
                "and flights home?"
            ).format(amount=money(offered, offer.currency))
        else:
            say = _("The role needs me to move. Could the offer include a relocation package?")
        return NegotiationPoint(
            rule=self.key,
            title=_("Relocation required"),
            trigger=(
                _("offer requires relocation; {amount} offered").format(
                    amount=money(offered, offer.currency)
                )
                if offered > 0
                else _("offer requires relocation; none offered")
            ),
            ask_term=term,
            priority=3 if offered > 0 else 2,
            evidence=say,
            figures={"relocation_offered": offered},
        )


RULE = Relocation()
