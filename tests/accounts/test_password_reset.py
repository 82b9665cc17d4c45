"""A forgotten password: a link by email, limited as log-ins are, saying nothing of who has an account."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)")


@pytest.fixture
def alice_mail(alice):
    alice.email = "alice@example.com"
    alice.save()
    return alice


def ask(client, email, *, capture, address="10.0.0.1"):
    with capture(execute=True):
        return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_the_log_in_page_links_to_the_reset(client):
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()


def test_a_reset_link_by_email_sets_a_new_password(
    client, alice_mail, django_capture_on_commit_callbacks
):
    response = ask(client, "ALICE@example.com", capture=django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Choose a new Offerdesk password"
    assert "alice" in message.body
    link = LINK.search(message.body).group(1)
    # Django moves the token from the URL into the session, then asks for the new password.
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert form_page.context["validlink"]
    new = "a-Sturdy-new-passphrase-7"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    alice_mail.refresh_from_db()
    assert alice_mail.check_password(new)
    # The link is spent: a second use says so and changes nothing.
    again = client.get(link, follow=True)
    assert not again.context["validlink"]
    assert "does not work any more" in again.content.decode()


@pytest.mark.parametrize(
    ("timeout", "words"),
    [(3600, "1 hour"), (7200, "2 hours"), (5400, "90 minutes"), (86400 * 3, "3 days")],
)
def test_the_message_and_pages_say_how_long_the_link_works_as_set(
    client, alice_mail, settings, django_capture_on_commit_callbacks, timeout, words
):
    settings.PASSWORD_RESET_TIMEOUT = timeout
    response = ask(client, "alice@example.com", capture=django_capture_on_commit_callbacks)
    body = mail.outbox[0].body
    assert f"Open this link to do it; it works for {words}, once:" in body
    assert "an hour" not in body
    sent = client.get(response["Location"]).content.decode()
    assert f"The link works for {words}, once." in sent
    spent = client.get(
        reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "set-password"}),
        follow=True,
    )
    assert not spent.context["validlink"]
    assert f"it is older than {words}, or the password changed" in spent.content.decode()


def test_a_weak_new_password_is_refused_on_the_form(
    client, alice_mail, django_capture_on_commit_callbacks
):
    ask(client, "alice@example.com", capture=django_capture_on_commit_callbacks)
    page = client.get(LINK.search(mail.outbox[0].body).group(1), follow=True)
    response = client.post(
        page.redirect_chain[-1][0], {"new_password1": "short", "new_password2": "short"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors
    alice_mail.refresh_from_db()
    assert alice_mail.check_password("alice-password-123")


def test_an_unknown_address_gets_the_same_answer_and_no_message(
    client, alice_mail, django_capture_on_commit_callbacks
):
    known = ask(client, "alice@example.com", capture=django_capture_on_commit_callbacks)
    unknown = ask(client, "nobody@example.com", capture=django_capture_on_commit_callbacks)
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert len(mail.outbox) == 1  # alice's alone
    page = client.get(unknown["Location"]).content.decode()
    assert "If an account has this email address" in page


def test_an_email_address_gets_at_most_the_limit_of_messages(
    client, alice_mail, settings, django_capture_on_commit_callbacks
):
    settings.PASSWORD_RESET_LIMIT = 3
    for n in range(5):
        # Each from its own address: the email address's own limit is what stops them.
        response = ask(
            client,
            "alice@example.com",
            capture=django_capture_on_commit_callbacks,
            address=f"10.0.1.{n}",
        )
        assert response.status_code == 302  # the same answer as a request that is sent
        assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 3


def test_an_address_asking_for_many_accounts_is_told_to_wait(
    client, alice_mail, settings, django_capture_on_commit_callbacks
):
    settings.PASSWORD_RESET_ADDRESS_LIMIT = 4
    for n in range(4):
        response = ask(client, f"guess{n}@example.com", capture=django_capture_on_commit_callbacks)
        assert response.status_code == 302
    refused = ask(client, "alice@example.com", capture=django_capture_on_commit_callbacks)
    assert refused.status_code == 429
    assert "Try again in 15 minutes" in refused.content.decode()
    assert mail.outbox == []
    # Another address is not held back by this one.
    other = ask(
        client, "alice@example.com", capture=django_capture_on_commit_callbacks, address="10.9.9.9"
    )
    assert other.status_code == 302
    assert len(mail.outbox) == 1


def test_a_mail_server_that_is_down_does_not_break_the_page(
    client, alice_mail, settings, monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(self, messages):
        raise ConnectionRefusedError("mail server down")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", refuse)
    response = ask(client, "alice@example.com", capture=django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")


def test_a_logged_in_user_sets_their_email_after_typing_the_password(client_alice, alice, reauth):
    url = reverse("email_change")
    assert reverse("reauth") in client_alice.get(url)["Location"]
    reauth(client_alice)
    response = client_alice.post(url, {"email": "Alice@Example.COM"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "Alice@example.com"  # the domain part is case-insensitive
    bad = client_alice.post(url, {"email": "not an address"})
    assert bad.status_code == 200 and bad.context["form"].errors
    alice.refresh_from_db()
    assert alice.email == "Alice@example.com"


def test_sign_up_takes_an_optional_email(client, settings):
    from django.contrib.auth.models import User

    settings.SIGNUP_OPEN = True
    password = "a-Sturdy-passphrase-42"
    client.post(
        reverse("signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert User.objects.get(username="dora").email == "dora@example.com"


@pytest.mark.parametrize("email", ["alice@example.com", "nobody@example.com"])
def test_with_the_broker_down_the_page_says_so_for_every_address(
    client, alice_mail, settings, monkeypatch, django_capture_on_commit_callbacks, email
):
    """Not "sent" while the message is lost: a 503 for an account's address and any other alike."""
    from config import health

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "broker_status", lambda: "error")
    response = ask(client, email, capture=django_capture_on_commit_callbacks)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert b"The job queue is unreachable" in response.content
    assert mail.outbox == []


def test_with_the_broker_up_the_message_is_queued(
    client, alice_mail, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from config import health

    monkeypatch.setattr(health, "broker_status", lambda: "ok")
    response = ask(client, "alice@example.com", capture=django_capture_on_commit_callbacks)
    assert response.status_code == 302
    assert len(mail.outbox) == 1  # tasks run at once in the tests
