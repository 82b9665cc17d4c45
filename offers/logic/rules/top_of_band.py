"""Base at the top of its band: move the ask to stock (or the next level's stock, or sign-on).

A script names the band's cap only when it is the offer's own base: a cap below what is
offered invites a cut. Stock figures are said in the grant's own currency, rounded.
"""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    EXTERNAL,
    STOCK,
    BandFacts,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    ScenarioAdjustment,
    ScenarioOutcome,
    money,
    money_adjustment,
    money_met,
    stock_said,
)


def _next_level_words(
    ctx: NegotiationContext, band: BandFacts, next_stock: float, ask: float
) -> tuple[str, str, str]:
    """Return the term, the script and the reason of an ask for the next level's stock."""
    offer = ctx.offer
    level = band.next_level_code or _("the next level")
    term = _(
        "stock at {level} level, per year of the grant (an exception needing approval)"
    ).format(level=level)
    words = {
        "base_max": money(band.base_max, offer.currency),
        "band_level": band.level_code,
        "level": level,
        "next_stock": stock_said(ctx, next_stock),
        "stock": stock_said(ctx, offer.stock_per_year),
    }
    if offer.base <= band.base_max:
        say = _(
            "I understand base is capped at {base_max} for {band_level}. Could we move "
            "the difference into stock at the {level} level: {next_stock} a year instead "
            "of {stock}, {ask} a year more?"
        )
        reason = _(
            "I understand base is capped at {base_max} for {band_level}, so I'd like the "
            "{level} level's stock ({next_stock} a year instead of {stock})."
        )
    else:
        # Base above the band's cap: the cap is not said (it would invite a cut).
        say = _(
            "As base has little room to move, could we move the difference into stock at "
            "the {level} level: {next_stock} a year instead of {stock}, {ask} a year more?"
        )
        reason = _(
            "As base has little room to move, I'd like the {level} level's stock "
            "({next_stock} a year instead of {stock})."
        )
    return term, say.format(**words, ask=stock_said(ctx, ask)), reason.format(**words)


def _band_top_words(ctx: NegotiationContext, band: BandFacts, ask: float) -> tuple[str, str, str]:
    """Return the term, the script and the reason of an ask for stock at the top of the band."""
    stock_max = stock_said(ctx, band.stock_max)
    say = _(
        "Base is at the top of the band, so could the stock move to the top of its band: "
        "{stock_max} a year, {ask} more?"
    ).format(stock_max=stock_max, ask=stock_said(ctx, ask))
    reason = _(
        "Base is at the top of the band, so I'd like the stock at the top of its band "
        "({stock_max} a year)."
    ).format(stock_max=stock_max)
    return _("stock to the top of the band, per year of the grant"), say, reason


class TopOfBand(Rule):
    """Move the ask to stock or sign-on when base is at the top of its band."""

    key = "top_of_band"
    # Its fallback is a sign-on, which one's own employer does not pay (a transfer negotiates level).
    kinds = frozenset({EXTERNAL})
    component = STOCK

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        offer, band = ctx.offer, ctx.offer.band
        if band is None or offer.base < band.base_max:
            return None
        cur = offer.currency
        next_stock = band.next_level_stock_mid or band.next_level_stock_max
        figures: dict[str, float | str] = {
            "base": offer.base,
            "band_base_max": band.base_max,
            "stock_per_year": offer.stock_per_year,
            "band_stock_max": band.stock_max,
        }
        trigger = _("base {base} >= band max {base_max}").format(
            base=money(offer.base, cur), base_max=money(band.base_max, cur)
        )
        if next_stock is not None and next_stock > offer.stock_per_year:
            ask = next_stock - offer.stock_per_year
            figures["next_level_stock_per_year"] = next_stock
            if band.next_level_stock_max is not None:
                figures["stretch_ask_per_year"] = band.next_level_stock_max - offer.stock_per_year
            term, say, reason = _next_level_words(ctx, band, next_stock, ask)
        elif band.stock_max > offer.stock_per_year:
            ask = band.stock_max - offer.stock_per_year
            term, say, reason = _band_top_words(ctx, band, ask)
        else:
            return NegotiationPoint(
                rule=self.key,
                title=_("Base and stock at the top of the band"),
                trigger=trigger,
                ask_term=_("a sign-on bonus, the only lever left in the band"),
                priority=2,
                evidence=_(
                    "Base and stock are already at the top of the band, so I'd like to talk "
                    "about a sign-on bonus."
                ),
                figures=figures,
            )
        return NegotiationPoint(
            rule=self.key,
            title=_("Base capped: move the ask to stock"),
            trigger=trigger,
            ask_amount=ask,
            ask_currency=cur,
            ask_term=term,
            priority=2,
            evidence=say,
            figures=figures,
            reason=reason,
        )

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the ask out as extra stock a year (or the cash it is asked in)."""
        return money_adjustment(point, STOCK)

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether the extra stock covers the ask (any sign-on when the band is full)."""
        if point.ask_amount is None:
            return outcome.extra_sign_on > 0
        return money_met(point, outcome, STOCK)


RULE = TopOfBand()
