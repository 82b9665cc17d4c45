"""Passwords: at least 12 characters, no composition rules, common passwords refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

SIGNUP = "/accounts/signup/"


def _signup(client, password, username="newperson"):
    return client.post(SIGNUP, {"username": username, "password1": password, "password2": password})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "password",
    [
        "correcthorsebatterystaple",  # lower-case letters only: no composition rules
        "a" + "b" * 11,  # exactly 12 characters
        "歡迎來到台北的新工作機會喔",  # non-ASCII is fine
        "twelve chars with spaces",
    ],
)
def test_long_passwords_without_composition_rules_are_accepted(client, password):
    response = _signup(client, password)
    assert response.status_code == 302, response.content.decode()[:500]
    assert response["Location"] == reverse("offers:dashboard")
    user = User.objects.get(username="newperson")
    assert user.check_password(password)
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("password", ["short", "elevenchars", "Aa1!Aa1!Aa1"])
def test_passwords_under_twelve_characters_are_refused(client, password):
    response = _signup(client, password)
    assert response.status_code == 200
    assert b"at least 12 characters" in response.content
    assert not User.objects.filter(username="newperson").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "password", ["password1234", "qwerty123456", "Q1W2E3R4T5Y6", "123456789123"]
)
def test_common_passwords_are_refused(client, password):
    response = _signup(client, password)
    assert response.status_code == 200
    assert b"too common" in response.content
    assert not User.objects.filter(username="newperson").exists()


@pytest.mark.django_db
def test_password_like_the_username_is_refused(client):
    response = _signup(client, "mallory-the-engineer", username="mallory-the-engineer")
    assert response.status_code == 200
    assert b"too similar" in response.content


@pytest.mark.django_db
def test_mismatched_confirmation_is_refused(client):
    response = client.post(
        SIGNUP,
        {"username": "x1", "password1": "a-fine-password-1", "password2": "a-fine-password-2"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="x1").exists()


@pytest.mark.django_db
def test_password_change_applies_the_same_rules(client_alice, alice):
    response = client_alice.post(
        reverse("password_change"),
        {
            "old_password": "alice-password-123",
            "new_password1": "short",
            "new_password2": "short",
        },
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password("alice-password-123")


@pytest.mark.django_db
def test_password_is_stored_hashed(client):
    _signup(client, "a-long-enough-secret")
    stored = User.objects.get(username="newperson").password
    assert "a-long-enough-secret" not in stored
    assert "$" in stored
