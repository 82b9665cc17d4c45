"""The private calendar subscription: token-only access, revocation, isolation, time zones."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from accounts.models import CalendarFeed
from accounts.services import FEED_TOKEN_BYTES, feed_token_hash
from tests.interviews.factories import ProcessFactory, RoundFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 3, 1, 0, 0, tzinfo=dt.UTC)
SETTINGS = "interviews:calendar_settings"


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)


def turn_on(client) -> str:
    """Turn the feed on through the page; return the link shown once."""
    response = client.post(reverse(SETTINGS), {"action": "reset"})
    assert response.status_code == 302
    page = client.get(reverse(SETTINGS)).content.decode()
    match = re.search(r'value="(http://testserver/interviews/calendar/feed/[^"]+\.ics)"', page)
    assert match, page
    return match.group(1)


def path_of(url: str) -> str:
    return url.removeprefix("http://testserver")


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


def test_feed_works_with_the_token_alone(client, alice):
    RoundFactory(
        owner=alice,
        process=ProcessFactory(owner=alice, company__name="Meta"),
        scheduled_at=dt.datetime(2026, 3, 6, 18, tzinfo=dt.UTC),
    )
    client.force_login(alice)
    url = turn_on(client)
    client.logout()
    response = client.get(path_of(url))  # no session: a calendar app
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert {"private", "no-store"} <= set(response["Cache-Control"].split(", "))
    lines = unfold(response.content.decode())
    assert lines[0] == "BEGIN:VCALENDAR"
    assert "DTSTART:20260306T180000Z" in lines
    assert any(li.startswith("SUMMARY:Meta") for li in lines)
    assert "sessionid" not in response.cookies


def test_the_token_is_unguessable_and_only_its_hash_is_stored(client, alice):
    client.force_login(alice)
    url = turn_on(client)
    token = url.rsplit("/", 1)[1].removesuffix(".ics")
    assert len(token) >= 43 and FEED_TOKEN_BYTES >= 32  # 256 random bits
    feed = CalendarFeed.objects.get(owner=alice)
    assert feed.token_hash == feed_token_hash(token) and token not in feed.token_hash
    # Shown once: the next visit no longer has it.
    assert token not in client.get(reverse(SETTINGS)).content.decode()


def test_reset_revokes_the_old_link(client, alice):
    client.force_login(alice)
    old = turn_on(client)
    new = turn_on(client)
    assert old != new
    client.logout()
    assert client.get(path_of(old)).status_code == 404
    assert client.get(path_of(new)).status_code == 200


def test_turn_off_revokes_the_link(client, alice):
    client.force_login(alice)
    url = turn_on(client)
    assert client.post(reverse(SETTINGS), {"action": "off"}).status_code == 302
    assert not CalendarFeed.objects.filter(owner=alice).exists()
    client.logout()
    assert client.get(path_of(url)).status_code == 404


def test_unknown_token_and_inactive_owner_are_404(client, alice):
    assert client.get(reverse("interviews:calendar_feed", args=["x" * 43])).status_code == 404
    client.force_login(alice)
    url = turn_on(client)
    client.logout()
    alice.is_active = False
    alice.save()
    assert client.get(path_of(url)).status_code == 404


def test_feed_is_read_only(client, alice):
    client.force_login(alice)
    url = turn_on(client)
    client.logout()
    assert client.post(path_of(url)).status_code == 405
    assert client.head(path_of(url)).status_code == 200


def test_another_users_rounds_never_appear(client, alice, bob):
    RoundFactory(owner=alice, process=ProcessFactory(owner=alice, company__name="AliceCo"),
                 scheduled_at=dt.datetime(2026, 3, 6, 18, tzinfo=dt.UTC))  # fmt: skip
    RoundFactory(owner=bob, process=ProcessFactory(owner=bob, company__name="BobCo"),
                 scheduled_at=dt.datetime(2026, 3, 6, 18, tzinfo=dt.UTC))  # fmt: skip
    client.force_login(alice)
    alice_url = turn_on(client)
    client.force_login(bob)
    bob_url = turn_on(client)
    client.logout()
    alice_feed = client.get(path_of(alice_url)).content.decode()
    bob_feed = client.get(path_of(bob_url)).content.decode()
    assert "AliceCo" in alice_feed and "BobCo" not in alice_feed
    assert "BobCo" in bob_feed and "AliceCo" not in bob_feed


def test_turning_off_is_per_user(client, alice, bob):
    client.force_login(alice)
    alice_url = turn_on(client)
    client.force_login(bob)
    turn_on(client)
    client.post(reverse(SETTINGS), {"action": "off"})  # Bob's, not Alice's
    client.logout()
    assert client.get(path_of(alice_url)).status_code == 200


def test_feed_times_follow_dst(client, alice):
    """10:00 Los Angeles before and after the 2026-03-08 change; Taipei has no DST."""
    process = ProcessFactory(owner=alice, first_contact=dt.date(2026, 2, 1))
    client.force_login(alice)
    for local in ("2026-03-06T10:00", "2026-03-09T10:00"):
        response = client.post(
            reverse("interviews:round_create", args=[process.pk]),
            {"quick": "1", "kind": "coding", "scheduled_at": local,
             "timezone": "America/Los_Angeles", "duration_minutes": "60", "mode": "virtual"},
        )  # fmt: skip
        assert response.status_code == 302, response.content
    response = client.post(
        reverse("interviews:round_create", args=[process.pk]),
        {"quick": "1", "kind": "coding", "scheduled_at": "2026-03-09T10:00",
         "timezone": "Asia/Taipei", "duration_minutes": "30", "mode": "virtual"},
    )  # fmt: skip
    assert response.status_code == 302, response.content
    url = turn_on(client)
    client.logout()
    lines = unfold(client.get(path_of(url)).content.decode())
    assert "DTSTART:20260306T180000Z" in lines  # 10:00 PST = UTC-8
    assert "DTSTART:20260309T170000Z" in lines  # 10:00 PDT = UTC-7
    assert "DTSTART:20260309T020000Z" in lines  # 10:00 Taipei = UTC+8 all year
    assert "DTEND:20260309T023000Z" in lines
    # Every time is UTC ("Z"): no floating local time a calendar could misread.
    assert all(li.endswith("Z") for li in lines if li.startswith(("DTSTART", "DTEND")))


def test_page_shows_download_and_subscription(client, alice):
    client.force_login(alice)
    page = client.get(reverse(SETTINGS)).content.decode()
    assert reverse("interviews:calendar") in page and "Turn on" in page
    turn_on(client)
    page = client.get(reverse(SETTINGS)).content.decode()
    assert "Reset link" in page and "Turn off" in page
    assert reverse(SETTINGS) in client.get(reverse("interviews:board")).content.decode()


def test_unknown_action_is_refused(client, alice):
    client.force_login(alice)
    assert client.post(reverse(SETTINGS), {"action": "steal"}).status_code == 400
    assert not CalendarFeed.objects.exists()


def test_account_deletion_removes_the_feed(client, alice):
    from accounts.services import account_delete

    client.force_login(alice)
    url = turn_on(client)
    account_delete(user=alice)
    assert not CalendarFeed.objects.exists()
    client.logout()
    assert client.get(path_of(url)).status_code == 404
