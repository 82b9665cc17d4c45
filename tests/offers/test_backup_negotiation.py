"""The negotiation log in a backup: round trip, and hostile entries refused with nothing written."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest

from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from offers.models import NegotiationEntry
from offers.services_negotiation import negotiation_entry_create
from tests.factories import CompanyFactory, EquityGrantFactory, LevelFactory, OfferFactory
from tests.offers.test_backup import row_counts, without_meta

pytestmark = pytest.mark.django_db


@pytest.fixture
def doc(alice):
    company = CompanyFactory(owner=alice, name="Meta")
    e6 = LevelFactory(company=company, code="E6", order=6)
    offer = OfferFactory(owner=alice, company=company, package__company=company)
    EquityGrantFactory(package=offer.package)
    negotiation_entry_create(
        user=alice,
        offer=offer,
        data={
            "asked_on": dt.date(2026, 11, 10),
            "channel": "vp",
            "contact": "A VP",
            "topic": "level",
            "ask": "E6",
            "outcome": "countered",
            "answered_on": dt.date(2026, 11, 12),
            "answer": "E6 with less stock",
            "revised_level": e6,
            "revised_stock": Decimal("500000"),
        },
    )
    negotiation_entry_create(
        user=alice,
        offer=offer,
        data={"asked_on": dt.date(2026, 11, 20), "topic": "deadline", "ask": "One more week"},
    )
    return backup_build(user=alice)


def test_round_trip_keeps_the_log(alice, bob, doc):
    assert len(doc["negotiation_entries"]) == 2
    first = doc["negotiation_entries"][0]
    assert first["offer"] == 1 and first["revised_level"] == 1
    assert first["offer_version_before"] == 1 and first["offer_version_after"] == 2
    assert "revision_before" not in first  # history is not in a backup
    result = backup_restore(user=bob, raw=json.dumps(doc))
    assert result.counts["negotiation_entries"] == 2
    assert without_meta(backup_build(user=bob)) == without_meta(doc)
    entry = NegotiationEntry.objects.filter(owner=bob).order_by("asked_on").first()
    assert entry.offer.owner == bob
    assert entry.revised_level.company.owner == bob
    assert entry.value_before is not None and entry.value_after is not None
    assert entry.revision_before is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"outcome": "maybe"}, "negotiation_entries[0].outcome: Value 'maybe' is not a valid"),
        ({"revised_base": "-1"}, "negotiation_entries[0].revised_base: Ensure this value"),
        ({"revised_stock": "abc"}, "negotiation_entries[0].revised_stock:"),
        ({"outcome": "pending"}, "negotiation_entries[0].outcome: Revised terms come with"),
        ({"answered_on": "2026-11-01"}, "negotiation_entries[0].answered_on: The answer cannot"),
        ({"asked_on": "9999-01-01"}, "negotiation_entries[0]"),
        (
            {"revised_deadline": "2026-01-01"},
            "negotiation_entries[0].revised_deadline: A new deadline comes after the ask",
        ),
        ({"offer": 7}, "negotiation_entries[0].offer: unknown offer id 7"),
        ({"offer": None}, "negotiation_entries[0].offer: may not be null"),
        ({"revision_before": 3}, "negotiation_entries[0].revision_before: unknown field"),
        ({"value_currency": "usd!"}, "negotiation_entries[0].value_currency"),
        ({"ask": 5}, "negotiation_entries[0].ask: expected a string"),
    ],
)
def test_hostile_entries_are_refused_and_nothing_is_written(bob, doc, change, message):
    doc["negotiation_entries"][0].update(change)
    before = row_counts()
    with pytest.raises(BackupError) as info:
        backup_restore(user=bob, raw=json.dumps(doc))
    assert any(e.startswith(message) for e in info.value.errors), info.value.errors
    assert row_counts() == before


def test_a_revised_level_of_another_company_is_refused(bob, doc):
    doc["levels"].append(
        {"id": 2, "company": 2, "code": "X1", "order": 1, "title": "", "equivalence": None}
    )
    doc["companies"].append({**doc["companies"][0], "id": 2, "name": "Other"})
    doc["negotiation_entries"][0]["revised_level"] = 2
    with pytest.raises(BackupError) as info:
        backup_restore(user=bob, raw=json.dumps(doc))
    assert info.value.errors == [
        "negotiation_entries[0].revised_level: level X1 is not on Meta's ladder"
    ]
