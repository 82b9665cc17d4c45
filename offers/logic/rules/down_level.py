"""Down-levelled: ask for a re-levelling, or the target level's pay.

What the recruiter hears of the loop is a summary that helps ("the loop went well"), never a
count of ratings and never a weak round; the count stays with the user. A level already asked
for and refused is not asked again: the ask becomes the target level's pay.
"""

from __future__ import annotations

from offers.logic.i18n import and_words, gettext_noop
from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    EXTERNAL,
    INTERNAL,
    LEVEL,
    POSITIVE_SIGNALS,
    STOCK,
    NegotiationContext,
    NegotiationPoint,
    OfferFacts,
    Rule,
    ScenarioAdjustment,
    ScenarioOutcome,
    count_word,
    loop_words,
    money_adjustment,
    money_met,
    stock_said,
)

# The interview signals a summary names, as message ids (said in the message's language).
SIGNAL_LABELS = {
    "strong_hire": gettext_noop("Strong Hire"),
    "hire": gettext_noop("Hire"),
    "lean_hire": gettext_noop("Lean Hire"),
    "lean_no_hire": gettext_noop("Lean No Hire"),
    "no_hire": gettext_noop("No Hire"),
    "strong_no_hire": gettext_noop("Strong No Hire"),
}


def _signal_summary(signals: tuple[str, ...]) -> str:
    """Return rounds as text like 'four Strong Hire and one Hire out of five rounds'."""
    counts = [(s, signals.count(s)) for s in SIGNAL_LABELS if signals.count(s)]
    parts = [
        _("{count} {signal}").format(count=count_word(n), signal=_(SIGNAL_LABELS[s]))
        for s, n in counts
    ]
    listed = and_words(parts)
    if len(signals) == 1:
        return _("{listed} in the one round").format(listed=listed)
    return _("{listed} out of {rounds} rounds").format(
        listed=listed, rounds=count_word(len(signals))
    )


def _level_refused(ctx: NegotiationContext, target: str) -> bool:
    """Return whether the log holds the level as asked for before and not given."""
    logged = ctx.last_logged(LEVEL)
    return (
        logged is not None
        and not logged.waiting
        and (logged.revised_level is None or logged.revised_level != target)
    )


def _term_and_reason(
    offer: OfferFacts, level: str, target: str, refused: bool, figures: dict[str, float | str]
) -> tuple[str, str]:
    """Return the ask's term and reason: the level reviewed, or (refused) only its pay."""
    if refused:
        figures["level_refused"] = level
        reason = _("As the level stays at {level}, I'd like {target} pay.").format(
            level=level, target=target
        )
        return _("{target} pay at the {level} level").format(target=target, level=level), reason
    loop = loop_words(offer, target)
    if loop:
        figures["loop_quoted"] = 1.0
    interviewed = (
        _("I interviewed for {target} and {loop}.").format(target=target, loop=loop)
        if loop
        else _("I interviewed for {target}.").format(target=target)
    )
    reason = _(
        "{interviewed} I'd like the level reviewed, or, if the level can't move, {target} pay."
    ).format(interviewed=interviewed, target=target)
    return _("re-level to {target}, or {target} pay").format(target=target), reason


class DownLevel(Rule):
    """Ask for re-levelling, or the target level's pay, when offered below target."""

    key = "down_level"
    # Staying has no level on offer; a transfer negotiates its level.
    kinds = frozenset({EXTERNAL, INTERNAL})
    component = STOCK

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Ask for re-levelling (or the target level's pay) when offered below target."""
        offer = ctx.offer
        if (
            offer.level_order is None
            or offer.target_level_order is None
            or offer.level_order >= offer.target_level_order
        ):
            return None
        target = offer.target_level_code or _("the target level")
        level = offer.level_code or _("the offered level")
        known = tuple(s for s in offer.signals if s in SIGNAL_LABELS)
        positive = sum(1 for s in known if s in POSITIVE_SIGNALS)
        next_stock = offer.band.next_level_stock_mid if offer.band is not None else None
        ask = max(0.0, next_stock - offer.stock_per_year) if next_stock is not None else 0.0
        figures: dict[str, float | str] = {
            "level": level,
            "target_level": target,
            "positive_rounds": float(positive),
            "rounds": float(len(known)),
        }
        if next_stock is not None:
            figures["next_level_stock_per_year"] = next_stock
        rounds = _signal_summary(known) if known else _("no round signals recorded")
        refused = _level_refused(ctx, target)
        term, reason = _term_and_reason(offer, level, target, refused, figures)
        more = _("{reason} That is {ask} a year more in stock.")
        say = more.format(reason=reason, ask=stock_said(ctx, ask)) if ask else reason
        private = _(
            "Interview feedback, for you: {rounds}. A recruiter hears only that the loop went "
            "well, and only when every round did."
        ).format(rounds=rounds)
        return NegotiationPoint(
            rule=self.key,
            title=_("Down-levelled: {level} instead of {target}").format(
                level=level, target=target
            ),
            trigger=_("offered {level}, targeted {target}; {rounds}").format(
                level=level, target=target, rounds=rounds
            ),
            ask_amount=ask or None,
            ask_currency=offer.currency if ask else None,
            ask_term=term,
            priority=1 if known and positive * 2 > len(known) else 2,
            evidence=say,
            figures=figures,
            reason=reason,
            private=private if known else "",
            topics=() if refused else (LEVEL,),
        )

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the ask out as the target level with its extra stock a year (or its cash).

        A re-level the log holds as refused is not asked again: only the pay is played.
        """
        return money_adjustment(point, STOCK, level="level_refused" not in point.figures)

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether the scenario reaches the target level, or pays its extra stock."""
        target = point.figures.get("target_level")
        if outcome.level_code is not None and (
            outcome.level_code == target
            or (
                outcome.target_level_order is not None
                and outcome.level_order
                and outcome.level_order >= outcome.target_level_order
            )
        ):
            return True
        return bool(money_met(point, outcome, STOCK))


RULE = DownLevel()
