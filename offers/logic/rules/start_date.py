"""Start after the current job's next vest when it falls soon after the planned start."""

from __future__ import annotations

from datetime import date, timedelta

from offers.logic.i18n import date_words
from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    EXTERNAL,
    START,
    NegotiationContext,
    NegotiationPoint,
    Rule,
    ScenarioAdjustment,
    ScenarioOutcome,
    held_said,
    money,
)

START_AFTER_VEST_WINDOW_DAYS = 90


class StartDate(Rule):
    """Propose starting after the current job's next vest when it is soon after the start."""

    key = "start_date"
    # Only leaving forfeits the next vest; a transfer keeps its grants.
    kinds = frozenset({EXTERNAL})
    component = START

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        current, start = ctx.current, ctx.offer.start_date
        if current is None or start is None or current.next_vest_date is None:
            return None
        vest = current.next_vest_date
        days_after = (vest - start).days
        if not 0 <= days_after <= START_AFTER_VEST_WINDOW_DAYS or current.next_vest_value <= 0:
            return None
        proposed = vest + timedelta(days=1)
        home = ctx.prefs.home_currency
        # The vest is the current job's stock: said in its own currency, rounded.
        kept = held_said(ctx, current.next_vest_value, stock=True)
        return NegotiationPoint(
            rule=self.key,
            title=_("Start after the next vest"),
            trigger=_(
                "next vest {vest} ({value}) is {days} days after the planned start {start}"
            ).format(
                vest=date_words(vest),
                value=money(current.next_vest_value, home),
                days=days_after,
                start=date_words(start),
            ),
            ask_term=_("start on {date}").format(date=date_words(proposed)),
            priority=2,
            evidence=_(
                "Could we set the start date to {date}? Starting after my {vest} vest keeps {value} "
                "I would otherwise lose."
            ).format(date=date_words(proposed), vest=date_words(vest), value=kept),
            figures={
                "next_vest_value_home": current.next_vest_value,
                "days_after_start": float(days_after),
                "proposed_start": proposed.isoformat(),
            },
        )

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the ask out as the proposed start date."""
        proposed = point.figures.get("proposed_start")
        return ScenarioAdjustment(start_date=date.fromisoformat(str(proposed)))

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether the scenario starts on or after the proposed date."""
        proposed = point.figures.get("proposed_start")
        return bool(outcome.start_date and outcome.start_date.isoformat() >= str(proposed))


RULE = StartDate()
