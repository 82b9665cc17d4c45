"""`check --deploy` warns when a server was given no way to send mail (issue 37).

Without EMAIL_URL or EMAIL_HOST the console backend writes each password reset link, in clear,
to the worker's log; before this check nothing said so.
"""

from __future__ import annotations

import os
from pathlib import Path

from config.checks import email_configured_check, site_url_check
from tests import fresh_python

ROOT = Path(__file__).resolve().parents[2]


def test_debug_off_and_no_email_backend_is_a_warning(settings):
    settings.DEBUG = False
    settings.EMAIL_CONFIGURED = False
    warnings = email_configured_check()
    assert [w.id for w in warnings] == ["offerdesk.W001"]
    assert "password reset links" in warnings[0].msg
    assert "EMAIL_URL" in warnings[0].hint


def test_a_chosen_backend_or_debug_says_nothing(settings):
    settings.DEBUG, settings.EMAIL_CONFIGURED = False, True
    assert email_configured_check() == []
    settings.DEBUG, settings.EMAIL_CONFIGURED = True, False
    assert email_configured_check() == []


def _check_deploy(**extra: str):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("EMAIL_URL", "EMAIL_HOST", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": "x" * 64 + "-production-secret-key-value",
            "ALLOWED_HOSTS": "offerdesk.example",
            "SITE_URL": "https://offerdesk.example",
            **extra,
        }
    )
    return fresh_python.run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_check_deploy_fails_at_warning_level_without_email():
    out = _check_deploy()
    assert out.returncode != 0
    assert "offerdesk.W001" in out.stdout + out.stderr


def test_check_deploy_takes_console_when_it_is_asked_for():
    out = _check_deploy(EMAIL_URL="console://")
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_server_whose_mail_links_to_localhost_is_warned(settings):
    """Reminders link to SITE_URL: left at its default, every link opens the reader's machine."""
    settings.DEBUG, settings.SITE_URL = False, "http://127.0.0.1:8000"
    warnings = site_url_check()
    assert [w.id for w in warnings] == ["offerdesk.W002"]
    assert "http://127.0.0.1:8000" in warnings[0].msg and "SITE_URL" in warnings[0].hint
    settings.SITE_URL = "https://offers.example.org"
    assert site_url_check() == []
    settings.DEBUG, settings.SITE_URL = True, "http://localhost:8000"
    assert site_url_check() == []


def test_check_deploy_fails_at_warning_level_with_the_default_site_url():
    out = _check_deploy(EMAIL_URL="console://", SITE_URL="")
    assert out.returncode != 0
    assert "offerdesk.W002" in out.stdout + out.stderr
