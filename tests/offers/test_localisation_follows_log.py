"""The transfer's localisation ask follows the conversation: refused on the log, the next draft
(read at once) no longer asks it, and still asks what was not answered (issue 35)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from offers.models import NegotiationEntry, Offer

pytestmark = pytest.mark.django_db


def _draft(client, offer) -> str:
    page = client.get(reverse("offers:negotiation", args=[offer.pk])).content.decode()
    return page.split('id="draft-en"')[1].split("</textarea>")[0]


def test_a_refused_localisation_is_not_asked_again(client, demo_user):
    transfer = Offer.objects.get(owner=demo_user, kind=Offer.Kind.INTERNAL)
    client.force_login(demo_user)
    assert "localisation allowance of about TWD 1,760,000 a year" in _draft(client, transfer)
    NegotiationEntry.objects.create(
        owner=demo_user, offer=transfer, asked_on=dt.date(2026, 11, 30),
        topic=NegotiationEntry.Topic.BASE, ask="A localisation allowance for two years",
        outcome=NegotiationEntry.Outcome.REFUSED, answered_on=dt.date(2026, 12, 1),
        answer="Local pay is set by the Taipei band; no allowance.",
    )  # fmt: skip
    after = _draft(client, transfer)
    assert "localisation allowance" not in after
    assert "annual refresh on its usual cycle" in after and "E6 pay" in after
