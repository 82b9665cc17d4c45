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
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.selectors import account_language
from accounts.templatetags.local_dates import weekday_words
from interviews.models import Round
from offers.models import Offer, Preferences, ReminderSent

logger = logging.getLogger(__name__)

# Offers whose deadline still asks for a decision.
OPEN_STATUSES = (Offer.Status.DRAFT, Offer.Status.RECEIVED, Offer.Status.NEGOTIATING)


@dataclass
class Due:
    """What one user is to be reminded of in this run: offers' deadlines, rounds' starts."""

    preferences: Preferences
    items: list[Offer | Round]


def _day_start(day: dt.date, zone: zoneinfo.ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=zone)


def _key(item: Offer | Round, zone: zoneinfo.ZoneInfo) -> dict[str, object]:
    """Return the `ReminderSent` fields naming the reminder of an offer or a round."""
    if isinstance(item, Offer):
        due = _day_start(item.deadline, zone)
        return {"kind": ReminderSent.Kind.DEADLINE, "offer": item, "due": due}
    return {"kind": ReminderSent.Kind.ROUND, "round": item, "due": item.scheduled_at}


def reminders_due(*, now: dt.datetime) -> list[Due]:
    """Return, per user who asked for reminders, the deadlines and rounds not yet reminded."""
    found = []
    prefs = Preferences.objects.filter(reminders_email=True).exclude(owner__email="")
    for p in prefs.select_related("owner"):
        zone = zoneinfo.ZoneInfo(p.home_timezone)
        today = now.astimezone(zone).date()
        tomorrow = _day_start(today + dt.timedelta(days=1), zone)
        offers = Offer.objects.filter(
            owner=p.owner,
            status__in=OPEN_STATUSES,
            deadline__gte=today,
            deadline__lte=today + dt.timedelta(days=p.reminder_days),
        ).order_by("deadline", "name")
        rounds = Round.objects.filter(
            owner=p.owner,
            scheduled_at__gte=max(now, tomorrow),
            scheduled_at__lt=_day_start(tomorrow.date() + dt.timedelta(days=1), zone),
        )
        items = [*offers, *rounds.select_related("process__company").order_by("scheduled_at")]
        new = [i for i in items if not ReminderSent.objects.filter(**_key(i, zone)).exists()]
        if new:
            found.append(Due(preferences=p, items=new))
    return found


def _claim(**fields: object) -> ReminderSent | None:
    """Insert the reminder's row; None if another run has it (sent, or being sent)."""
    try:
        with transaction.atomic():
            return ReminderSent.objects.create(**fields)  # type: ignore[arg-type]
    except IntegrityError:
        return None


def _when(at: dt.datetime, zone: zoneinfo.ZoneInfo) -> str:
    """Return ``at`` in the user's zone, named: "Tue 8 Dec 2026, 09:00 (Asia/Taipei, UTC+8)"."""
    local = at.astimezone(zone)
    z = local.strftime("%z")  # "+0800", "-0330"
    offset = z[0] + str(int(z[1:3])) + (f":{z[3:5]}" if z[3:5] != "00" else "")
    # Translators: how a reminder shows a round's day and time (letters of Django's date filter).
    day_time = weekday_words(local, _("D j M Y, H:i"))
    return _("{when} ({zone}, UTC{offset})").format(when=day_time, zone=zone.key, offset=offset)


def reminders_send(*, now: dt.datetime | None = None) -> int:
    """Email each reminder due and not sent, in the account's language; return how many went."""
    now = now or timezone.now()
    sent = 0
    for due in reminders_due(now=now):
        user = due.preferences.owner
        zone = zoneinfo.ZoneInfo(due.preferences.home_timezone)
        claims = [(i, _claim(owner=user, sent_at=now, **_key(i, zone))) for i in due.items]
        mine = [(i, c) for i, c in claims if c is not None]
        if not mine:
            continue
        with translation.override(account_language(user, settings.LANGUAGE_CODE)):
            context = {
                "user": user,
                "site": settings.SITE_URL,
                "offers": [i for i, _c in mine if isinstance(i, Offer)],
                "rounds": [
                    (i, _when(i.scheduled_at, zone)) for i, _c in mine if isinstance(i, Round)
                ],
            }
            subject = _("Offerdesk reminder")
            body = render_to_string("offers/reminder_email.txt", context)
        try:
            EmailMessage(subject, body, to=[user.email]).send()
        except Exception:  # the mail server is down: give the claims back for the next run
            logger.exception("reminder not sent")
            ReminderSent.objects.filter(pk__in=[c.pk for _item, c in mine]).delete()
            continue
        sent += 1
    return sent
