"""The negotiation log read as a conversation: where each ask stands, and what to answer.

An ask waiting for its answer is not asked again: it is followed up after
``FOLLOW_UP_WORKING_DAYS``. An ask answered is never asked again in the same terms: agreed, it
is settled; refused or countered, it moves to the background with the answer stated. What came
back on one part of the package may make another part the next step ("the level stays: E6
pay in stock"). A counter not yet replied to (no ask logged after it) is answered first: thanks
for what came, then one different ask, or its acceptance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol, TypeVar

from offers.logic.i18n import and_words, date_words
from offers.logic.i18n import gettext as _
from offers.logic.rules.base import (
    ACCEPTED,
    BASE,
    CASH,
    COUNTERED,
    DEADLINE,
    HOURS,
    LEVEL,
    REFRESH,
    RELOCATION,
    REMOTE,
    RETENTION,
    SIGN_ON,
    START,
    STOCK,
    LoggedAsk,
    NegotiationContext,
)

# Where an ask stands in the negotiation log.
TO_ASK = "to_ask"  # not asked yet: the draft asks it
WAITING = "waiting"  # asked, no answer yet: not asked again
FOLLOW_UP = "follow_up"  # asked, no answer after the follow-up days: the draft follows it up
NEXT_STEP = "next_step"  # they came back on another part: accept, or ask for this
CLOSED = "closed"  # agreed, refused or countered: not asked again
# An ask waiting for its answer is followed up after this many working days (Monday to Friday).
FOLLOW_UP_WORKING_DAYS = 4


@dataclass(frozen=True)
class AskState:
    """Where an ask stands in the negotiation log, and what that means for the next message.

    ``logged`` is the latest logged ask about the same part of the package (None: never
    asked); ``follow_up_on`` the day to follow up a waiting ask; ``note`` the state in words
    for the user ("asked on ... through ...: waiting").
    """

    status: str = TO_ASK
    logged: LoggedAsk | None = None
    follow_up_on: date | None = None
    note: str = ""

    @property
    def to_send(self) -> bool:
        """Return whether the next message asks it (a new ask, or the next step)."""
        return self.status in (TO_ASK, NEXT_STEP)


def working_days_after(day: date, count: int) -> date:
    """Return the day ``count`` working days (Monday to Friday) after ``day``."""
    found = day
    while count > 0:
        found += timedelta(days=1)
        if found.weekday() < 5:
            count -= 1
    return found


def follow_up_day(logged: LoggedAsk, deadline: date | None) -> date:
    """Return the day to follow up an ask still waiting: a few working days on, or sooner.

    Before a decision deadline there is no time to wait: at the latest the working day
    before it, and never before the next working day after the ask.
    """
    day = working_days_after(logged.asked_on, FOLLOW_UP_WORKING_DAYS)
    if deadline is not None:
        latest = deadline - timedelta(days=1)
        while latest.weekday() >= 5:
            latest -= timedelta(days=1)
        day = max(min(day, latest), working_days_after(logged.asked_on, 1))
    return day


def through(logged: LoggedAsk) -> str:
    """Return whom an ask went through, in words ("Chris Alvarez (Recruiter)")."""
    channel = _(logged.channel) if logged.channel else ""
    if logged.contact and channel:
        return _("{contact}, {channel}").format(contact=logged.contact, channel=channel)
    return logged.contact or channel or _("the company")


def waiting_state(logged: LoggedAsk, today: date, deadline: date | None) -> AskState:
    """Return the state of an ask still waiting: waiting, or due for a follow-up."""
    day = follow_up_day(logged, deadline)
    due = today >= day
    words = {
        "asked": date_words(logged.asked_on),
        "through": through(logged),
        "day": date_words(day),
    }
    note = (
        _("Asked on {asked} through {through}; no answer yet: follow it up now.")
        if due
        else _("Asked on {asked} through {through}; waiting for an answer (follow up on {day}).")
    ).format(**words)
    return AskState(FOLLOW_UP if due else WAITING, logged, day, note)


def answer_words(logged: LoggedAsk) -> str:
    """Return what came back, in words: the answer as logged, or the terms it revised."""
    if logged.answer:
        # The sentence ends it in its language's full stop ("." or "。").
        return logged.answer.rstrip(".。 ")
    revised = [component_words(c) for c in logged.revised]
    if revised:
        return _("revised {terms}").format(terms=_(", ").join(revised))
    return _("yes") if logged.outcome == ACCEPTED else _("no change")


def is_counter(logged: LoggedAsk) -> bool:
    """Return whether they came back with something: a counter, or a refusal with new terms."""
    return logged.outcome == COUNTERED or (logged.outcome != ACCEPTED and bool(logged.revised))


def _answered_on_itself(ctx: NegotiationContext, component: str) -> LoggedAsk | None:
    """Return the latest answer, other than a yes, to an ask about this very component."""
    found = [a for a in ctx.log if a.topic == component and not a.waiting]
    latest = max(found, key=lambda a: (a.answered_on or a.asked_on, a.asked_on), default=None)
    return latest if latest is not None and latest.outcome != ACCEPTED else None


def ask_state(
    ctx: NegotiationContext, component: str, topics: frozenset[str], term: str | None
) -> AskState:
    """Return where an ask on ``component`` (answering ``topics``) stands in the log."""
    logged = ctx.last_logged(*topics)
    if logged is None:
        return AskState()
    if logged.waiting:
        return waiting_state(logged, ctx.today, ctx.offer.deadline)
    own = _answered_on_itself(ctx, component) if logged.outcome != ACCEPTED else None
    answered = own or logged
    words = {
        "date": date_words(answered.answered_on or answered.asked_on),
        "through": through(answered),
        "answer": answer_words(answered),
    }
    if (
        own is None
        and logged.outcome != ACCEPTED
        and (component in logged.revised or logged.outcome == COUNTERED)
    ):
        # What came back on another part makes this one the next step (a different ask).
        note = _("They came back on {date} ({through}): {answer}. Accept, or ask for {ask}.")
        return AskState(NEXT_STEP, logged, None, note.format(**words, ask=term or _("more")))
    if answered.outcome == ACCEPTED:
        note = _("Agreed on {date} ({through}): {answer}. Not asked again.")
    elif is_counter(answered):
        note = _(
            "They came back on {date} ({through}): {answer}. Not asked again in the same "
            "terms: accept it, or make one different ask."
        )
    else:
        note = _(
            "Refused on {date} ({through}): {answer}. Not asked again: weigh it in your decision."
        )
    return AskState(CLOSED, answered, None, note.format(**words))


def counters_to_answer(log: Sequence[LoggedAsk]) -> tuple[LoggedAsk, ...]:
    """Return the counters not replied to yet: no ask was logged after their answer came."""
    found = []
    for index, logged in enumerate(log):
        if logged.waiting or not is_counter(logged):
            continue
        came = logged.answered_on or logged.asked_on
        if not any(later.asked_on >= came for later in log[index + 1 :]):
            found.append(logged)
    return tuple(found)


class _Sendable(Protocol):
    @property
    def state(self) -> AskState: ...


S = TypeVar("S", bound=_Sendable)


def one_reply_ask(ranked: Sequence[S], counters: Sequence[LoggedAsk]) -> tuple[list[S], list[S]]:
    """Split the asks when a counter waits for a reply: one ask to send, the rest for later.

    The ask that follows from the counter (its next step) goes first; asks still waiting for
    their own answer stay (they are not sent). Without a counter to answer, nothing moves.
    """
    if not counters:
        return list(ranked), []
    sendable = [c for c in ranked if c.state.to_send]
    following = [c for c in sendable if c.state.logged in counters]
    chosen = (following or sendable)[:1]
    kept = [c for c in ranked if c in chosen or not c.state.to_send]
    return kept, [c for c in ranked if c not in kept]


def component_words(component: str) -> str:
    """Return a part of the package as a noun phrase ("the stock", "the deadline")."""
    words = {
        STOCK: _("the stock"),
        RETENTION: _("the retention grant"),
        SIGN_ON: _("the sign-on"),
        CASH: _("the cash part of the package"),
        BASE: _("the base salary"),
        LEVEL: _("the level"),
        REMOTE: _("the remote arrangement"),
        HOURS: _("the working hours"),
        START: _("the start date"),
        DEADLINE: _("the deadline"),
        RELOCATION: _("the relocation package"),
        REFRESH: _("the refresh cycle"),
    }
    return words.get(component, _("my earlier question"))


def _topic_of(logged: LoggedAsk) -> str:
    return component_words(logged.topic or next(iter(logged.revised), ""))


def thanks(state: AskState) -> str:
    """Return the words that open a next step: thanks for what came back."""
    if state.status != NEXT_STEP or state.logged is None:
        return ""
    return counter_thanks(state.logged)


def counter_thanks(*logged: LoggedAsk) -> str:
    """Return the draft's thanks for what came back, by the parts of the package it was on.

    One sentence for every answer ("on the remote arrangement and the level"). The answer's
    own words are the user's note (in whatever language they logged it), not the draft's.
    """
    topics = and_words(list(dict.fromkeys(_topic_of(one) for one in logged)))
    return _("Thank you for coming back to me on {topic}.").format(topic=topics)


def follow_up_sentence(state: AskState, *, also: bool = False) -> str:
    """Return the draft's follow-up of an ask still waiting (``also``: after new asks)."""
    logged = state.logged
    assert logged is not None
    text = (
        _(
            "I also wanted to follow up on my question of {date} about {topic}: could you let me "
            "know where it stands?"
        )
        if also
        else _(
            "I wanted to follow up on my question of {date} about {topic}: could you let me know "
            "where it stands?"
        )
    )
    return text.format(date=date_words(logged.asked_on), topic=component_words(logged.topic))
