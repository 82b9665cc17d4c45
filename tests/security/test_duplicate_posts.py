"""Duplicate form posts and edits without a version change nothing twice (issue 18)."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from accounts.models import FormToken
from interviews.models import Round
from offers.models import Offer, Scenario
from tests.factories import OfferFactory, ScenarioFactory
from tests.interviews.factories import RoundFactory
from tests.interviews.test_views import round_post
from tests.offers.test_scenarios import _form as scenario_post
from tests.security.helpers import offer_post
from tests.security.test_lost_updates import _form_post

NEW = "/offers/new/"


def _token(client: Client) -> str:
    page = client.get(NEW).content.decode()
    match = re.search(r'name="form_token" value="([0-9a-f]{32})"', page)
    assert match, "the new-offer form carries a one-time token"
    return match.group(1)


@pytest.mark.django_db
def test_new_offer_form_posted_twice_creates_one_offer(client_alice, alice):
    data = offer_post(form_token=_token(client_alice))
    first = client_alice.post(NEW, data)
    assert first.status_code == 302
    offer = Offer.objects.get(owner=alice)
    second = client_alice.post(NEW, data)
    assert second.status_code == 302
    assert second["Location"] == reverse("offers:offer_detail", args=[offer.pk])
    assert Offer.objects.filter(owner=alice).count() == 1
    # A new form (a new token) adds a second option, as it should.
    assert client_alice.post(NEW, offer_post(form_token=_token(client_alice))).status_code == 302
    assert Offer.objects.filter(owner=alice).count() == 2


@pytest.mark.django_db
def test_new_offer_form_with_an_error_keeps_its_token(client_alice, alice):
    token = _token(client_alice)
    refused = client_alice.post(NEW, offer_post(form_token=token, base="-5"))
    assert refused.status_code == 400
    assert client_alice.post(NEW, offer_post(form_token=token)).status_code == 302
    assert Offer.objects.filter(owner=alice).count() == 1


@pytest.mark.django_db
def test_another_users_token_is_not_shared(client, alice, bob):
    client.force_login(alice)
    token = _token(client)
    client.post(NEW, offer_post(form_token=token))
    client.force_login(bob)
    assert client.post(NEW, offer_post(form_token=token)).status_code == 302
    assert Offer.objects.filter(owner=bob).count() == 1
    assert FormToken.objects.filter(token=token).count() == 2


@pytest.mark.django_db(transaction=True)
def test_new_offer_form_posted_twice_at_once_creates_one_offer(alice):
    if connection.vendor == "sqlite":
        pytest.skip("needs a database with real concurrent connections (PostgreSQL pass)")
    tab = Client()
    tab.force_login(alice)
    data = offer_post(form_token=_token(tab))
    barrier = threading.Barrier(2)
    statuses: list[object] = []

    def post() -> None:
        try:
            client = Client()
            client.force_login(alice)
            barrier.wait(timeout=10)
            statuses.append(client.post(NEW, data).status_code)
        except BaseException as exc:
            statuses.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert statuses == [302, 302]
    assert Offer.objects.filter(owner=alice).count() == 1


@pytest.mark.django_db
def test_empty_version_does_not_overwrite_a_newer_offer_edit(client_alice, alice):
    offer = OfferFactory(owner=alice, notes="original")
    data = _form_post(client_alice, offer, notes="from an old tab")
    Offer.objects.filter(pk=offer.pk).update(notes="newer edit", version=offer.version + 1)
    data["version"] = ""
    response = client_alice.post(reverse("offers:offer_edit", args=[offer.pk]), data)
    assert response.status_code in (200, 400, 409)
    assert "sent without the version" in response.content.decode()
    offer.refresh_from_db()
    assert offer.notes == "newer edit"


@pytest.mark.django_db
def test_empty_version_does_not_overwrite_a_newer_scenario_edit(client_alice, alice):
    scenario = ScenarioFactory(owner=alice, name="Original")
    data = scenario_post(scenario, name="From an old tab")
    Scenario.objects.filter(pk=scenario.pk).update(name="Newer", version=scenario.version + 1)
    data["version"] = ""
    response = client_alice.post(reverse("offers:scenario_update", args=[scenario.pk]), data)
    assert "sent without the version" in response.content.decode()
    scenario.refresh_from_db()
    assert scenario.name == "Newer"


@pytest.mark.django_db
def test_empty_version_does_not_overwrite_a_newer_round_edit(client_alice, alice):
    round_ = RoundFactory(owner=alice, signal="unknown")
    Round.objects.filter(pk=round_.pk).update(signal="hire", version=2)
    response = client_alice.post(
        reverse("interviews:round_edit", args=[round_.pk]),
        round_post(version="", signal="no_hire", scheduled_at="2026-03-09T10:00"),
    )
    assert "sent without the version" in response.content.decode()
    assert Round.objects.get().signal == "hire"
