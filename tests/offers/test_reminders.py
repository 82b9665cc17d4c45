"""Deadline and interview reminders by email: opt-in, sent once each, on the user's own days."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from accounts.models import AccountSettings
from offers.logic.criteria import CRITERIA
from offers.models import Offer, Preferences, ReminderSent
from offers.reminders import reminders_send
from tests.factories import OfferFactory, PreferencesFactory
from tests.interviews.factories import RoundFactory

pytestmark = pytest.mark.django_db

TAIPEI = dt.timezone(dt.timedelta(hours=8))
# 23:30 on Monday 7 Dec 2026 in Taipei (15:30 UTC): Taipei's "today" is the 7th, its "tomorrow"
# the 8th, although it is still the 7th in UTC for another eight and a half hours.
NOW = dt.datetime(2026, 12, 7, 23, 30, tzinfo=TAIPEI)


@pytest.fixture
def alice_on(alice):
    alice.email = "alice@example.com"
    alice.save()
    PreferencesFactory(
        owner=alice, home_timezone="Asia/Taipei", reminders_email=True, reminder_days=3
    )
    return alice


def test_a_deadline_within_the_days_asked_for_is_reminded_once(alice_on):
    # 7 Dec + 3 days = 10 Dec: the 10th is in, the 11th is not; a declined offer needs nothing.
    soon = OfferFactory(owner=alice_on, name="Acme", deadline=dt.date(2026, 12, 10))
    OfferFactory(owner=alice_on, name="Later", deadline=dt.date(2026, 12, 11))
    OfferFactory(
        owner=alice_on,
        name="Declined",
        deadline=dt.date(2026, 12, 8),
        status=Offer.Status.DECLINED,
    )
    OfferFactory(owner=alice_on, name="Past", deadline=dt.date(2026, 12, 6))
    assert reminders_send(now=NOW) == 1
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    assert "Acme: Thu 10 Dec 2026" in message.body
    assert "Later" not in message.body and "Declined" not in message.body
    assert "Past" not in message.body
    assert ReminderSent.objects.get().offer == soon
    # The next runs (beat every 15 minutes) send nothing more for it.
    assert reminders_send(now=NOW + dt.timedelta(minutes=15)) == 0
    assert len(mail.outbox) == 1
    # Past midnight in Taipei the window is 8-11 Dec: "Later" comes in, Acme is not sent again.
    assert reminders_send(now=NOW + dt.timedelta(hours=5)) == 1
    assert "Later: Fri 11 Dec 2026" in mail.outbox[1].body
    assert "Acme" not in mail.outbox[1].body


def test_a_moved_deadline_is_reminded_again(alice_on):
    offer = OfferFactory(owner=alice_on, name="Acme", deadline=dt.date(2026, 12, 9))
    assert reminders_send(now=NOW) == 1
    Offer.objects.filter(pk=offer.pk).update(deadline=dt.date(2026, 12, 10))
    assert reminders_send(now=NOW + dt.timedelta(minutes=15)) == 1
    assert "Thu 10 Dec 2026" in mail.outbox[1].body


def test_a_round_tomorrow_in_the_users_time_zone_is_reminded_once(alice_on):
    # Taipei's tomorrow is 8 Dec 00:00-24:00 +08:00, that is 7 Dec 16:00 to 8 Dec 16:00 UTC.
    tomorrow = RoundFactory(
        owner=alice_on,
        scheduled_at=dt.datetime(2026, 12, 8, 1, 0, tzinfo=dt.UTC),
        process__company__name="Globex",
    )
    RoundFactory(owner=alice_on, scheduled_at=dt.datetime(2026, 12, 8, 17, 0, tzinfo=dt.UTC))
    RoundFactory(owner=alice_on, scheduled_at=dt.datetime(2026, 12, 7, 15, 45, tzinfo=dt.UTC))
    assert reminders_send(now=NOW) == 1
    body = mail.outbox[0].body
    # Shown in Taipei time: 01:00 UTC is 09:00 on Tuesday 8 Dec.
    assert "- Tue 8 Dec 2026, 09:00 (Asia/Taipei, UTC+8): Globex, Coding\n" in body
    assert body.count("\n- ") == 1
    assert ReminderSent.objects.get().round == tomorrow
    assert reminders_send(now=NOW + dt.timedelta(minutes=15)) == 0


def test_nothing_is_sent_without_the_opt_in_or_an_email_address(alice, bob):
    PreferencesFactory(owner=alice, home_timezone="Asia/Taipei", reminders_email=False)
    alice.email = "alice@example.com"
    alice.save()
    PreferencesFactory(owner=bob, home_timezone="Asia/Taipei", reminders_email=True)
    for user in (alice, bob):
        OfferFactory(owner=user, deadline=dt.date(2026, 12, 8))
    assert reminders_send(now=NOW) == 0
    assert mail.outbox == [] and not ReminderSent.objects.exists()


def test_a_mail_server_that_is_down_leaves_the_reminder_for_the_next_run(alice_on, monkeypatch):
    OfferFactory(owner=alice_on, name="Acme", deadline=dt.date(2026, 12, 9))

    def refuse(self, messages):
        raise ConnectionRefusedError("mail server down")

    with monkeypatch.context() as m:
        m.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
        assert reminders_send(now=NOW) == 0
    assert not ReminderSent.objects.exists()
    assert reminders_send(now=NOW + dt.timedelta(minutes=15)) == 1
    assert len(mail.outbox) == 1


def test_the_preferences_page_turns_reminders_on(client_alice, alice):
    data = {
        "home_timezone": "Asia/Taipei",
        "day_start": "08:00",
        "day_end": "23:00",
        "required_remote_weeks": "0",
        "horizon_years": "4",
        "home_currency": "USD",
        "basis": "gross",
        "risk_percentile": "50",
        "reminders_email": "on",
        "reminder_days": "5",
        **{c.weight_field: "1" for c in CRITERIA},
    }
    page = client_alice.get(reverse("offers:preferences")).content.decode()
    assert 'name="reminders_email"' in page and reverse("email_change") in page
    assert client_alice.post(reverse("offers:preferences"), data).status_code == 302
    prefs = Preferences.objects.get(owner=alice)
    assert prefs.reminders_email and prefs.reminder_days == 5
    bad = client_alice.post(
        reverse("offers:preferences"), dict(data, reminder_days="90", version=prefs.version)
    )
    assert bad.status_code == 400 and bad.context["form"].errors["reminder_days"]


def test_beat_sends_the_reminders_task():
    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["reminders-send"]
    assert entry["task"] in app.tasks
    assert entry["schedule"] == float(settings.REMINDERS_EVERY_SECONDS)
    assert entry["task"] in settings.TASK_TIME_LIMITS


def test_a_reminder_is_in_the_accounts_language_with_zoned_times_and_links(alice_on):
    AccountSettings.objects.create(user=alice_on, language="zh-hant")
    offer = OfferFactory(owner=alice_on, name="Acme", deadline=dt.date(2026, 12, 9))
    round_ = RoundFactory(
        owner=alice_on,
        scheduled_at=dt.datetime(2026, 12, 8, 1, 0, tzinfo=dt.UTC),
        process__company__name="Globex",
    )
    assert reminders_send(now=NOW) == 1
    (message,) = mail.outbox
    assert message.subject == "Offerdesk 提醒"
    assert "即將到來的決定期限：" in message.body and "明天的面試關卡：" in message.body
    # 01:00 UTC is 09:00 on 8 Dec in Taipei, the zone and its offset named; the day as every
    # page writes it, full-width marks (issue 35).
    assert "2026年12月8日（二）09:00（Asia/Taipei，UTC+8）：Globex，" in message.body
    assert "Acme：2026年12月9日（三）" in message.body
    site = settings.SITE_URL
    assert f"{site}{reverse('offers:offer_detail', args=[offer.pk])}\n" in message.body
    detail = reverse("interviews:process_detail", args=[round_.process_id])
    assert f"{site}{detail}\n" in message.body
    assert f"{site}{reverse('offers:preferences')}\n" in message.body
    assert "Hello" not in message.body
