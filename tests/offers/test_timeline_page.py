"""The timeline page across companies, and the demo's log and timeline."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from offers.models import NegotiationEntry, Offer
from tests.factories import CompanyFactory, OfferFactory, PreferencesFactory
from tests.interviews.factories import ProcessFactory, RoundFactory

pytestmark = pytest.mark.django_db


def make_data(user, n):
    """n offers each with a deadline in 5 days, n other processes each with an onsite in 12."""
    PreferencesFactory(owner=user, home_timezone="Asia/Taipei")
    today = timezone.localdate()
    # 10:00 and 12:00 in Taipei, twelve days on: one onsite.
    at = dt.datetime.combine(today + dt.timedelta(days=12), dt.time(2), tzinfo=dt.UTC)
    for i in range(n):
        company = CompanyFactory(owner=user, name=f"Offering {i}")
        OfferFactory(
            owner=user,
            company=company,
            package__company=company,
            deadline=today + dt.timedelta(days=5),
            status=Offer.Status.RECEIVED,
        )
        process = ProcessFactory(
            owner=user,
            company=CompanyFactory(owner=user, name=f"Interviewing {i}"),
            deadline=today + dt.timedelta(days=20),
            stage="phone_screen",
        )
        for hour in (0, 2):
            RoundFactory(owner=user, process=process, scheduled_at=at + dt.timedelta(hours=hour))


@pytest.mark.parametrize("n", [1, 5])
def test_timeline_page_queries(client_alice, alice, n, django_assert_num_queries):
    make_data(alice, n)
    url = reverse("offers:timeline")
    assert client_alice.get(url).status_code == 200
    # session, user, savepoint and release; preferences, the options, the running processes
    # with deadlines, the upcoming rounds with their processes, the deadline asks waiting
    with django_assert_num_queries(4 + 5):
        response = client_alice.get(url)
    assert len(response.context["asks"]) == n
    assert len(response.context["events"]) == 3 * n


def test_timeline_shows_the_ask_and_stays_private(client, alice, bob):
    make_data(alice, 1)
    client.force_login(alice)
    body = client.get(reverse("offers:timeline")).content.decode()
    assert "Ask Offering 0 to extend its deadline" in body
    assert "after the Interviewing 0 onsite" in body
    client.force_login(bob)
    body = client.get(reverse("offers:timeline")).content.decode()
    assert "Offering 0" not in body
    assert "Nothing to align" in body


def test_the_dashboard_links_to_the_timeline(client_alice, alice):
    make_data(alice, 1)
    assert (
        reverse("offers:timeline") in client_alice.get(reverse("offers:dashboard")).content.decode()
    )


# The demo ---------------------------------------------------------------------------------


@pytest.fixture
def demo_client(client, demo_user):
    client.post(reverse("login"), {"username": "demo", "password": "offerdesk-demo"})
    return client


def test_demo_log_shows_metas_revised_offer_closing_the_gap(demo_client):
    meta = Offer.objects.get(owner__username="demo", name__startswith="Meta")
    releveled = NegotiationEntry.objects.get(offer=meta, topic="level")
    assert releveled.outcome == "refused"
    assert (releveled.offer_version_before, releveled.offer_version_after) == (1, 2)
    assert releveled.value_after > releveled.value_before
    assert meta.package.grants.get().value == 720000
    # The board's headline now is the value after the revised offer.
    page = demo_client.get(reverse("offers:negotiation", args=[meta.pk]))
    assert page.context["ev"].value == pytest.approx(float(releveled.value_after), abs=0.01)
    log = demo_client.get(reverse("offers:negotiation_log", args=[meta.pk])).content.decode()
    change = releveled.value_after - releveled.value_before
    assert (
        f"USD {releveled.value_before:,.0f} → USD {releveled.value_after:,.0f} "
        f"(+USD {change:,.0f})" in log
    )
    assert "stock is raised to the E6 band with VP approval" in log
    history = demo_client.get(reverse("offers:offer_history", args=[meta.pk])).content.decode()
    assert f'id="revision-{releveled.revision_before_id}"' in history


def test_demo_timeline_asks_meta_to_wait_for_the_tiktok_onsite(demo_client):
    response = demo_client.get(reverse("offers:timeline"))
    asks = response.context["asks"]
    meta = [(ask, asked) for ask, offer, asked in asks if offer.name.startswith("Meta")]
    (ask, asked), *_ = meta
    assert ask.after.company == "TikTok"
    assert ask.after.kind == "onsite"
    assert ask.deadline < ask.after.day < ask.proposed
    assert asked is not None and asked.topic == "deadline"  # the log's pending ask
    body = response.content.decode()
    assert "Ask Meta to extend its deadline" in body
    assert "after the TikTok onsite" in body
    # Nobody else is asked to wait: Google's and the transfer's deadlines come after the onsite.
    assert len(asks) == 1


def test_an_accepted_extension_takes_the_ask_off_the_timeline(client_alice, alice):
    from offers.services_negotiation import negotiation_entry_create

    make_data(alice, 1)
    offer = Offer.objects.get(owner=alice)
    (ask, _offer, _asked), *_ = client_alice.get(reverse("offers:timeline")).context["asks"]
    negotiation_entry_create(
        user=alice,
        offer=offer,
        data={
            "asked_on": timezone.localdate(),
            "topic": "deadline",
            "ask": ask.script,
            "outcome": "accepted",
            "revised_deadline": ask.proposed,
        },
    )
    assert client_alice.get(reverse("offers:timeline")).context["asks"] == []
