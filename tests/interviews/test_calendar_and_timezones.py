"""Times across a DST change: the page in the user's home zone, and a valid RFC 5545 export."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from interviews.ics import CalendarEvent, calendar_text, escape_text, fold_line
from tests.interviews.factories import ProcessFactory, RoundFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 3, 1, 0, 0, tzinfo=dt.UTC)


def add_round_via_form(client, process, local):
    response = client.post(
        reverse("interviews:round_create", args=[process.pk]),
        {"quick": "1", "kind": "system_design", "scheduled_at": local,
         "timezone": "America/Los_Angeles", "duration_minutes": "60", "mode": "virtual",
         "interviewer_name": "Marcus; Obi, ranking \\ infra"},
    )  # fmt: skip
    assert response.status_code == 302, response.content


@pytest.fixture
def dst_rounds(client, alice_taipei):
    """Two rounds at 10:00 Los Angeles, before (PST) and after (PDT) the 2026-03-08 change."""
    client.force_login(alice_taipei)
    process = ProcessFactory(owner=alice_taipei, first_contact=dt.date(2026, 2, 1))
    add_round_via_form(client, process, "2026-03-06T10:00")
    add_round_via_form(client, process, "2026-03-09T10:00")
    return process


def test_rounds_are_stored_in_utc(dst_rounds):
    starts = [r.scheduled_at for r in dst_rounds.rounds.order_by("order")]
    assert starts == [
        dt.datetime(2026, 3, 6, 18, 0, tzinfo=dt.UTC),
        dt.datetime(2026, 3, 9, 17, 0, tzinfo=dt.UTC),
    ]


def test_process_page_shows_rounds_in_the_users_home_zone(client, dst_rounds):
    html = client.get(reverse("interviews:process_detail", args=[dst_rounds.pk])).content.decode()
    assert "Sat 7 Mar 2026 02:00" in html  # 10:00 PST = 02:00 next day in Taipei
    assert "Tue 10 Mar 2026 01:00" in html  # 10:00 PDT = 01:00 next day in Taipei
    assert "Fri 10:00 America/Los_Angeles" in html
    assert "Mon 10:00 America/Los_Angeles" in html


def test_home_zone_follows_preferences(client, dst_rounds, alice_taipei):
    from offers.models import Preferences

    Preferences.objects.filter(owner=alice_taipei).update(home_timezone="Europe/London")
    client.force_login(alice_taipei)  # the middleware caches the zone in the session
    session = client.session
    session.pop("offerdesk_tz", None)
    session.save()
    html = client.get(reverse("interviews:process_detail", args=[dst_rounds.pk])).content.decode()
    assert "Fri 6 Mar 2026 18:00" in html


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


def test_calendar_export_is_valid_rfc5545(client, dst_rounds, monkeypatch, reauth):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    response = reauth(client).get(reverse("interviews:calendar"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    raw = response.content
    text = raw.decode("utf-8")
    # Every line ends with CRLF, no bare LF, and no physical line is longer than 75 octets.
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    lines = unfold(text)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR" and lines[-1] == ""
    assert "VERSION:2.0" in lines and any(li.startswith("PRODID:") for li in lines)
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == 2
    assert "DTSTART:20260306T180000Z" in lines  # 10:00 PST
    assert "DTSTART:20260309T170000Z" in lines  # 10:00 PDT
    assert "DTEND:20260306T190000Z" in lines
    assert lines.count("DTSTAMP:20260301T000000Z") == 2
    uids = [li for li in lines if li.startswith("UID:")]
    assert len(set(uids)) == 2
    description = next(li for li in lines if li.startswith("DESCRIPTION:"))
    assert "Marcus\\; Obi\\, ranking \\\\ infra" in description
    assert "\\n" in description


def test_calendar_skips_past_rounds(client, alice_taipei, monkeypatch, reauth):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)
    client.force_login(alice_taipei)
    reauth(client)
    RoundFactory(owner=alice_taipei, scheduled_at=dt.datetime(2026, 2, 10, 2, tzinfo=dt.UTC))
    assert b"BEGIN:VEVENT" not in client.get(reverse("interviews:calendar")).content


def test_fold_line_counts_octets_and_keeps_characters_whole():
    line = "SUMMARY:" + "面試" * 40  # 3 octets a character
    folded = fold_line(line)
    parts = folded.split("\r\n")
    assert all(len(p.encode("utf-8")) <= 75 for p in parts)
    assert all(p.startswith(" ") for p in parts[1:])
    assert "".join(p[1:] if i else p for i, p in enumerate(parts)) == line


def test_escape_text():
    assert escape_text("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"


def test_calendar_text_requires_aware_times():
    event = CalendarEvent(
        uid="x", start=dt.datetime(2026, 1, 1), end=dt.datetime(2026, 1, 1), summary="s"
    )
    with pytest.raises(ValueError):
        calendar_text([event], now=NOW)
