"""Log-in is rate limited per username and address, and per address alone with a higher limit;
the lock lifts by itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

LOGIN = "/accounts/login/"
GOOD = {"username": "alice", "password": "alice-password-123"}
BAD = {"username": "alice", "password": "wrong-password-0000"}


def _fail(client, times, **extra):
    return [client.post(LOGIN, BAD, **extra) for _ in range(times)]


def _is_locked(response) -> bool:
    return response.status_code == settings.AXES_HTTP_RESPONSE_CODE and (
        b"Too many failed log-ins" in response.content
    )


@pytest.mark.django_db
def test_settings_lock_username_and_address_with_a_cooloff():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_ADDRESS_FAILURE_LIMIT == 20
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"], "ip_address"]
    assert settings.AXES_HANDLER == "accounts.lockout.TwoLimitHandler"
    assert timedelta(hours=settings.AXES_COOLOFF_TIME) == timedelta(minutes=15)
    # Only the socket address counts: X-Forwarded-For is not trusted to pick the locked address.
    assert settings.AXES_IPWARE_META_PRECEDENCE_ORDER == ("REMOTE_ADDR",)


@pytest.mark.django_db
def test_four_failures_do_not_lock(client, alice):
    responses = _fail(client, 4)
    assert all(r.status_code == 200 for r in responses)
    response = client.post(LOGIN, GOOD)
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:dashboard")


@pytest.mark.django_db
def test_five_failures_lock_even_the_right_password(client, alice):
    _fail(client, 5)
    response = client.post(LOGIN, GOOD)
    assert _is_locked(response)
    assert "_auth_user_id" not in client.session
    # The lock does not reveal whether the password was right.
    assert _is_locked(client.post(LOGIN, BAD))


@pytest.mark.django_db
def test_forwarded_for_header_does_not_dodge_the_lock(client, alice):
    for n in range(5):
        client.post(LOGIN, BAD, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    assert _is_locked(client.post(LOGIN, GOOD, HTTP_X_FORWARDED_FOR="203.0.113.99"))


@pytest.mark.django_db
def test_lock_lifts_after_the_cooloff(client, alice):
    _fail(client, 5)
    assert _is_locked(client.post(LOGIN, GOOD))
    # Fifteen minutes and a second later (moving the stored attempts back in time).
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    response = client.post(LOGIN, GOOD)
    assert response.status_code == 302, response.content[:300]
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
def test_lock_still_holds_just_before_the_cooloff(client, alice):
    _fail(client, 5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14))
    assert _is_locked(client.post(LOGIN, GOOD))


@pytest.mark.django_db
def test_lock_with_a_tiny_cooloff_setting(client, alice, settings):
    settings.AXES_COOLOFF_TIME = timedelta(milliseconds=1)
    _fail(client, 5)
    response = client.post(LOGIN, GOOD)
    assert response.status_code == 302


@pytest.mark.django_db
def test_another_address_is_not_locked(client, alice):
    _fail(client, 5, REMOTE_ADDR="198.51.100.7")
    assert _is_locked(client.post(LOGIN, GOOD, REMOTE_ADDR="198.51.100.7"))
    response = client.post(LOGIN, GOOD, REMOTE_ADDR="198.51.100.8")
    assert response.status_code == 302


@pytest.mark.django_db
def test_another_username_from_the_same_address_is_not_locked(client, alice, bob):
    _fail(client, 5)
    response = client.post(LOGIN, {"username": "bob", "password": "bob-password-1234"})
    assert response.status_code == 302


@pytest.mark.django_db
def test_success_resets_the_failure_count(client, alice):
    _fail(client, 4)
    assert client.post(LOGIN, GOOD).status_code == 302
    client.post(reverse("logout"))
    _fail(client, 4)
    assert client.post(LOGIN, GOOD).status_code == 302


# The address alone: AXES_ADDRESS_FAILURE_LIMIT (20) failures, whatever usernames they tried.


def _spray(client, usernames, **extra):
    """Fail once for each username (a password spray: few tries per account, many accounts)."""
    for name in usernames:
        client.post(LOGIN, {"username": name, "password": "Spring2026!spray"}, **extra)


@pytest.mark.django_db
def test_an_address_spraying_many_usernames_is_locked_at_its_own_limit(client, alice):
    # Four failures for each of five names: no username reaches 5, the address reaches 20.
    names = [f"user{n}" for n in range(5)]
    for _ in range(3):
        _spray(client, names)
    assert client.post(LOGIN, GOOD).status_code == 302  # 15 failures: still open
    client.post(reverse("logout"))
    _spray(client, names)  # 20
    assert _is_locked(client.post(LOGIN, GOOD))
    assert "_auth_user_id" not in client.session
    # Another address is not locked; nor is the account itself.
    response = client.post(LOGIN, GOOD, REMOTE_ADDR="198.51.100.8")
    assert response.status_code == 302


@pytest.mark.django_db
def test_nineteen_failures_from_one_address_do_not_lock_it(client, alice, bob):
    _spray(client, [f"user{n}" for n in range(19)])
    assert client.post(LOGIN, GOOD).status_code == 302
    client.post(reverse("logout"))
    assert (
        client.post(LOGIN, {"username": "bob", "password": "bob-password-1234"}).status_code == 302
    )


@pytest.mark.django_db
def test_the_address_limit_follows_the_setting(client, alice, settings):
    settings.AXES_ADDRESS_FAILURE_LIMIT = 8
    _spray(client, [f"user{n}" for n in range(8)])
    assert _is_locked(client.post(LOGIN, GOOD))


@pytest.mark.django_db
def test_logging_in_to_ones_own_account_does_not_reset_the_address_count(client, alice, bob):
    """An attacker with an account of their own cannot wipe the address's failures with it."""
    names = [f"user{n}" for n in range(19)]
    _spray(client, names)
    assert (
        client.post(LOGIN, {"username": "bob", "password": "bob-password-1234"}).status_code == 302
    )
    client.post(reverse("logout"))
    _spray(client, ["user-last"])  # the 20th failure from this address
    assert _is_locked(client.post(LOGIN, GOOD))
    assert _is_locked(client.post(LOGIN, {"username": "bob", "password": "bob-password-1234"}))


@pytest.mark.django_db
def test_success_resets_only_that_usernames_failures(client, alice):
    _fail(client, 4)  # alice's
    _spray(client, [f"user{n}" for n in range(10)])
    assert client.post(LOGIN, GOOD).status_code == 302
    remaining = AccessAttempt.objects.values_list("username", flat=True)
    assert "alice" not in remaining and len(remaining) == 10


@pytest.mark.django_db
def test_the_address_lock_lifts_after_the_cooloff(client, alice):
    _spray(client, [f"user{n}" for n in range(20)])
    assert _is_locked(client.post(LOGIN, GOOD))
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert client.post(LOGIN, GOOD).status_code == 302
