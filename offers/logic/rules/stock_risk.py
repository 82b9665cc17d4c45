"""Private or volatile stock: ask for more of the package as cash."""

from __future__ import annotations

from decimal import Decimal

from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    CASH,
    EXTERNAL,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    ScenarioAdjustment,
    ScenarioOutcome,
    about,
    meets,
    whole_ask,
)

HIGH_VOLATILITY_PCT = 40.0
PRIVATE_LIQUIDITY_HAIRCUT = 0.30
# The cash ask is played out as a base raise spread over this many years.
CASH_SPREAD_YEARS = 4


class StockRisk(Rule):
    """Ask for more cash, or price the risk, when the stock is private or volatile."""

    key = "stock_risk"
    # A transfer or staying keeps the stock one already holds; the ask is for a new employer's cash.
    kinds = frozenset({EXTERNAL})
    component = CASH

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        offer = ctx.offer
        volatile = offer.volatility_pct is not None and offer.volatility_pct >= HIGH_VOLATILITY_PCT
        if not offer.is_private and not volatile:
            return None
        cur = offer.currency
        years = ctx.prefs.horizon_years
        kind = (
            _("private")
            if offer.is_private
            else _("volatile ({pct}% a year)").format(pct=f"{offer.volatility_pct:g}")
        )
        figures: dict[str, float | str] = {"stock_per_year": offer.stock_per_year}
        if offer.volatility_pct is not None:
            figures["volatility_pct"] = offer.volatility_pct
        ask: float | None
        if offer.p10_cumulative is not None and offer.p50_cumulative is not None:
            ask = max(0.0, offer.p50_cumulative - offer.p10_cumulative)
            figures.update(
                {"p10_cumulative": offer.p10_cumulative, "p50_cumulative": offer.p50_cumulative}
            )
            how = _(
                "in a bad case (1 in 10) the package is worth {ask} less over {years} years than in "
                "the median case"
            ).format(ask=about(ask, cur), years=years)
        elif offer.is_private:
            ask = PRIVATE_LIQUIDITY_HAIRCUT * offer.stock_per_year * years
            figures["liquidity_haircut"] = PRIVATE_LIQUIDITY_HAIRCUT
            how = _(
                "private shares only sell in buybacks; a {haircut} liquidity discount on {years} "
                "years of stock is {ask}"
            ).format(haircut=f"{PRIVATE_LIQUIDITY_HAIRCUT:.0%}", years=years, ask=about(ask, cur))
        else:
            ask = None
            how = _("the share price swings a lot, so the stock part is far from certain")
        if ask is not None:
            figures["risk_ask"] = ask
        return NegotiationPoint(
            rule=self.key,
            title=_("Stock is {kind}: ask for cash").format(kind=kind),
            trigger=_("stock is {kind}").format(kind=kind),
            ask_amount=ask,
            ask_currency=cur if ask is not None else None,
            ask_term=_("more of the package as cash (base, bonus or sign-on)"),
            priority=2,
            evidence=_("The stock is {kind}: {how}. I'd value moving part of it into cash.").format(
                kind=kind, how=how
            ),
            figures=figures,
            reason=_("The stock is {kind}, so I'd value more of the package as cash.").format(
                kind=kind
            ),
        )

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the ask out as a base raise spread over four years."""
        ask = whole_ask(point)
        if not ask:
            return None
        return ScenarioAdjustment(base_increase=(ask / CASH_SPREAD_YEARS).quantize(Decimal("1")))

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether the extra base over the horizon plus extra sign-on cover the ask."""
        if point.ask_amount is None:
            return None
        cash = outcome.base_increase * outcome.horizon_years
        return meets(cash + outcome.extra_sign_on, point.ask_amount)


RULE = StockRisk()
