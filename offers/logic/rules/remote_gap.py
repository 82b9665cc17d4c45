"""Remote weeks short of what the user needs: ask for a written remote arrangement.

What the missing weeks are worth in money is the user's own trade-off, for them only, and
bounded: never more than the pay of those weeks (a week of the option's yearly pay each, a
year), past which the weeks are a condition, not a price.
"""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    OPTION_KINDS,
    REMOTE,
    STAY,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    ScenarioAdjustment,
    ScenarioOutcome,
    about,
    to_offer,
)
from offers.logic.timezones import place_and_zone

WEEKS_A_YEAR = 52


class RemoteGap(Rule):
    """Ask for a written remote arrangement when remote weeks fall short."""

    key = "remote_gap"
    # A remote arrangement in writing is negotiable with any employer, one's own included.
    kinds = OPTION_KINDS
    component = REMOTE

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        allowed = ctx.offer.remote_weeks_allowed
        required = ctx.prefs.required_remote_weeks
        if allowed >= required:
            return None
        gap = required - allowed
        figures: dict[str, float | str] = {
            "remote_weeks_allowed": allowed,
            "required_remote_weeks": required,
            "gap_weeks": gap,
        }
        private = ""
        if ctx.prefs.money_per_remote_week is not None:
            years = ctx.prefs.horizon_years
            home = ctx.prefs.home_currency
            weights_worth = gap * ctx.prefs.money_per_remote_week
            yearly = ctx.offer.yearly_home[:years]
            # The pay of the missing weeks over the horizon: the most they can be worth.
            weeks_pay = sum(yearly) * gap / WEEKS_A_YEAR if yearly else 0.0
            worth_home = min(weights_worth, weeks_pay) if weeks_pay > 0 else weights_worth
            figures["weights_worth_home"] = weights_worth
            figures["gap_worth_home"] = worth_home
            figures["gap_worth_offer_currency"] = to_offer(ctx, worth_home)
            if weeks_pay > 0 and weights_worth > weeks_pay:
                private = _(
                    "By your own weights the missing {gap} weeks outweigh their own pay ({pay} a "
                    "year): your trade-off makes them a condition, not a price."
                ).format(gap=f"{gap:g}", pay=about(weeks_pay / len(yearly), home))
            else:
                private = _(
                    "By your own weights the missing {gap} weeks are worth about {worth} of pay "
                    "to you over {years} years ({yearly} a year): your trade-off, not a price."
                ).format(
                    gap=f"{gap:g}",
                    worth=about(worth_home, home),
                    years=years,
                    yearly=about(worth_home / years, home),
                )
        return NegotiationPoint(
            rule=self.key,
            title=_("Remote work short of what you need"),
            trigger=_("{allowed} remote weeks a year allowed, {required} needed").format(
                allowed=f"{allowed:g}", required=f"{required:g}"
            ),
            ask_term=_("written remote arrangement for {required} weeks a year").format(
                required=f"{required:g}"
            ),
            priority=1,
            evidence=(
                _(
                    "I need to work remotely {required} weeks a year from {home}; the policy "
                    "allows {allowed}. Can we agree a remote arrangement in writing?"
                )
                if ctx.offer.kind == STAY
                else _(
                    "I need to work remotely {required} weeks a year from {home}; the policy "
                    "allows {allowed}. Can we put a remote arrangement in writing in the offer?"
                )
            ).format(
                required=f"{required:g}",
                allowed=f"{allowed:g}",
                home=place_and_zone(ctx.prefs.home_zone, ctx.today),
            ),
            figures=figures,
            private=private,
        )

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the ask out as the remote weeks needed."""
        weeks = point.figures.get("required_remote_weeks")
        return ScenarioAdjustment(remote_weeks_per_year=int(float(weeks or 0)))

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether the scenario allows the remote weeks needed."""
        needed = point.figures.get("required_remote_weeks")
        return isinstance(needed, float) and outcome.remote_weeks >= needed


RULE = RemoteGap()
