"""The admin shows the offers models to an operator, view-only (writes go through services)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from offers.models import Job, NegotiationEntry, Offer, Preferences, Scenario
from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_data(admin_client, alice):
    offer = OfferFactory(owner=alice, name="Acme offer")
    PreferencesFactory(owner=alice)
    ScenarioFactory(owner=alice, offer=offer, name="Ask more")
    Job.objects.create(owner=alice, kind="export", format="csv")
    Job.objects.create(owner=alice, kind="restore")
    NegotiationEntry.objects.create(
        owner=alice, offer=offer, asked_on=dt.date(2026, 11, 20), ask="More stock"
    )
    return admin_client


@pytest.mark.parametrize("model", [Offer, Preferences, Scenario, Job, NegotiationEntry])
def test_admin_lists_and_shows_each_offers_model(admin_client_with_data, model):
    opts = model._meta
    changelist = admin_client_with_data.get(
        reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    )
    assert changelist.status_code == 200
    obj = model.objects.first()
    page = admin_client_with_data.get(
        reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    )
    assert page.status_code == 200
    assert "Save" not in page.content.decode()  # view-only


def test_admin_cannot_change_an_offer(admin_client_with_data):
    offer = Offer.objects.get(name="Acme offer")
    url = reverse("admin:offers_offer_change", args=[offer.pk])
    response = admin_client_with_data.post(url, {"name": "Hacked"})
    assert response.status_code == 403
    offer.refresh_from_db()
    assert offer.name == "Acme offer"
    assert admin_client_with_data.get(reverse("admin:offers_offer_add")).status_code == 403


def test_admin_is_for_staff_only(client_alice):
    response = client_alice.get(reverse("admin:offers_offer_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
