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
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.selectors import account_language
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


def _claims(
    user: object, due: Due, zone: zoneinfo.ZoneInfo, now: dt.datetime
) -> list[tuple[Offer | Round, ReminderSent]]:
    """Claim each of the user's due reminders; return the offers and rounds this run got."""
    wanted: list[tuple[Offer | Round, dict[str, object]]] = [
        (o, {"kind": ReminderSent.Kind.DEADLINE, "offer": o, "due": _day_start(o.deadline, zone)})
        for o in due.offers
    ] + [
        (r, {"kind": ReminderSent.Kind.ROUND, "round": r, "due": r.scheduled_at})
        for r in due.rounds
    ]
    claimed = [(item, _claim(owner=user, sent_at=now, **fields)) for item, fields in wanted]
    return [(item, claim) for item, claim in claimed if claim is not None]


def _when(at: dt.datetime, zone: zoneinfo.ZoneInfo) -> str:
    """Return ``at`` in the user's zone, named: "Tue 8 Dec 2026, 09:00 (Asia/Taipei, UTC+8)"."""
    local = at.astimezone(zone)
    z = local.strftime("%z")  # "+0800", "-0330"
    offset = z[0] + str(int(z[1:3])) + (f":{z[3:5]}" if z[3:5] != "00" else "")
    # Translators: how a reminder shows a round's day and time (letters of Django's date filter).
    day_time = date_format(local, _("D j M Y, H:i"))
    return f"{day_time} ({zone.key}, UTC{offset})"


def _context(
    user: object, items: list[Offer | Round], zone: zoneinfo.ZoneInfo
) -> dict[str, object]:
    """The mail's offers and rounds with their absolute links (SITE_URL), rounds' times zoned."""
    site = settings.SITE_URL
    return {
        "user": user,
        "offers": [
            (o, site + reverse("offers:offer_detail", args=[o.pk]))
            for o in items
            if isinstance(o, Offer)
        ],
        "rounds": [
            (
                r,
                _when(r.scheduled_at, zone),
                site + reverse("interviews:process_detail", args=[r.process_id]),
            )
            for r in items
            if isinstance(r, Round)
        ],
        "preferences": site + reverse("offers:preferences"),
    }


def reminders_send(*, now: dt.datetime | None = None) -> int:
    """Email every reminder that is due and not yet sent; return how many messages went out.

    Each message is in the language the account chose (the site's if none), its times in the
    user's home time zone.
    """
    now = now or timezone.now()
    sent = 0
    for due in reminders_due(now=now):
        user = due.preferences.owner
        zone = zoneinfo.ZoneInfo(due.preferences.home_timezone)
        if not (mine := _claims(user, due, zone, now)):
            continue
        items = [item for item, _claimed in mine]
        with translation.override(account_language(user, settings.LANGUAGE_CODE)):
            subject = _("Offerdesk reminder")
            body = render_to_string("offers/reminder_email.txt", _context(user, items, zone))
        try:
            EmailMessage(subject, body, to=[user.email]).send()
        except Exception:  # the mail server is down: give the claims back for the next run
            logger.exception("reminder not sent")
            ReminderSent.objects.filter(pk__in=[c.pk for _item, c in mine]).delete()
            continue
        sent += 1
    return sent
