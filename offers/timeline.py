"""The timeline across companies: read the user's deadlines and rounds, align them (pure logic)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import formats, timezone

from interviews.models import TERMINAL_STAGES, Process, Round, Stage
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
    today: dt.date
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


def timeline_for(*, user: AbstractBaseUser, now: dt.datetime | None = None) -> TimelinePage:
    """Return the user's deadlines and next rounds across companies, with the alignment asks."""
    now = now or timezone.now()
    prefs = preferences_get(user=user)
    home = prefs.home_timezone
    today = timezone.localtime(now).date()
    offers = list(
        Offer.objects.filter(owner=user)
        .select_related("package__company")
        .order_by("deadline", "id")
    )
    open_offers = [
        o for o in offers if o.deadline and o.status in OPEN_OFFERS and o.kind != Offer.Kind.STAY
    ]
    decided_elsewhere = {o.process_id for o in offers if o.process_id and o.status in OPEN_OFFERS}
    processes = list(
        Process.objects.filter(owner=user, deadline__gte=today)
        .exclude(stage__in=TERMINAL_STAGES)
        .select_related("company")
    )
    rounds = list(
        Round.objects.filter(owner=user, process__owner=user, scheduled_at__gte=now)
        .exclude(process__stage__in=TERMINAL_STAGES)
        .select_related("process", "process__company")
        .order_by("scheduled_at", "id")
    )
    entries = _log_entries(user)
    result = logic.timeline_build(
        offers=[
            logic.OfferDeadline(
                key=str(o.pk),
                company=_company(o),
                name=o.name,
                deadline=o.deadline,
                zone=o.work_timezone,
                process_key=str(o.process_id) if o.process_id else None,
            )
            for o in open_offers
            if o.deadline is not None
        ],
        process_deadlines=[
            logic.ProcessDeadline(str(p.pk), p.company.name, p.next_step or p.role, p.deadline)
            for p in processes
            if p.deadline is not None
            and not (p.stage in AWAITING_DECISION and p.pk not in decided_elsewhere)
        ],
        decisions=[
            logic.Decision(str(p.pk), p.company.name, p.deadline)
            for p in processes
            if p.deadline is not None
            and p.stage in AWAITING_DECISION
            and p.pk not in decided_elsewhere
        ],
        rounds=[
            logic.Round(
                str(r.process_id),
                r.process.company.name,
                str(r.get_kind_display()).lower(),
                r.scheduled_at,
            )
            for r in rounds
            if r.scheduled_at is not None
        ],
        logged=_logged_dates(entries, {str(o.pk): o for o in offers}),
        home_zone=home,
        today=today,
        day=_day,
    )
    asked: dict[str, Any] = {}
    for entry in entries:
        if (
            entry.topic == NegotiationEntry.Topic.DEADLINE
            and entry.outcome == NegotiationEntry.Outcome.PENDING
        ):
            asked[str(entry.offer_id)] = entry
    return TimelinePage(
        timeline=result,
        home_zone=home,
        today=today,
        offers={str(o.pk): o for o in offers},
        asked=asked,
    )
