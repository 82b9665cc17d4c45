"""An option's saved versions read as the pages write: field names, yes/no, house dates."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.history import revision_record
from accounts.models import Revision
from tests.factories import OfferFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved(alice):
    offer = OfferFactory(owner=alice, name="Acme ML", relocation_required=True)
    offer.package.start_date = dt.date(2026, 12, 15)
    offer.package.save()
    revision_record(user=alice, obj=offer, action=Revision.Action.CHANGED, children=[offer.package])
    return offer


def _saved_rows(client: Client, offer) -> str:
    html = client.get(reverse("offers:offer_history", args=[offer.pk])).content.decode()
    return html[html.index("<details>") : html.index("</details>")]


def test_the_snapshot_reads_in_english(client_alice, saved):
    rows = _saved_rows(client_alice, saved)
    assert "<th>Package: Start date</th><td>15 Dec 2026</td>" in rows, rows
    assert "<th>Option: Relocation required</th><td>Yes</td>" in rows
    # A link by the linked row's name, a choice by its label.
    assert f"<th>Package: Company</th><td>{saved.package.company.name}</td>" in rows
    assert f"<th>Option: Status</th><td>{saved.get_status_display()}</td>" in rows
    # Not the raw snapshot: no model labels, field names, True/False or ISO dates.
    assert not re.search(r"offers\.offer|start_date|\bTrue\b|\bFalse\b|\d{4}-\d\d-\d\d", rows)
    assert "Owner" not in rows


def test_the_snapshot_reads_in_traditional_chinese(alice, saved):
    client = Client(headers={"accept-language": "zh-hant"})
    client.force_login(alice)
    rows = _saved_rows(client, saved)
    assert "<th>薪酬方案：到職日</th><td>2026年12月15日</td>" in rows, rows
    assert "<td>是</td>" in rows


def test_another_user_s_history_is_404(client_alice, bob):
    offer = OfferFactory(owner=bob)
    response = client_alice.get(reverse("offers:offer_history", args=[offer.pk]))
    assert response.status_code == 404
