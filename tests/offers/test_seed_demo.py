"""seed_demo: idempotent, and the demo user logs in to a dashboard with their options."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from offers.models import Offer

pytestmark = pytest.mark.django_db


def row_counts() -> dict[str, int]:
    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in ("compensation", "interviews", "offers", "auth")
    }


def test_seed_demo_twice_changes_nothing(client):
    call_command("seed_demo", force=True)
    first = row_counts()
    call_command("seed_demo", force=True)
    assert row_counts() == first
    assert first["offers.Offer"] == 5


def test_demo_logs_in_to_a_ranked_dashboard(client):
    call_command("seed_demo", force=True)
    response = client.post(reverse("login"), {"username": "demo", "password": "offerdesk-demo"})
    assert response.status_code == 302
    page = client.get(reverse("offers:dashboard"))
    names = [r.name for r in page.context["board"].ranking]
    assert len(names) == 5
    # Remote work and an Asia time zone weigh more than money for this user.
    assert names[0] in ("TikTok Singapore (expected)", "Internal transfer: Northwind Taipei")
    assert "Stay at Northwind AI" in names


def test_seed_demo_reset_rebuilds_the_demo(client):
    # An offer PROTECTs its package: a plain user.delete() raised ProtectedError here.
    call_command("seed_demo", force=True)
    first = row_counts()
    old_user = get_user_model().objects.get(username="demo")
    call_command("seed_demo", force=True, reset=True)
    user = get_user_model().objects.get(username="demo")
    assert user.pk != old_user.pk
    assert row_counts() == first
    assert not Offer.objects.filter(owner_id=old_user.pk).exists()
    assert Offer.objects.filter(owner=user).count() == 5
