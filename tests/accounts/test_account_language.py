"""The account keeps its language: the header's switch stores it, log-in and mail follow it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import AccountSettings
from accounts.selectors import account_language

pytestmark = pytest.mark.django_db


def switch(client, language, next_url="/"):
    return client.post(reverse("set_language"), {"language": language, "next": next_url})


def test_the_switch_stores_the_language_on_the_account(client_alice, alice):
    response = switch(client_alice, "zh-hant")
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hant"
    assert account_language(alice) == "zh-hant"
    switch(client_alice, "en")
    assert AccountSettings.objects.get(user=alice).language == "en"


def test_the_switch_keeps_djangos_safe_next_and_refuses_unknown_languages(client_alice, alice):
    assert switch(client_alice, "zh-hant", "https://evil.example/")["Location"] == "/"
    switch(client_alice, "xx")
    assert account_language(alice) == "zh-hant"


def test_an_anonymous_switch_stores_nothing(client):
    assert switch(client, "zh-hant").status_code == 302
    assert not AccountSettings.objects.exists()


def test_a_new_session_after_log_in_is_in_the_stored_language(alice):
    AccountSettings.objects.create(user=alice, language="zh-hant")
    device = Client()  # a new device: no language cookie, an English browser
    before = device.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en")
    assert before["Content-Language"] == "en"
    logged_in = device.post(
        reverse("login"), {"username": "alice", "password": "alice-password-123"}
    )
    assert logged_in.status_code == 302
    page = device.get(reverse("offers:dashboard"), HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "zh-hant"
    assert '<html lang="zh-Hant">' in page.content.decode()


def test_a_reset_mail_is_in_the_accounts_language_from_an_english_page(
    client, alice, django_capture_on_commit_callbacks
):
    alice.email = "alice@example.com"
    alice.save()
    AccountSettings.objects.create(user=alice, language="zh-hant")
    page = client.get(reverse("password_reset"), HTTP_ACCEPT_LANGUAGE="en")
    assert page["Content-Language"] == "en"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("password_reset"), {"email": "alice@example.com"}, HTTP_ACCEPT_LANGUAGE="en"
        )
    (message,) = mail.outbox
    assert message.subject == "設定新的 Offerdesk 密碼"
    assert "http://testserver/accounts/password/reset/" in message.body
    assert "Hello" not in message.body
