"""Remote weeks short of what the user needs: ask for a written remote arrangement."""

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
    money,
    to_offer,
)


class RemoteGap(Rule):
    """Ask for a written remote arrangement when remote weeks fall short."""

    key = "remote_gap"
    # A remote arrangement in writing is negotiable with any employer, one's own included.
    kinds = OPTION_KINDS
    component = REMOTE

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Ask for a written remote arrangement when remote weeks fall short."""
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
            worth_home = gap * ctx.prefs.money_per_remote_week
            figures["gap_worth_home"] = worth_home
            figures["gap_worth_offer_currency"] = to_offer(ctx, worth_home)
            private = _(
                "By your own weights the missing {gap} weeks are worth about {worth} to you."
            ).format(gap=f"{gap:g}", worth=money(worth_home, ctx.prefs.home_currency))
        return NegotiationPoint(
            rule=self.key,
            title=_("Remote work short of what you need"),
            trigger=_("{allowed} remote weeks a year allowed, {required} needed").format(
                allowed=f"{allowed:g}", required=f"{required:g}"
            ),
            ask_amount=None,
            ask_currency=None,
            ask_term=_("written remote arrangement for {required} weeks a year").format(
                required=f"{required:g}"
            ),
            priority=1,
            evidence=(
                _(
                    "I need to work remotely {required} weeks a year; the policy allows {allowed}. "
                    "Can we agree a remote arrangement in writing?"
                )
                if ctx.offer.kind == STAY
                else _(
                    "I need to work remotely {required} weeks a year; the policy allows {allowed}. "
                    "Can we put a remote arrangement in writing in the offer?"
                )
            ).format(required=f"{required:g}", allowed=f"{allowed:g}"),
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
