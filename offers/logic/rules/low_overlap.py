"""Little working-hours overlap with home: ask for core hours or a home-region office.

The overlap is said as a person says it: "less than an hour", "about 2.5 hours".
"""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    HOURS,
    OPTION_KINDS,
    NegotiationContext,
    NegotiationPoint,
    Rule,
)


class LowOverlap(Rule):
    """Ask for adjusted core hours or a home-region office when overlap is low."""

    key = "low_overlap"
    # Core hours or a home-region office are a remote arrangement, open to every kind.
    kinds = OPTION_KINDS
    component = HOURS

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Ask for adjusted core hours or a home-region office when overlap is low."""
        overlap = ctx.offer.overlap_hours
        needed = ctx.prefs.min_overlap_hours
        if overlap >= needed:
            return None
        return NegotiationPoint(
            rule=self.key,
            title=_("Little working-hours overlap with home"),
            trigger=_("{overlap} h a day of overlap, {needed} h needed").format(
                overlap=f"{overlap:.1f}", needed=f"{needed:g}"
            ),
            ask_amount=None,
            ask_currency=None,
            ask_term=_("adjusted core hours, or a base in an office in the home region"),
            priority=2,
            evidence=(
                _(
                    "Working from home the team's day overlaps mine by less than an hour. Could we "
                    "agree core hours that give at least {needed} hours, or base me in the "
                    "region's office?"
                )
                if overlap < 1
                else _(
                    "Working from home the team's day overlaps mine by about {overlap} hours. "
                    "Could we agree core hours that give at least {needed} hours, or base me in "
                    "the region's office?"
                )
            ).format(overlap=f"{round(overlap * 2) / 2:g}", needed=f"{needed:g}"),
            figures={"overlap_hours": overlap, "min_overlap_hours": needed},
        )


RULE = LowOverlap()
