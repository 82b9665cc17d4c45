"""Issue 35: the timeline lines up the dates the log holds, and never asks for them again."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from offers.models import NegotiationEntry, Offer

pytestmark = pytest.mark.django_db


class _Form(HTMLParser):
    """Collect what a browser posts from the form whose action is ``action``."""

    def __init__(self, action: str, page: str) -> None:
        super().__init__()
        self.action, self.page, self.inside, self.data = action, page, False, {}
        self.field: str | None = None
        self.select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            # A form without an action posts to its own page.
            self.inside = a.get("action", self.page) == self.action
        elif not self.inside:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("submit", "checkbox"):
            self.data[a["name"]] = a.get("value") or ""
        elif tag == "textarea" and a.get("name"):
            self.field = a["name"]
            self.data[self.field] = ""
        elif tag == "select" and a.get("name"):
            self.select = a["name"]
            self.data.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in a:
            self.data[self.select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "textarea":
            self.field = None
        elif tag == "select":
            self.select = None

    def handle_data(self, data):
        if self.field:
            self.data[self.field] += data


def browser_post(client, page_url: str, action: str, **typed):
    """Post the page's form as a browser does: every field it renders, with what was typed."""
    parser = _Form(action, page_url)
    parser.feed(client.get(page_url).content.decode())
    assert parser.data, f"no form posting to {action}"
    return client.post(action, {**parser.data, **typed})


@pytest.fixture
def demo_client(client, demo_user):
    client.force_login(demo_user)
    return client


def _log_tiktoks_dates(client):
    tiktok = Offer.objects.get(owner__username="demo", name__startswith="TikTok")
    url = reverse("offers:negotiation_log", args=[tiktok.pk])
    response = browser_post(
        client,
        url,
        url,
        asked_on="2026-11-28",
        contact="Mei Lin",
        topic="deadline",
        ask="Asked how soon after the onsite the team can decide.",
        outcome="countered",
        answered_on="2026-11-29",
        answer="A decision by 16 Dec, the offer letter about two days later.",
        decision_by="2026-12-16",
        letter_by="2026-12-18",
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = NegotiationEntry.objects.get(offer=tiktok, decision_by__isnull=False)
    assert (entry.decision_by, entry.letter_by) == (dt.date(2026, 12, 16), dt.date(2026, 12, 18))


def _move_metas_deadline(client, day: str):
    meta = Offer.objects.get(owner__username="demo", name__startswith="Meta")
    waiting = NegotiationEntry.objects.get(offer=meta, topic="deadline", outcome="pending")
    url = reverse("offers:negotiation_entry_answer", args=[waiting.pk])
    response = browser_post(
        client, url, url, outcome="accepted", answered_on="2026-12-01", revised_deadline=day
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    meta.refresh_from_db()
    assert meta.deadline == dt.date.fromisoformat(day)


def test_the_logged_decision_and_letter_sit_on_the_timeline(demo_client):
    _log_tiktoks_dates(demo_client)
    response = demo_client.get(reverse("offers:timeline"))
    events = {(e.kind, e.company): e.day for e in response.context["events"]}
    assert events[("logged_decision", "TikTok")] == dt.date(2026, 12, 16)
    assert events[("logged_letter", "TikTok")] == dt.date(2026, 12, 18)
    body = response.content.decode()
    assert 'data-kind="logged_decision"' in body and 'data-kind="logged_letter"' in body


def test_every_deadline_before_tiktoks_logged_dates_is_asked_to_line_up(demo_client):
    _move_metas_deadline(demo_client, "2026-12-14")
    _log_tiktoks_dates(demo_client)
    response = demo_client.get(reverse("offers:timeline"))
    asks = {offer.name.split()[0]: ask for ask, offer, _asked in response.context["asks"]}
    body = response.content.decode()
    assert "Nothing to align" not in body
    for company, deadline in (("Meta", dt.date(2026, 12, 14)), ("Google", dt.date(2026, 12, 15))):
        ask = asks[company]
        assert ask.deadline == deadline
        # After TikTok's letter on 18 Dec, a week to hear back: 25 Dec.
        assert (ask.after.company, ask.after.kind) == ("TikTok", "logged_letter")
        assert ask.proposed == dt.date(2026, 12, 25)
        # What the log holds as answered is not asked again: it is said.
        assert "ask how soon" not in ask.tell_other
        assert "TikTok said on" in ask.tell_other and "decides by" in ask.tell_other
    assert not re.search(r"ask how soon after [^<]* TikTok|ask TikTok", body, re.I)


def test_the_log_shows_the_dates_they_gave(demo_client):
    _log_tiktoks_dates(demo_client)
    tiktok = Offer.objects.get(owner__username="demo", name__startswith="TikTok")
    page = demo_client.get(reverse("offers:negotiation_log", args=[tiktok.pk])).content.decode()
    assert "Their dates:" in page
    assert "decision by 16 Dec 2026 · offer letter by 18 Dec 2026" in page
    demo_client.post(reverse("set_language"), {"language": "zh-hant"})
    page = demo_client.get(reverse("offers:negotiation_log", args=[tiktok.pk])).content.decode()
    assert "2026年12月16日" in page and "2026年12月18日" in page
