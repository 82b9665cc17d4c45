"""Alice's offers objects for the URL matrix (tests/test_url_matrix.py)."""

from __future__ import annotations

import datetime as dt

from accounts.history import revision_record
from offers.models import NegotiationEntry
from tests.factories import OfferFactory, ScenarioFactory
from tests.offers.url_objects_export import URL_OBJECTS as _EXPORT


def _offer(user):
    return {"pk": OfferFactory(owner=user).pk}


def _scenario(user):
    return {"pk": ScenarioFactory(owner=user).pk}


def _entry(user):
    offer = OfferFactory(owner=user)
    entry = NegotiationEntry.objects.create(
        owner=user, offer=offer, asked_on=dt.date(2026, 11, 20), ask="More stock"
    )
    return {"pk": entry.pk}


def _revision(user):
    offer = OfferFactory(owner=user)
    return {"pk": revision_record(user=user, obj=offer, action="changed").pk}


URL_OBJECTS = {
    "offers:offer_detail": _offer,
    "offers:offer_edit": _offer,
    "offers:offer_ledger_csv": _offer,
    "offers:offer_delete": _offer,
    "offers:offer_history": _offer,
    "offers:negotiation": _offer,
    "offers:negotiation_log": _offer,
    "offers:negotiation_entry_answer": _entry,
    "offers:negotiation_entry_delete": _entry,
    "offers:revision_restore": _revision,
    "offers:scenario_detail": _scenario,
    "offers:scenario_update": _scenario,
    "offers:scenario_flip": _scenario,
    "offers:scenario_mc_start": _scenario,
    "offers:scenario_mc_cancel": _scenario,
    "offers:scenario_mc_status": _scenario,
    "offers:scenario_mc_restart": _scenario,
    "offers:scenario_clone": _scenario,
    "offers:scenario_delete": _scenario,
    "offers:scenario_accept": _scenario,
}

URL_OBJECTS.update(_EXPORT)  # the export views' objects live with the export tests
