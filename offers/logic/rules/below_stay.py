"""Worth less than staying: ask for the gap over the horizon, as sign-on or stock."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    GapAsk,
    NegotiationContext,
    NegotiationPoint,
    about,
    horizon_sum,
    money,
    offer_value_home,
    to_offer,
)


class BelowStay(GapAsk):
    """Ask for the gap when the offer is worth less than staying over the horizon."""

    key = "below_stay"

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        if ctx.current is None or not ctx.current.yearly_totals_if_stay:
            return None
        years = ctx.prefs.horizon_years
        offer_value = offer_value_home(ctx)
        stay_value = horizon_sum(ctx.current.yearly_totals_if_stay, years)
        if offer_value >= stay_value:
            return None
        home = ctx.prefs.home_currency
        gap_home = stay_value - offer_value
        ask = to_offer(ctx, gap_home)
        return NegotiationPoint(
            rule=self.key,
            title=_("Offer is worth less than staying"),
            trigger=_("{years}-year value {offer_value} vs staying {stay_value}").format(
                years=years,
                offer_value=money(offer_value, home),
                stay_value=money(stay_value, home),
            ),
            ask_amount=ask,
            ask_currency=ctx.offer.currency,
            ask_term=_("as a sign-on bonus or additional stock"),
            priority=1,
            evidence=_(
                "Over {years} years, staying, with the stock I still have to vest, pays me more "
                "than this offer. I'd need about {ask} more, as sign-on or stock, to make the move."
            ).format(years=years, ask=about(ask, ctx.offer.currency)),
            reason=_(
                "Over {years} years, staying, with the stock I still have to vest, pays me more "
                "than this offer."
            ).format(years=years),
            figures={
                "offer_value_home": offer_value,
                "stay_value_home": stay_value,
                "gap_home": gap_home,
                "horizon_years": float(years),
            },
        )


RULE = BelowStay()
