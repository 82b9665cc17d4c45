"""The ledger CSV and the calendar download ask for the password like every export (issue 37).

The private calendar feed stays token-only (a calendar app cannot type a password); the
re-authentication prompt gives the session a new key.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import reverse

from accounts.reauth import REAUTH_KEY
from tests.factories import OfferFactory, PreferencesFactory
from tests.interviews.factories import RoundFactory

pytestmark = pytest.mark.django_db
REAUTH = "/accounts/reauth/"
PASSWORD = "alice-password-123"


def _to_reauth(url: str) -> str:
    return f"{REAUTH}?{urlencode({'next': url})}"


@pytest.fixture
def offer(alice):
    PreferencesFactory(owner=alice)
    return OfferFactory(owner=alice)


def test_the_ledger_csv_without_a_recent_password_goes_to_the_prompt(client_alice, offer):
    url = reverse("offers:offer_ledger_csv", args=[offer.pk])
    response = client_alice.get(url)
    assert response.status_code == 302 and response["Location"] == _to_reauth(url)


def test_the_ledger_csv_after_the_password(client_alice_reauth, offer):
    response = client_alice_reauth.get(reverse("offers:offer_ledger_csv", args=[offer.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="offer-{offer.pk}-ledger.csv"'


def test_another_user_s_ledger_is_404_with_or_without_the_password(charlie, offer, reauth):
    other = Client()
    other.force_login(charlie)
    url = reverse("offers:offer_ledger_csv", args=[offer.pk])
    assert other.get(url).status_code == 404  # looked up before the prompt: nothing to learn
    assert reauth(other).get(url).status_code == 404


def test_the_calendar_download_without_a_recent_password_goes_to_the_prompt(client_alice, alice):
    RoundFactory(owner=alice)
    url = reverse("interviews:calendar")
    response = client_alice.get(url)
    assert response.status_code == 302 and response["Location"] == _to_reauth(url)


def test_the_calendar_download_after_the_password(client_alice_reauth):
    response = client_alice_reauth.get(reverse("interviews:calendar"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"


def test_the_prompt_then_the_download(client_alice, offer):
    url = reverse("offers:offer_ledger_csv", args=[offer.pk])
    response = client_alice.post(REAUTH, {"password": PASSWORD, "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert client_alice.get(url).status_code == 200


def test_the_calendar_feed_stays_token_only(client, alice):
    """The subscription URL is for calendar apps: no session, no password prompt."""
    from accounts.services import calendar_feed_reset

    token = calendar_feed_reset(user=alice)
    response = client.get(reverse("interviews:calendar_feed", args=[token]))
    assert response.status_code == 200


def test_reauthentication_gives_the_session_a_new_key(client_alice):
    before = client_alice.session.session_key
    response = client_alice.post(REAUTH, {"password": PASSWORD, "next": "/"})
    assert response.status_code == 302
    after = client_alice.session.session_key
    assert after != before
    assert REAUTH_KEY in client_alice.session  # the new session carries the stamp
    assert client_alice.get(reverse("offers:dashboard")).status_code == 200  # still logged in
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=before).exists()  # the old key is gone


def test_a_wrong_password_keeps_the_key(client_alice):
    before = client_alice.session.session_key
    response = client_alice.post(REAUTH, {"password": "wrong", "next": "/"})
    assert response.status_code == 200
    assert client_alice.session.session_key == before
