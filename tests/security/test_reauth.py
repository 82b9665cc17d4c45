"""Deleting (or exporting) all of one's data asks for the password again."""

from __future__ import annotations

import time

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from accounts.models import Revision
from accounts.reauth import REAUTH_KEY
from tests.factories import BandFactory, OfferFactory, PreferencesFactory, ScenarioFactory
from tests.interviews.factories import RoundFactory, TeamMatchFactory

DELETE = "/accounts/delete/"
REAUTH = "/accounts/reauth/"


def _owned_rows(user_pk: int) -> dict[str, int]:
    """Count the rows of every model with an owner that belong to `user_pk`."""
    counts = {}
    for model in apps.get_models():
        if any(f.name == "owner" for f in model._meta.get_fields()):
            counts[model._meta.label] = model.objects.filter(owner_id=user_pk).count()
    return counts


def _seed(user) -> None:
    offer = OfferFactory(owner=user)
    ScenarioFactory(owner=user, offer=offer)
    PreferencesFactory(owner=user)
    BandFactory(owner=user)
    RoundFactory(owner=user)
    TeamMatchFactory(owner=user)
    Revision.objects.create(
        owner=user,
        content_type=ContentType.objects.get_for_model(offer),
        object_id=offer.pk,
        object_repr="x",
        action=Revision.Action.CREATED,
        snapshot=[],
    )


@pytest.mark.django_db
def test_delete_without_recent_password_goes_to_reauth(client_alice, alice):
    for method in ("get", "post"):
        response = getattr(client_alice, method)(DELETE)
        assert response.status_code == 302
        assert response["Location"] == REAUTH + "?next=%2Faccounts%2Fdelete%2F"
    assert User.objects.filter(pk=alice.pk).exists()


@pytest.mark.django_db
def test_wrong_password_is_a_form_error(client_alice, alice):
    response = client_alice.post(REAUTH, {"password": "not-my-password", "next": DELETE})
    assert response.status_code == 200
    assert b"That is not your password." in response.content
    assert REAUTH_KEY not in client_alice.session
    assert client_alice.get(DELETE).status_code == 302


@pytest.mark.django_db
def test_right_password_then_post_deletes_the_user_and_all_their_rows(client_alice, alice, bob):
    _seed(alice)
    _seed(bob)
    assert sum(_owned_rows(alice.pk).values()) >= 7
    bob_before = _owned_rows(bob.pk)

    response = client_alice.post(REAUTH, {"password": "alice-password-123", "next": DELETE})
    assert response.status_code == 302
    assert response["Location"] == DELETE
    page = client_alice.get(DELETE)
    assert page.status_code == 200
    assert b"Delete everything" in page.content
    assert User.objects.filter(pk=alice.pk).exists()  # GET deletes nothing

    response = client_alice.post(DELETE)
    assert response.status_code == 302
    assert response["Location"] == reverse("login")
    assert not User.objects.filter(pk=alice.pk).exists()
    leftovers = {k: v for k, v in _owned_rows(alice.pk).items() if v}
    assert not leftovers, leftovers
    assert _owned_rows(bob.pk) == bob_before
    # Logged out: the old session can do nothing.
    assert client_alice.get("/").status_code == 302


@pytest.mark.django_db
def test_reauth_expires_after_reauth_seconds(client_alice, alice, settings):
    client_alice.post(REAUTH, {"password": "alice-password-123", "next": DELETE})
    session = client_alice.session
    session[REAUTH_KEY] = time.time() - settings.REAUTH_SECONDS - 1
    session.save()
    assert client_alice.post(DELETE).status_code == 302
    assert User.objects.filter(pk=alice.pk).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_reauth_does_not_redirect_off_site(client_alice, target):
    response = client_alice.post(REAUTH, {"password": "alice-password-123", "next": target})
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_password_guessing_through_reauth_is_locked_out(client_alice, alice):
    """A stolen session cannot be used to brute-force the password at the re-auth prompt."""
    for _ in range(5):
        client_alice.post(REAUTH, {"password": "guess-guess-guess", "next": DELETE})
    response = client_alice.post(REAUTH, {"password": "alice-password-123", "next": DELETE})
    assert response.status_code == 429
    assert REAUTH_KEY not in client_alice.session
    assert User.objects.filter(pk=alice.pk).exists()


@pytest.mark.django_db
def test_another_users_password_does_not_reauthenticate(client_alice, alice, bob):
    response = client_alice.post(REAUTH, {"password": "bob-password-1234", "next": DELETE})
    assert response.status_code == 200
    assert REAUTH_KEY not in client_alice.session
