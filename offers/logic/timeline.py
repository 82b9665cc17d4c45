"""One timeline across companies: deadlines and next rounds, and the asks that align them.

Pure: no Django. An offer's deadline is a date in the offer's own time zone (a Meta deadline
of 5 Dec ends at midnight Pacific time); a round is a real instant. A round of another
process that falls on or after the deadline's day, seen in the offer's time zone, comes too
late to weigh against the offer: the timeline proposes asking the offer's company to extend
its deadline to a week after the last such round, and telling the other company about it.
Events are dated in the user's home time zone, as the user's own calendar shows them.

The asks speak in dates and companies only: nothing of the user's weights, scores or figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from offers.logic.errors import LogicInputError
from offers.logic.i18n import gettext as _
from offers.logic.timezones import zone

BUFFER_DAYS = 7
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

DayFormat = Callable[[date], str]


def short_day(day: date) -> str:
    """Return a date as '5 Dec' (the default; the web app passes a localised format)."""
    return f"{day.day} {MONTHS[day.month - 1]}"


@dataclass(frozen=True)
class OfferDeadline:
    """An option's decision deadline, in the time zone of the company that set it."""

    key: str
    company: str
    name: str
    deadline: date
    zone: str
    process_key: str | None = None


@dataclass(frozen=True)
class ProcessDeadline:
    """A date an interview process asks something of the user by (shown, not aligned)."""

    process_key: str
    company: str
    label: str
    deadline: date


@dataclass(frozen=True)
class Round:
    """One scheduled interview of a process, at a real instant (aware datetime)."""

    process_key: str
    company: str
    label: str
    at: datetime


@dataclass(frozen=True)
class Decision:
    """The day a process expects to decide (an outcome the user is waiting for)."""

    process_key: str
    company: str
    day: date


@dataclass(frozen=True)
class LoggedDate:
    """A date a company gave in an answer the log holds: its decision or its offer letter.

    ``kind`` is "logged_decision" or "logged_letter"; ``answered_on`` the day they said it.
    """

    offer_key: str
    company: str
    kind: str
    day: date
    answered_on: date
    process_key: str | None = None


LOGGED_KINDS = ("logged_decision", "logged_letter")


@dataclass(frozen=True)
class Event:
    """One line of the timeline, dated in the user's home time zone."""

    day: date
    # "offer_deadline", "process_deadline", "round", "onsite", "decision", and the dates the
    # log holds as answered: "logged_decision", "logged_letter"
    kind: str
    company: str
    label: str
    key: str
    at: datetime | None = None
    rounds: int = 0
    starts: datetime | None = None  # an onsite's first round (``at`` is its last)
    answered_on: date | None = None  # a logged date: the day the company said it


@dataclass(frozen=True)
class AlignmentAsk:
    """Ask one company to move its deadline past another company's next step."""

    offer_key: str
    company: str
    deadline: date
    proposed: date
    after: Event
    text: str
    script: str
    tell_other: str


@dataclass(frozen=True)
class Timeline:
    events: tuple[Event, ...]
    asks: tuple[AlignmentAsk, ...]


def _round_groups(rounds: Iterable[Round], home: ZoneInfo) -> list[Event]:
    """Group each process's rounds by home-time day: two or more on one day are an onsite."""
    groups: dict[tuple[str, date], list[Round]] = {}
    for r in rounds:
        if r.at.tzinfo is None:
            raise LogicInputError("at", "a round's time needs its time zone")
        groups.setdefault((r.process_key, r.at.astimezone(home).date()), []).append(r)
    events = []
    for (process_key, day), items in groups.items():
        items.sort(key=lambda r: r.at)
        last = items[-1]
        onsite = len(items) >= 2
        events.append(
            Event(
                day=day,
                kind="onsite" if onsite else "round",
                company=last.company,
                label=_("onsite") if onsite else last.label,
                key=f"process:{process_key}",
                at=last.at,
                rounds=len(items),
                starts=items[0].at,
            )
        )
    return events


def _what(event: Event) -> str:
    """Return the step in words: 'the TikTok onsite', 'the Google decision'."""
    if event.kind in ("decision", "logged_decision"):
        return _("the %(company)s decision") % {"company": event.company}
    if event.kind == "logged_letter":
        return _("the %(company)s offer letter") % {"company": event.company}
    if event.kind == "onsite":
        return _("the %(company)s onsite") % {"company": event.company}
    return _("the %(company)s %(round)s") % {"company": event.company, "round": event.label}


def _too_late(event: Event, offer: OfferDeadline, zone: ZoneInfo) -> bool:
    """Return True if the step happens on or after the deadline's day, in the offer's zone."""
    if event.at is not None:
        return event.at >= datetime.combine(offer.deadline, time(0), tzinfo=zone)
    return event.day >= offer.deadline


def _logged_steps(logged: Sequence[LoggedDate]) -> list[Event]:
    """Return the dates the log holds as answered, as steps of their company."""
    labels = {
        "logged_decision": _("decision, as they said"),
        "logged_letter": _("offer letter, as they said"),
    }
    return [
        Event(
            d.day,
            d.kind,
            d.company,
            labels[d.kind],
            f"process:{d.process_key}" if d.process_key else f"offer:{d.offer_key}",
            answered_on=d.answered_on,
        )
        for d in logged
        if d.kind in LOGGED_KINDS
    ]


def _steps(
    rounds: Sequence[Round],
    decisions: Sequence[Decision],
    logged: Sequence[LoggedDate],
    home: ZoneInfo,
    today: date,
) -> list[Event]:
    """Return every other company's next steps from today: a logged decision replaces a guess."""
    said = {d.company for d in logged if d.kind == "logged_decision"}
    said |= {d.process_key for d in logged if d.kind == "logged_decision" and d.process_key}
    expected = [
        Event(d.day, "decision", d.company, _("decision expected"), f"process:{d.process_key}")
        for d in decisions
        if d.company not in said and d.process_key not in said
    ]
    steps = _round_groups(rounds, home) + expected + _logged_steps(logged)
    return [s for s in steps if s.day >= today]


def _said_words(step: Event, steps: Sequence[Event], day: DayFormat) -> str:
    """Return what the other company already said of its dates ("" when the log holds none)."""
    told = [s for s in steps if s.company == step.company and s.kind in LOGGED_KINDS]
    if not told:
        return ""
    decision = max((s.day for s in told if s.kind == "logged_decision"), default=None)
    letter = max((s.day for s in told if s.kind == "logged_letter"), default=None)
    words = {
        "other": step.company,
        "said": day(max(s.answered_on or s.day for s in told)),
        "decision": day(decision) if decision else "",
        "letter": day(letter) if letter else "",
    }
    if decision and letter:
        text = _(
            "%(other)s said on %(said)s that it decides by %(decision)s and sends the offer "
            "letter about %(letter)s"
        )
    elif decision:
        text = _("%(other)s said on %(said)s that it decides by %(decision)s")
    else:
        text = _("%(other)s said on %(said)s that the offer letter comes about %(letter)s")
    return text % words


def _tell_other(
    last: Event, steps: Sequence[Event], words: dict[str, object], day: DayFormat
) -> str:
    """Return what to tell the other company: never a question the log holds as answered."""
    said = _said_words(last, steps, day)
    if said:
        return _(
            "Tell %(other)s you have an offer with a deadline on %(deadline)s; nothing to "
            "ask them again: %(said)s."
        ) % {**words, "said": said}
    ask = _(
        "Tell %(other)s you have an offer with a deadline on %(deadline)s, and ask how "
        "soon after %(step_day)s they can decide."
    )
    return ask % words


def _later_steps(offer: OfferDeadline, steps: Sequence[Event]) -> list[Event]:
    """Return the other companies' steps that come on or after the offer's deadline day."""
    offer_zone = zone(offer.zone, "zone")
    own = {f"offer:{offer.key}"}
    if offer.process_key is not None:
        own.add(f"process:{offer.process_key}")
    return [
        s
        for s in steps
        if s.company != offer.company and s.key not in own and _too_late(s, offer, offer_zone)
    ]


def _align_ask(
    offer: OfferDeadline, steps: Sequence[Event], buffer_days: int, day: DayFormat
) -> AlignmentAsk | None:
    """Return the ask to move the offer's deadline past the last step it comes before."""
    later = _later_steps(offer, steps)
    if not later:
        return None
    last = max(later, key=lambda s: (s.day, s.at.timestamp() if s.at else 0.0))
    step_day = last.day  # the user's own calendar, as the timeline shows it
    proposed = step_day + timedelta(days=buffer_days)
    words: dict[str, object] = {
        "company": offer.company,
        "deadline": day(offer.deadline),
        "proposed": day(proposed),
        "step": _what(last),
        "step_day": day(step_day),
        "days": buffer_days,
        "other": last.company,
    }
    text = _(
        "Ask %(company)s to extend its deadline from %(deadline)s to %(proposed)s: after "
        "%(step)s on %(step_day)s, with %(days)s days to hear back."
    )
    script = _(
        "Thank you for the offer; I am taking it seriously. I have one more process "
        "finishing on %(step_day)s and I want to give you a considered answer with all "
        "the information in hand. Could we move the decision deadline from "
        "%(deadline)s to %(proposed)s?"
    )
    return AlignmentAsk(
        offer_key=offer.key,
        company=offer.company,
        deadline=offer.deadline,
        proposed=proposed,
        after=last,
        text=text % words,
        script=script % words,
        tell_other=_tell_other(last, steps, words, day),
    )


def timeline_build(
    *,
    offers: Sequence[OfferDeadline],
    process_deadlines: Sequence[ProcessDeadline] = (),
    rounds: Sequence[Round] = (),
    decisions: Sequence[Decision] = (),
    logged: Sequence[LoggedDate] = (),
    home_zone: str,
    today: date,
    buffer_days: int = BUFFER_DAYS,
    day: DayFormat = short_day,
) -> Timeline:
    """Return the dated events from today on, soonest first, and the asks to align them.

    Each offer whose deadline comes before another company's next step (a round, an onsite,
    an expected decision, a decision or offer letter the log holds as said) gets one ask:
    extend to ``buffer_days`` after the last such step.
    """
    if buffer_days < 0:
        raise LogicInputError("buffer_days", "the buffer cannot be negative")
    steps = _steps(rounds, decisions, logged, zone(home_zone, "zone"), today)
    events = [
        Event(o.deadline, "offer_deadline", o.company, o.name, f"offer:{o.key}")
        for o in offers
        if o.deadline >= today
    ]
    events += [
        Event(p.deadline, "process_deadline", p.company, p.label, f"process:{p.process_key}")
        for p in process_deadlines
        if p.deadline >= today
    ]
    events += steps
    events.sort(key=lambda e: (e.day, e.at.timestamp() if e.at else 0.0, e.company, e.key))
    open_offers = [
        o for o in sorted(offers, key=lambda o: (o.deadline, o.key)) if o.deadline >= today
    ]
    asks = [_align_ask(o, steps, buffer_days, day) for o in open_offers]
    return Timeline(tuple(events), tuple(a for a in asks if a is not None))
