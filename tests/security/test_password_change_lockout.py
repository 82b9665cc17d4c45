"""The password-change form counts wrong old passwords with the log-in lock-out (issue 18)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import RequestFactory, override_settings
from django.utils import timezone

from accounts.client_ip import client_ip
from tests import fresh_python

PASSWORD = "/accounts/password/"
LOGIN = "/accounts/login/"
GOOD_LOGIN = {"username": "alice", "password": "alice-password-123"}
BAD_LOGIN = {"username": "alice", "password": "wrong-password-0000"}
NEW = "a-brand-new-password-42"


def _change(old: str) -> dict[str, str]:
    return {"old_password": old, "new_password1": NEW, "new_password2": NEW}


def _locked(response) -> bool:
    return response.status_code == settings.AXES_HTTP_RESPONSE_CODE


@pytest.mark.django_db
def test_password_change_wrong_old_password_is_a_form_error(client_alice, alice):
    response = client_alice.post(PASSWORD, _change("not-my-password-1"))
    assert response.status_code == 200
    assert b"old password was entered incorrectly" in response.content
    alice.refresh_from_db()
    assert alice.check_password("alice-password-123")


@pytest.mark.django_db
def test_password_change_guessing_is_locked_out(client_alice, alice):
    """20 wrong old passwords then the right one used to succeed; now the 6th try is locked."""
    for _ in range(4):
        assert client_alice.post(PASSWORD, _change("guess-guess-guess")).status_code == 200
    assert _locked(client_alice.post(PASSWORD, _change("guess-guess-guess")))
    response = client_alice.post(PASSWORD, _change("alice-password-123"))
    assert _locked(response)
    alice.refresh_from_db()
    assert alice.check_password("alice-password-123")
    assert not alice.check_password(NEW)


@pytest.mark.django_db
def test_password_change_failures_count_towards_the_login_lockout(client, client_alice, alice):
    for _ in range(3):
        client_alice.post(PASSWORD, _change("guess-guess-guess"))
    client_alice.post("/accounts/logout/")
    for _ in range(2):
        client.post(LOGIN, BAD_LOGIN)
    assert _locked(client.post(LOGIN, GOOD_LOGIN))


@pytest.mark.django_db
def test_password_change_with_the_right_old_password_works(client_alice, alice):
    response = client_alice.post(PASSWORD, _change("alice-password-123"))
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW)


@pytest.mark.django_db
def test_lockout_cooloff_does_not_restart_on_failures_during_lockout(client, alice):
    assert settings.AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT is False
    for _ in range(5):
        client.post(LOGIN, BAD_LOGIN)
    locked_at = timezone.now() - timedelta(minutes=14)
    AccessAttempt.objects.update(attempt_time=locked_at)
    # Someone keeps trying during the lock-out: every try is refused ...
    for _ in range(5):
        assert _locked(client.post(LOGIN, BAD_LOGIN))
    # ... and none of them moves the start of the cool-off,
    assert list(AccessAttempt.objects.values_list("attempt_time", flat=True)) == [locked_at]
    # so the lock lifts 15 minutes after the failure that set it.
    AccessAttempt.objects.update(attempt_time=locked_at - timedelta(minutes=1, seconds=1))
    response = client.post(LOGIN, GOOD_LOGIN)
    assert response.status_code == 302, response.content[:300]


def test_proxy_count_is_read_from_the_environment():

    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.AXES_IPWARE_PROXY_COUNT)"
    )
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "AXES_IPWARE_PROXY_COUNT": "2"}
    import os

    out = fresh_python.run(
        ["-c", code],
        env={**os.environ, **env},
        check=True,
        cwd=settings.BASE_DIR,
    )
    assert out.stdout.strip() == "2"
    assert settings.AXES_CLIENT_IP_CALLABLE == "accounts.client_ip.client_ip"


def test_without_a_proxy_only_remote_addr_counts():
    request = RequestFactory().get(
        "/", REMOTE_ADDR="198.51.100.1", HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert client_ip(request) == "198.51.100.1"


@override_settings(AXES_IPWARE_PROXY_COUNT=1)
def test_behind_one_proxy_the_client_is_the_right_most_forwarded_address():
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9"
    )
    assert client_ip(request) == "203.0.113.9"  # 6.6.6.6 was written by the client


@override_settings(AXES_IPWARE_PROXY_COUNT=2)
def test_behind_two_proxies_a_short_header_falls_back_to_the_socket():
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == "10.0.0.2"


@pytest.mark.django_db
@override_settings(AXES_IPWARE_PROXY_COUNT=1)
def test_behind_a_proxy_users_do_not_share_one_lock(client, alice):
    for _ in range(5):
        client.post(LOGIN, BAD_LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert _locked(
        client.post(LOGIN, GOOD_LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.1")
    )
    other = client.post(
        LOGIN, GOOD_LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.2"
    )
    assert other.status_code == 302
