"""A transfer onto a payroll that pays less (the demo's USD to TWD): an allowance for a while."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    BASE,
    INTERNAL,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    about,
    count_word,
    money,
)

# A transfer whose base, at today's rate, falls by more than this share is localised down.
LOCALISED_DOWN = 0.05
# The years a localisation allowance usually bridges while pay settles into the local band.
BRIDGE_YEARS = 2


class Localisation(Rule):
    """Ask one's own employer to bridge a base that moving payroll lowers, for a while."""

    key = "localisation"
    # A new employer sets its own pay; staying changes no payroll.
    kinds = frozenset({INTERNAL})
    component = BASE

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Ask for an allowance when the new payroll's base is well below today's."""
        offer, current = ctx.offer, ctx.current
        fx = ctx.prefs.fx_offer_to_home
        if current is None or current.base_home <= 0 or fx <= 0 or not offer.base:
            return None
        new_home = offer.base * fx
        if new_home >= current.base_home * (1 - LOCALISED_DOWN):
            return None
        home = ctx.prefs.home_currency
        yearly = about((current.base_home - new_home) / fx, offer.currency)
        return NegotiationPoint(
            rule=self.key,
            title=_("Bridge the localised base"),
            trigger=_("the transfer's base is {new}, about {new_home}, against {old} today").format(
                new=money(offer.base, offer.currency),
                new_home=about(new_home, home),
                old=money(current.base_home, home),
            ),
            ask_term=_(
                "a localisation allowance of about {amount} a year for {years} years"
            ).format(amount=yearly, years=count_word(BRIDGE_YEARS)),
            priority=2,
            evidence=_(
                "Moving onto the local payroll, my base goes from {old} to {new} (about {new_home} "
                "at today's rate). Could a localisation allowance of about {amount} a year bridge "
                "the difference for the first {years} years?"
            ).format(
                old=money(current.base_home, home),
                new=money(offer.base, offer.currency),
                new_home=about(new_home, home),
                amount=yearly,
                years=count_word(BRIDGE_YEARS),
            ),
            figures={"base_home_today": current.base_home, "base_home_transfer": new_home},
        )


RULE = Localisation()
