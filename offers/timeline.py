"""The timeline across companies: read the user's deadlines and rounds, align them (pure logic)."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import formats, timezone

from interviews.models import Stage
from interviews.selectors import upcoming_deadlines, upcoming_rounds
from offers.logic import timeline as logic
from offers.models import NegotiationEntry, Offer
from offers.selectors import preferences_get

# Offers still open to a decision, and the processes waiting on the company's decision.
OPEN_OFFERS = (Offer.Status.RECEIVED, Offer.Status.NEGOTIATING)
AWAITING_DECISION = (Stage.ONSITE, Stage.DEBRIEF, Stage.TEAM_MATCH)
# Options decided either way: what their company said of its dates no longer lines anything up.
CLOSED_OFFERS = (Offer.Status.ACCEPTED, Offer.Status.DECLINED, Offer.Status.EXPIRED)


@dataclasses.dataclass(frozen=True)
class TimelinePage:
    """The timeline with what the page shows beside it."""

    timeline: logic.Timeline
    home_zone: str
    offers: dict[str, Offer]
    asked: dict[str, NegotiationEntry]  # offer key -> its latest deadline ask still waiting


def _day(value: dt.date) -> str:
    return formats.date_format(value, "MONTH_DAY_FORMAT")


def _company(offer: Offer) -> str:
    return offer.company.name if offer.company is not None else offer.name


def _log_entries(user: AbstractBaseUser) -> list[NegotiationEntry]:
    """Return the deadline asks still waiting and the answers that gave dates, oldest first."""
    waiting = Q(topic=NegotiationEntry.Topic.DEADLINE, outcome=NegotiationEntry.Outcome.PENDING)
    dated = Q(decision_by__isnull=False) | Q(letter_by__isnull=False)
    return list(
        NegotiationEntry.objects.filter(waiting | dated, owner=user).order_by("asked_on", "id")
    )


def _logged_dates(
    entries: list[NegotiationEntry], offers: dict[str, Offer]
) -> list[logic.LoggedDate]:
    """Return each option's latest logged decision and letter date (closed options: none)."""
    latest: dict[tuple[str, str], logic.LoggedDate] = {}
    for entry in sorted(entries, key=lambda e: (e.answered_on or e.asked_on, e.pk)):
        offer = offers.get(str(entry.offer_id))
        if offer is None or offer.status in CLOSED_OFFERS or entry.answered_on is None:
            continue
        for kind, day in (
            ("logged_decision", entry.decision_by),
            ("logged_letter", entry.letter_by),
        ):
            if day is not None:
                latest[(str(offer.pk), kind)] = logic.LoggedDate(
                    offer_key=str(offer.pk),
                    company=_company(offer),
                    kind=kind,
                    day=day,
                    answered_on=entry.answered_on,
                    process_key=str(offer.process_id) if offer.process_id else None,
                )
    return list(latest.values())


def _offer_deadlines(offers: list[Offer]) -> list[logic.OfferDeadline]:
    """Return the deadlines of the offers still open to a decision (staying has none)."""
    return [
        logic.OfferDeadline(
            key=str(o.pk),
            company=_company(o),
            name=o.name,
            deadline=o.deadline,
            zone=o.work_timezone,
            process_key=str(o.process_id) if o.process_id else None,
        )
        for o in offers
        if o.deadline is not None and o.status in OPEN_OFFERS and o.kind != Offer.Kind.STAY
    ]


def _process_dates(
    user: AbstractBaseUser, today: dt.date, offers: list[Offer]
) -> tuple[list[logic.ProcessDeadline], list[logic.Decision]]:
    """Return the open processes' own deadlines, and the decisions their companies owe: a
    process past its onsite that no open offer came of yet awaits one by its deadline."""
    offered = {o.process_id for o in offers if o.process_id and o.status in OPEN_OFFERS}
    processes = [p for p in upcoming_deadlines(user=user, today=today) if p.deadline is not None]
    awaiting = {p.pk for p in processes if p.stage in AWAITING_DECISION and p.pk not in offered}
    return (
        [
            logic.ProcessDeadline(str(p.pk), p.company.name, p.next_step or p.role, p.deadline)
            for p in processes
            if p.pk not in awaiting
        ],
        [
            logic.Decision(str(p.pk), p.company.name, p.deadline)
            for p in processes
            if p.pk in awaiting
        ],
    )


def _next_rounds(user: AbstractBaseUser, now: dt.datetime) -> list[logic.Round]:
    """Return the rounds still to come of the processes still open, soonest first."""
    return [
        logic.Round(
            str(r.process_id),
            r.process.company.name,
            str(r.get_kind_display()).lower(),
            r.scheduled_at,
        )
        for r in upcoming_rounds(user=user, now=now, limit=None)
        if r.scheduled_at is not None
    ]


def timeline_for(*, user: AbstractBaseUser, now: dt.datetime | None = None) -> TimelinePage:
    """Return the user's deadlines and next rounds across companies, with the alignment asks."""
    now = now or timezone.now()
    home = preferences_get(user=user).home_timezone
    today = timezone.localtime(now).date()
    offers = list(
        Offer.objects.filter(owner=user)
        .select_related("package__company")
        .order_by("deadline", "id")
    )
    by_key = {str(o.pk): o for o in offers}
    process_deadlines, decisions = _process_dates(user, today, offers)
    rounds = _next_rounds(user, now)
    entries = _log_entries(user)
    result = logic.timeline_build(
        offers=_offer_deadlines(offers),
        process_deadlines=process_deadlines,
        decisions=decisions,
        rounds=rounds,
        logged=_logged_dates(entries, by_key),
        home_zone=home,
        today=today,
        day=_day,
    )
    waiting = (NegotiationEntry.Topic.DEADLINE, NegotiationEntry.Outcome.PENDING)
    asked = {str(e.offer_id): e for e in entries if (e.topic, e.outcome) == waiting}
    return TimelinePage(timeline=result, home_zone=home, offers=by_key, asked=asked)
