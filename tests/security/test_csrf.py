"""Every state-changing request needs POST with a CSRF token."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.security.helpers import offer_post, route_urls
from tests.test_url_matrix import db_snapshot


@pytest.fixture
def csrf_client(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


@pytest.mark.django_db
def test_post_without_token_is_403_everywhere_and_changes_nothing(csrf_client, alice):
    urls = route_urls(alice)
    assert len(urls) > 20
    before = db_snapshot()
    wrong = []
    for name, url in urls:
        data = {"confirm": "1", **offer_post()}
        response = csrf_client.post(url, data)
        if response.status_code != 403:
            wrong.append((name, response.status_code))
    assert not wrong, f"POST without CSRF token not refused: {wrong}"
    assert db_snapshot() == before
    # Still logged in: the refused POSTs did not log the user out either.
    assert csrf_client.get(reverse("offers:dashboard")).status_code == 200


@pytest.mark.django_db
def test_wrong_token_in_header_or_body_is_403(csrf_client, alice):
    csrf_client.get(reverse("offers:offer_create"))
    before = db_snapshot()
    url = reverse("offers:offer_create")
    assert csrf_client.post(url, offer_post(csrfmiddlewaretoken="x" * 64)).status_code == 403
    assert csrf_client.post(url, offer_post(), HTTP_X_CSRFTOKEN="y" * 32).status_code == 403
    assert db_snapshot() == before


@pytest.mark.django_db
def test_token_from_another_session_is_refused(csrf_client, bob):
    other = Client(enforce_csrf_checks=True)
    other.force_login(bob)
    other.get(reverse("offers:offer_create"))
    bobs_token = other.cookies["csrftoken"].value
    response = csrf_client.post(
        reverse("offers:offer_create"), offer_post(csrfmiddlewaretoken=bobs_token)
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_cross_origin_post_with_a_valid_token_is_refused_over_https(csrf_client):
    csrf_client.get(reverse("offers:offer_create"), secure=True)
    token = csrf_client.cookies["csrftoken"].value
    response = csrf_client.post(
        reverse("offers:offer_create"),
        offer_post(csrfmiddlewaretoken=token),
        secure=True,
        HTTP_ORIGIN="https://evil.example",
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_post_with_the_token_works(csrf_client, alice):
    from offers.models import Offer

    csrf_client.get(reverse("offers:offer_create"))
    token = csrf_client.cookies["csrftoken"].value
    response = csrf_client.post(
        reverse("offers:offer_create"), offer_post(csrfmiddlewaretoken=token)
    )
    assert response.status_code == 302
    assert Offer.objects.filter(owner=alice).count() == 1


@pytest.mark.django_db
def test_login_and_signup_need_the_token_too(alice):
    anon = Client(enforce_csrf_checks=True)
    login = anon.post(reverse("login"), {"username": "alice", "password": "alice-password-123"})
    assert login.status_code == 403
    signup = anon.post(
        reverse("signup"),
        {"username": "z", "password1": "a-long-password-1", "password2": "a-long-password-1"},
    )
    assert signup.status_code == 403


@pytest.mark.django_db
def test_the_token_in_a_page_is_masked_anew_in_each_response(csrf_client, alice):
    """What makes HTTP compression safe here against BREACH (deploy/Caddyfile's `encode`): a
    page's CSRF token is the session's secret under a fresh random mask, so no secret repeats
    byte for byte across compressed responses for an attacker to guess at (docs/security.md)."""
    url = reverse("offers:offer_create")
    pages = [csrf_client.get(url).content.decode() for _ in range(3)]
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', p).group(1) for p in pages]
    assert len(set(tokens)) == 3  # never the same bytes twice
    secret = csrf_client.cookies["csrftoken"].value
    assert all(secret not in page for page in pages)  # the unmasked secret is in no page
    for token in tokens:  # and each masked token is accepted
        response = csrf_client.post(url, {"csrfmiddlewaretoken": token, "name": ""})
        assert response.status_code != 403
