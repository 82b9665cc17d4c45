"""Little working-hours overlap with home: ask for core hours or an office where the user lives.

The draft names both places with their UTC offsets on its day ("from Taipei (UTC+8)") and the
office by its city: a recruiter in another country cannot guess "home" or "the region".

The overlap is said as a person says it: "less than an hour", "about 2.5 hours".
"""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import HOURS, OPTION_KINDS, NegotiationContext, NegotiationPoint, Rule
from offers.logic.timezones import place_and_zone, zone_place


class LowOverlap(Rule):
    """Ask for adjusted core hours or a home-region office when overlap is low."""

    key = "low_overlap"
    # Core hours or a home-region office are a remote arrangement, open to every kind.
    kinds = OPTION_KINDS
    component = HOURS

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        overlap = ctx.offer.overlap_hours
        needed = ctx.prefs.min_overlap_hours
        if overlap >= needed:
            return None
        # The office proposed is one where the user lives, named by its city.
        office = zone_place(ctx.prefs.home_zone)
        return NegotiationPoint(
            rule=self.key,
            title=_("Little working-hours overlap with home"),
            trigger=_("{overlap} h a day of overlap, {needed} h needed").format(
                overlap=f"{overlap:.1f}", needed=f"{needed:g}"
            ),
            ask_term=_("adjusted core hours, or a base in an office in {office}").format(
                office=office
            ),
            priority=2,
            evidence=(
                _(
                    "Working from {home}, my day overlaps the team's in {team} by less "
                    "than an hour. Could we agree core hours that give at least {needed} hours, "
                    "or base me in an office in {office}?"
                )
                if overlap < 1
                else _(
                    "Working from {home}, my day overlaps the team's in {team} by about "
                    "{overlap} hours. Could we agree core hours that give at least {needed} "
                    "hours, or base me in an office in {office}?"
                )
            ).format(
                home=place_and_zone(ctx.prefs.home_zone, ctx.today),
                team=place_and_zone(ctx.offer.work_zone, ctx.today),
                office=office,
                overlap=f"{round(overlap * 2) / 2:g}",
                needed=f"{needed:g}",
            ),
            figures={"overlap_hours": overlap, "min_overlap_hours": needed},
        )


RULE = LowOverlap()
