"""EMAIL_URL gives Django's email settings; without it, mail goes to the console."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.email import email_settings

SMTP = "django.core.mail.backends.smtp.EmailBackend"


def test_no_url_is_the_console_and_a_host_is_smtp():
    assert email_settings("") == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    assert email_settings("", host="mail.example.com") == {"EMAIL_BACKEND": SMTP}


def test_submission_with_starttls_and_a_quoted_user():
    found = email_settings("smtp+tls://me%40example.com:p%3Ass@mail.example.com")
    assert found == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.com",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "me@example.com",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }


def test_smtps_and_plain_smtp_ports():
    assert email_settings("smtps://u:p@h")["EMAIL_PORT"] == 465
    assert email_settings("smtps://u:p@h")["EMAIL_USE_SSL"] is True
    plain = email_settings("smtp://relay:2525")
    assert (plain["EMAIL_PORT"], plain["EMAIL_USE_TLS"], plain["EMAIL_HOST_USER"]) == (
        2525,
        False,
        "",
    )


def test_locmem_for_tests():
    assert email_settings("locmem://") == {
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"
    }


@pytest.mark.parametrize("url", ["http://mail.example.com", "smtp://", "mailgun://key@x"])
def test_a_url_it_cannot_use_is_refused_at_start_up(url):
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        email_settings(url)
