"""Clawback: ask the new employer to cover the current sign-on that leaving repays."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    NegotiationContext,
    NegotiationPoint,
    SignOnAsk,
    about,
    held_said,
    money,
    to_offer,
)


class Clawback(SignOnAsk):
    """Ask the new employer to cover a sign-on the current employer would claw back."""

    key = "clawback"

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        if ctx.current is None or ctx.current.sign_on_clawback <= 0:
            return None
        home = ctx.prefs.home_currency
        clawback = ctx.current.sign_on_clawback
        ask = to_offer(ctx, clawback)
        return NegotiationPoint(
            rule=self.key,
            title=_("Cover the sign-on clawback"),
            trigger=_("current sign-on repayable if leaving now: {amount}").format(
                amount=money(clawback, home)
            ),
            ask_amount=ask,
            ask_currency=ctx.offer.currency,
            ask_term=_("sign-on covering the repayment (gross)"),
            priority=1,
            evidence=_(
                "Leaving now means repaying {amount} of my current sign-on (gross). I'm asking you "
                "to cover it with a sign-on of {ask}."
            ).format(amount=held_said(ctx, clawback), ask=about(ask, ctx.offer.currency)),
            reason=_("Leaving now means repaying {amount} of my current sign-on (gross).").format(
                amount=held_said(ctx, clawback)
            ),
            figures={"clawback_home": clawback},
        )


RULE = Clawback()
