"""Back-loaded vesting: ask for a sign-on that levels the first years."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    NegotiationContext,
    NegotiationPoint,
    SignOnAsk,
    about,
    money,
    schedule_words,
)

BACK_LOADED_TOLERANCE = 0.02


class BackLoaded(SignOnAsk):
    """Ask for a sign-on levelling years 1-2 when back-loaded vesting leaves them low."""

    key = "back_loaded"

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        offer = ctx.offer
        weights = offer.vesting_year_weights
        if weights and weights[0] >= sum(weights) / len(weights) - 1e-12:
            return None
        totals = offer.yearly_totals[: ctx.prefs.horizon_years]
        average = sum(totals) / len(totals)
        gaps = {
            year: average - totals[year - 1]
            for year in (1, 2)
            if year <= len(totals) and average - totals[year - 1] > BACK_LOADED_TOLERANCE * average
        }
        if not gaps:
            return None
        cur = offer.currency
        ask = sum(gaps.values())
        schedule = schedule_words(weights) or _("back-loaded")
        by_year = _(" and ").join(
            _("{amount} in year {year}").format(amount=about(gap, cur), year=year)
            for year, gap in gaps.items()
        )
        figures: dict[str, float | str] = {"average_year": average}
        figures.update({f"year_{year}_total": totals[year - 1] for year in gaps})
        figures.update({f"year_{year}_gap": gap for year, gap in gaps.items()})
        return NegotiationPoint(
            rule=self.key,
            title=_("Back-loaded vesting: level the first years"),
            trigger=_("vesting {schedule}; {years} vs average {average}").format(
                schedule=schedule,
                years=_(", ").join(
                    _("year {year} {amount}").format(year=y, amount=money(totals[y - 1], cur))
                    for y in gaps
                ),
                average=money(average, cur),
            ),
            ask_amount=ask,
            ask_currency=cur,
            ask_term=_("sign-on of {by_year}").format(by_year=by_year),
            priority=2,
            evidence=_(
                "With {schedule} vesting my first years are below the {average} average. A sign-on "
                "of {by_year} would even them out."
            ).format(schedule=schedule, average=about(average, cur), by_year=by_year),
            figures=figures,
            reason=_(
                "With {schedule} vesting my first years are below the {average} average."
            ).format(schedule=schedule, average=about(average, cur)),
        )


RULE = BackLoaded()
