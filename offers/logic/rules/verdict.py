"""Verdict: judge the offer low, fair or high against its band and the best alternative."""

from __future__ import annotations

from offers.logic.i18n import gettext as _
from offers.logic.leverage import best_alternative
from offers.logic.rules.base import (
    EXTERNAL,
    INTERNAL,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    band_position,
    offer_value_home,
    percent,
)

VERDICT_BAND = 0.05


class Verdict(Rule):
    """Judge the offer low, fair or high against its band and the best alternative."""

    key = "verdict"
    # Staying is judged through the retention ask, not a verdict on its own pay.
    kinds = frozenset({EXTERNAL, INTERNAL})

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        offer = ctx.offer
        band = offer.band
        offer_value = offer_value_home(ctx)
        figures: dict[str, float | str] = {"offer_value_home": offer_value}
        reasons: list[str] = []
        band_ratio: float | None = None
        if band is not None and band.base_mid + band.stock_mid > 0:
            band_ratio = (offer.base + offer.stock_per_year) / (band.base_mid + band.stock_mid)
            figures["band_ratio"] = band_ratio
            at_top = offer.base >= band.base_max and offer.stock_per_year >= band.stock_max
            reasons.append(
                _("base plus stock is {position} for {level} ({ratio} of its midpoint)").format(
                    position=band_position(band_ratio, at_top=at_top),
                    ratio=percent(band_ratio),
                    level=band.level_code,
                )
            )
        best = best_alternative(ctx)  # in hand, within the user's constraints
        alt_ratio: float | None = None
        if best is not None and offer_value > 0:
            alt_ratio = best.value / offer_value
            figures["best_alternative_ratio"] = alt_ratio
            figures["best_alternative"] = best.name
            reasons.append(
                _("the best alternative ({name}) is worth {ratio} of it").format(
                    name=best.name, ratio=percent(alt_ratio)
                )
            )
        band_low = band_ratio is not None and band_ratio < 1 - VERDICT_BAND
        if band_low or (alt_ratio is not None and alt_ratio > 1 + VERDICT_BAND):
            verdict = "low"
        elif (
            band_ratio is not None
            and band_ratio > 1 + VERDICT_BAND
            and (alt_ratio is None or alt_ratio <= 1)
        ):
            verdict = "high"
        else:
            verdict = "fair"
        figures["verdict"] = verdict
        explanation = (
            _("; ").join(reasons) if reasons else _("no band or alternative to compare against")
        )
        verdict_label = {
            # Low against an alternative is not low in the band: say which.
            "low": _("low for the band") if band_low else _("below your best alternative"),
            "fair": _("fair"),
            "high": _("generous for the band"),
        }[verdict]
        return NegotiationPoint(
            rule=self.key,
            title=_("Verdict: {verdict}").format(verdict=verdict_label),
            trigger=explanation,
            priority=3,
            evidence=_("{name} looks {verdict}: {explanation}.").format(
                name=offer.name, verdict=verdict_label, explanation=explanation
            ),
            figures=figures,
        )


RULE = Verdict()
