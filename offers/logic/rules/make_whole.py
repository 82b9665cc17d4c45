"""Make-whole: ask the new employer to cover the unvested stock that leaving forfeits."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    EXTERNAL,
    SIGN_ON,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    ScenarioAdjustment,
    ScenarioOutcome,
    meets,
    money,
    sign_on_adjustment,
    to_offer,
)


class MakeWhole(Rule):
    """Ask for a make-whole grant covering unvested equity forfeited by leaving."""

    key = "make_whole"
    # A transfer keeps its grants and staying forfeits nothing: only a new employer makes whole.
    kinds = frozenset({EXTERNAL})
    component = SIGN_ON

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Ask for a make-whole grant covering unvested equity forfeited by leaving."""
        if ctx.current is None:
            return None
        by_year = [
            (year, value) for year, value in ctx.current.unvested_forfeited_by_year if value > 0
        ]
        total = ctx.current.unvested_total or sum(value for _, value in by_year)
        if total <= 0:
            return None
        home = ctx.prefs.home_currency
        ask = to_offer(ctx, total)
        start = ctx.offer.start_date.isoformat() if ctx.offer.start_date else _("the start date")
        cur = ctx.offer.currency
        schedule = ", ".join(
            f"{year}: {money(to_offer(ctx, value), cur)}" for year, value in by_year
        )
        figures: dict[str, float | str] = {"unvested_total_home": total}
        figures.update({f"forfeited_{year}": value for year, value in by_year})
        return NegotiationPoint(
            rule=self.key,
            title=_("Make-whole for forfeited stock"),
            trigger=_("leaving on {start} forfeits {total} of unvested stock").format(
                start=start, total=money(total, home)
            ),
            ask_amount=ask,
            ask_currency=ctx.offer.currency,
            ask_term=_("make-whole sign-on or equity grant"),
            priority=1,
            evidence=_(
                "Starting on {start} I walk away from {total} of unvested stock ({schedule}). I'm "
                "asking for a make-whole grant or sign-on of {ask} to cover it."
            ).format(
                start=start,
                total=money(ask, cur),
                schedule=schedule or _("by year not given"),
                ask=money(ask, cur),
            ),
            reason=_(
                "Starting on {start} I walk away from {total} of unvested stock ({schedule})."
            ).format(
                start=start, total=money(ask, cur), schedule=schedule or _("by year not given")
            ),
            figures=figures,
        )

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the make-whole out as an extra sign-on."""
        return sign_on_adjustment(point)

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether extra sign-on plus extra stock over the grant's years cover the ask."""
        if point.ask_amount is None:
            return None
        covered = outcome.extra_sign_on + outcome.extra_stock_yearly * outcome.grant_years
        return meets(covered, point.ask_amount)


RULE = MakeWhole()
