"""Sessions end after 30 minutes idle and 12 hours in all; a logged-out cookie is dead."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts.middleware import SESSION_SEEN, SESSION_STARTED

DASHBOARD = "/"
LOGIN = "/accounts/login/"


def _login(client: Client) -> None:
    response = client.post(LOGIN, {"username": "alice", "password": "alice-password-123"})
    assert response.status_code == 302
    assert client.get(DASHBOARD).status_code == 200  # stamps the session


def _shift(client: Client, **ago: float) -> None:
    """Move the session's stored timestamps `ago` seconds into the past."""
    session = client.session
    now = time.time()
    if "started" in ago:
        session[SESSION_STARTED] = now - ago["started"]
    if "seen" in ago:
        session[SESSION_SEEN] = now - ago["seen"]
    session.save()


def _assert_sent_to_login(response) -> None:
    assert response.status_code == 302, response.status_code
    assert response["Location"].startswith(reverse("login"))


def test_limits_are_thirty_minutes_and_twelve_hours():
    assert settings.SESSION_IDLE_SECONDS == 30 * 60
    assert settings.SESSION_ABSOLUTE_SECONDS == 12 * 3600
    assert settings.SESSION_COOKIE_AGE <= settings.SESSION_ABSOLUTE_SECONDS
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


@pytest.mark.django_db
def test_login_stamps_the_session(client, alice):
    _login(client)
    session = client.session
    assert abs(session[SESSION_STARTED] - time.time()) < 60
    assert abs(session[SESSION_SEEN] - time.time()) < 60


@pytest.mark.django_db
def test_active_session_within_limits_goes_on(client, alice):
    _login(client)
    _shift(client, started=11 * 3600, seen=29 * 60)
    assert client.get(DASHBOARD).status_code == 200
    # The visit refreshed the idle stamp.
    assert time.time() - client.session[SESSION_SEEN] < 60


@pytest.mark.django_db
def test_idle_for_thirty_minutes_ends_the_session(client, alice):
    _login(client)
    old_key = client.session.session_key
    _shift(client, seen=30 * 60 + 5)
    response = client.get(DASHBOARD)
    _assert_sent_to_login(response)
    assert response["Location"] == reverse("login") + "?next=%2F"
    assert not Session.objects.filter(session_key=old_key).exists()
    _assert_sent_to_login(client.get(DASHBOARD))
    # The explanation reaches the log-in page.
    page = client.get(response["Location"])
    assert b"Your session ended" in page.content


@pytest.mark.django_db
def test_twelve_hours_in_all_ends_even_an_active_session(client, alice):
    _login(client)
    _shift(client, started=12 * 3600 + 5, seen=10)
    _assert_sent_to_login(client.get(DASHBOARD))
    _assert_sent_to_login(client.get(DASHBOARD))


@pytest.mark.django_db
def test_timeout_applies_to_posts_too_and_changes_nothing(client, alice):
    from offers.models import Preferences

    _login(client)
    _shift(client, seen=31 * 60)
    response = client.post(reverse("offers:preferences"), {"home_timezone": "UTC"})
    _assert_sent_to_login(response)
    assert not Preferences.objects.filter(owner=alice).exists()


@pytest.mark.django_db
def test_session_cookie_replayed_after_logout_is_refused(client, alice):
    _login(client)
    stolen = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert client.post(reverse("logout")).status_code == 302
    assert not Session.objects.filter(session_key=stolen).exists()

    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = stolen
    _assert_sent_to_login(replay.get(DASHBOARD))
    _assert_sent_to_login(replay.get(reverse("offers:offer_list")))


@pytest.mark.django_db
def test_logout_needs_post(client, alice):
    _login(client)
    assert client.get(reverse("logout")).status_code == 405
    assert client.get(DASHBOARD).status_code == 200


@pytest.mark.django_db
def test_login_rotates_the_session_key(client, alice):
    client.get(LOGIN)
    client.session.save()
    before = client.session.session_key
    _login(client)
    assert client.session.session_key != before
