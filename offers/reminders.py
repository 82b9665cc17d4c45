"""Reminders by email: an offer's decision deadline coming near, an interview round tomorrow.

For users who turned them on (`Preferences.reminders_email`) and have an email address. Each
deadline and each round start is reminded once: the sender claims it by inserting its
`ReminderSent` row (unique per offer and deadline, per round and start), sends, and gives the
claim back if the message could not be sent, so the next run tries again. Days are the user's
own (`Preferences.home_timezone`): "tomorrow" is tomorrow where they live. Beat runs
`reminders_send` every REMINDERS_EVERY_SECONDS; running it twice sends nothing twice.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from interviews.models import Round
from offers.models import Offer, Preferences, ReminderSent

logger = logging.getLogger(__name__)

# Offers whose deadline still asks for a decision.
OPEN_STATUSES = (Offer.Status.DRAFT, Offer.Status.RECEIVED, Offer.Status.NEGOTIATING)


@dataclass
class Due:
    """What one user is to be reminded of in this run."""

    preferences: Preferences
    offers: list[Offer] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)


def _day_start(day: dt.date, zone: zoneinfo.ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=zone)


def reminders_due(*, now: dt.datetime) -> list[Due]:
    """Return, per user who asked for reminders, the deadlines and rounds not yet reminded."""
    found = []
    prefs = Preferences.objects.filter(reminders_email=True).exclude(owner__email="")
    for p in prefs.select_related("owner"):
        zone = zoneinfo.ZoneInfo(p.home_timezone)
        today = now.astimezone(zone).date()
        tomorrow = today + dt.timedelta(days=1)
        offers = Offer.objects.filter(
            owner=p.owner,
            status__in=OPEN_STATUSES,
            deadline__gte=today,
            deadline__lte=today + dt.timedelta(days=p.reminder_days),
        ).order_by("deadline", "name")
        offers_new = [
            o
            for o in offers
            if not ReminderSent.objects.filter(
                offer=o, kind=ReminderSent.Kind.DEADLINE, due=_day_start(o.deadline, zone)
            ).exists()
        ]
        rounds = (
            Round.objects.filter(
                owner=p.owner,
                scheduled_at__gte=max(now, _day_start(tomorrow, zone)),
                scheduled_at__lt=_day_start(tomorrow + dt.timedelta(days=1), zone),
            )
            .select_related("process__company")
            .order_by("scheduled_at")
        )
        rounds_new = [
            r
            for r in rounds
            if not ReminderSent.objects.filter(
                round=r, kind=ReminderSent.Kind.ROUND, due=r.scheduled_at
            ).exists()
        ]
        if offers_new or rounds_new:
            found.append(Due(preferences=p, offers=offers_new, rounds=rounds_new))
    return found


def _claim(**fields: object) -> ReminderSent | None:
    """Insert the reminder's row; None if another run has it (sent, or being sent)."""
    try:
        with transaction.atomic():
            return ReminderSent.objects.create(**fields)  # type: ignore[arg-type]
    except IntegrityError:
        return None


def reminders_send(*, now: dt.datetime | None = None) -> int:
    """Email every reminder that is due and not yet sent; return how many messages went out."""
    now = now or timezone.now()
    sent = 0
    for due in reminders_due(now=now):
        user = due.preferences.owner
        zone = zoneinfo.ZoneInfo(due.preferences.home_timezone)
        claims = [
            (
                o,
                _claim(
                    owner=user,
                    kind=ReminderSent.Kind.DEADLINE,
                    offer=o,
                    due=_day_start(o.deadline, zone),
                    sent_at=now,
                ),
            )
            for o in due.offers
        ] + [
            (
                r,
                _claim(
                    owner=user,
                    kind=ReminderSent.Kind.ROUND,
                    round=r,
                    due=r.scheduled_at,
                    sent_at=now,
                ),
            )
            for r in due.rounds
        ]
        mine = [c for _, c in claims if c is not None]
        offers = [o for o, c in claims if c is not None and isinstance(o, Offer)]
        rounds = [r for r, c in claims if c is not None and isinstance(r, Round)]
        if not mine:
            continue
        # In the site's language: an account keeps no language of its own (the page's is the
        # browser's or the session's).
        with timezone.override(zone), translation.override(settings.LANGUAGE_CODE):
            context = {
                "user": user,
                "offers": offers,
                "rounds": rounds,
                "today": now.astimezone(zone).date(),
            }
            subject = _("Offerdesk reminder")
            body = render_to_string("offers/reminder_email.txt", context)
        try:
            EmailMessage(subject, body, to=[user.email]).send()
        except Exception:  # the mail server is down: give the claims back for the next run
            logger.exception("reminder not sent")
            ReminderSent.objects.filter(pk__in=[c.pk for c in mine]).delete()
            continue
        sent += 1
    return sent
