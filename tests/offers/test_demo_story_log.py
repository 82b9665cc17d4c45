"""The demo's negotiation log is what a careful candidate would say (issue 35, item 11).

The log never volunteers a weak round (the debrief's low signals are the company's to raise),
and TikTok's recruiter said what the seed's story says: no budget limit. The plan then still
asks TikTok for cash, the answer logged as answered, not asked again.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from interviews.models import Round, Signal
from offers.models import NegotiationEntry, Offer

pytestmark = pytest.mark.django_db

WEAK = (Signal.LEAN_NO_HIRE, Signal.NO_HIRE, Signal.STRONG_NO_HIRE)


def test_no_logged_ask_names_a_weak_round(demo_user):
    entries = list(NegotiationEntry.objects.filter(owner=demo_user).select_related("offer"))
    assert entries
    weak = Round.objects.filter(owner=demo_user, signal__in=WEAK).select_related("process")
    assert weak.exists()  # the demo has a weak round (Meta's system design) to keep quiet
    for entry in entries:
        for r in weak.filter(process=entry.offer.process_id):
            said = entry.ask.lower()
            assert r.get_kind_display().lower() not in said, (entry.ask, r.kind)
            assert "held it back" not in said and "no hire" not in said


def test_tiktok_said_no_budget_limit_and_the_plan_still_asks_cash(client, demo_user):
    tiktok = Offer.objects.get(owner=demo_user, name__startswith="TikTok")
    said = NegotiationEntry.objects.get(offer=tiktok, topic=NegotiationEntry.Topic.OTHER)
    assert "no budget limit" in said.answer.lower()
    client.force_login(demo_user)
    log = client.get(reverse("offers:negotiation_log", args=[tiktok.pk])).content.decode()
    assert "No budget limit for the right candidate" in log
    page = client.get(reverse("offers:negotiation", args=[tiktok.pk])).content.decode()
    assert "Could you add a sign-on bonus of SGD" in page  # cash for private stock, asked
