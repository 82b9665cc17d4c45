"""Make-whole: ask the new employer to cover the unvested stock that leaving forfeits."""

from __future__ import annotations

from offers.logic.i18n import date_words
from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    NegotiationContext,
    NegotiationPoint,
    ScenarioOutcome,
    SignOnAsk,
    about,
    held_in,
    held_said,
    meets,
    money,
    round_to,
    said_step,
    to_offer,
)


def _schedule(ctx: NegotiationContext, by_year: list[tuple[int, float]], total: float) -> str:
    """Return the forfeit by year, rounded like the total and adding up to it (the largest)."""
    said, currency = held_in(ctx, total, stock=True)
    step = said_step(said)
    values = [held_in(ctx, value, stock=True)[0] for _year, value in by_year]
    parts = [round_to(v, step) for v in values]
    if parts:
        parts[values.index(max(values))] += round_to(said, step) - sum(parts)
    found = zip(by_year, parts, strict=True)
    return _(", ").join(
        _("{year}: {amount}").format(year=year, amount=money(part, currency))
        for (year, _v), part in found
        if part > 0
    )


class MakeWhole(SignOnAsk):
    """Ask for a make-whole grant covering unvested equity forfeited by leaving."""

    key = "make_whole"

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
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
        start = date_words(ctx.offer.start_date) if ctx.offer.start_date else _("the start date")
        cur = ctx.offer.currency
        # What leaving forfeits is the current job's stock: said in its own currency, rounded.
        schedule = _schedule(ctx, by_year, total)
        held = held_said(ctx, total, stock=True)
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
                total=held,
                schedule=schedule or _("by year not given"),
                ask=about(ask, cur),
            ),
            # Without the date: the same message may ask to move the start.
            reason=_("Leaving my current job, I walk away from {total} of unvested stock.").format(
                total=held
            ),
            figures=figures,
        )

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether extra sign-on plus extra stock over the grant's years cover the ask."""
        if point.ask_amount is None:
            return None
        covered = outcome.extra_sign_on + outcome.extra_stock_yearly * outcome.grant_years
        return meets(covered, point.ask_amount)


RULE = MakeWhole()
