"""Deadline too early: ask for an extension past the other processes' next rounds."""

from __future__ import annotations

from datetime import timedelta

from offers.logic.i18n import date_words
from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    DEADLINE,
    EXTERNAL,
    INTERNAL,
    NegotiationContext,
    NegotiationPoint,
    Rule,
)

EXPLODING_DAYS = 7


class ExplodingDeadline(Rule):
    """Ask for an extension when the deadline comes before other processes finish."""

    key = "exploding_deadline"
    # Staying has no deadline; a transfer can still ask for time.
    kinds = frozenset({EXTERNAL, INTERNAL})
    component = DEADLINE

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        deadline = ctx.offer.deadline
        if deadline is None:
            return None
        days_left = (deadline - ctx.today).days
        pending = sorted(
            (
                a
                for a in ctx.alternatives
                if a.evidence_kind == "active_process"
                and a.next_round_date is not None
                and a.next_round_date >= deadline
            ),
            key=lambda a: (a.next_round_date or deadline, a.name),
        )
        if days_left >= EXPLODING_DAYS and not pending:
            return None
        latest = max((a.next_round_date for a in pending if a.next_round_date), default=None)
        extend_to = max(latest + timedelta(days=EXPLODING_DAYS) if latest else deadline, ctx.today)
        if extend_to <= deadline:
            extend_to = deadline + timedelta(days=EXPLODING_DAYS)
        listed = _("; ").join(
            _("{company} ({stage}, next round {date})").format(
                # The stage is the model's label as a message id: said in this message's language.
                company=a.company,
                stage=_(a.stage) if a.stage else _("in process"),
                date=date_words(a.next_round_date) if a.next_round_date else "",
            )
            for a in pending
        )
        figures: dict[str, float | str] = {
            "deadline": deadline.isoformat(),
            "days_left": float(days_left),
            "extend_to": extend_to.isoformat(),
        }
        figures.update({f"process_{a.company}": str(a.next_round_date) for a in pending})
        trigger = _("deadline {deadline} is {days} days away").format(
            deadline=date_words(deadline), days=days_left
        )
        if pending:
            trigger += _("; still in process: {listed}").format(listed=listed)
        return NegotiationPoint(
            rule=self.key,
            title=_("Deadline too early"),
            trigger=trigger,
            ask_term=_("extend the deadline to {date}").format(date=date_words(extend_to)),
            priority=1 if days_left < EXPLODING_DAYS else 2,
            evidence=_("I'm excited about this offer and want to decide well. ")
            + (
                _("I have processes finishing soon ({listed}). ").format(listed=listed)
                if pending
                else ""
            )
            + _("Could we move the deadline to {date}?").format(date=date_words(extend_to)),
            figures=figures,
        )


RULE = ExplodingDeadline()
