"""Issue 35: on the demo's negotiation pages, the remote and time-zone asks say "from Taipei"."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from offers.models import Offer

pytestmark = pytest.mark.django_db

DRAFT = re.compile(r'<textarea id="draft-(?P<lang>[\w-]+)"[^>]*>(?P<text>.*?)</textarea>', re.S)


def _drafts(client, offer):
    page = client.get(reverse("offers:negotiation", args=[offer.pk])).content.decode()
    return {m["lang"]: html.unescape(m["text"]) for m in DRAFT.finditer(page)}


def test_every_remote_or_time_zone_ask_names_taipei_and_its_offset(client, demo_user):
    client.force_login(demo_user)
    asked = 0
    for offer in Offer.objects.filter(owner=demo_user):
        drafts = _drafts(client, offer)
        english, chinese = drafts["en"], drafts["zh-hant"]
        if "remotely" in english or "core hours" in english:
            asked += 1
            # The demo's saved home zone is Asia/Taipei: UTC+8 on 1 Dec 2026 (no DST).
            assert "from Taipei (UTC+8)" in english, offer.name
            assert "home region" not in english and "region's office" not in english
            # The zh-Hant draft is the translated template with the place filled in.
            assert "臺北（UTC+8）" in chinese, offer.name
        if "core hours" in english:
            assert "an office in Taipei?" in english, offer.name
            assert "改派到臺北的辦公室" in chinese, offer.name
        # Why the user needs remote work is theirs: never in a draft.
        assert "family" not in english.lower() and "家庭" not in chinese, offer.name
    assert asked >= 1
