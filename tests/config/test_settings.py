"""Settings fail closed: DEBUG off unless asked for, a secret key required, sign-up closable."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests import fresh_python

ROOT = Path(__file__).resolve().parents[2]
READ = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps({'DEBUG': s.DEBUG, 'SIGNUP_OPEN': s.SIGNUP_OPEN,"
    " 'OPTIONS': s.DATABASES['default'].get('OPTIONS', {}),"
    " 'ENGINE': s.DATABASES['default']['ENGINE'], 'NAME': str(s.DATABASES['default']['NAME'])}))"
)


def run_settings(code: str = READ, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `code` under config.settings with only the given Offerdesk variables set."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    for name in (
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "CACHE_URL",
        "CACHE_KEY_PREFIX",
        "CELERY_VISIBILITY_TIMEOUT",
        "SIGNUP_OPEN",
        "SECURE_SSL",
        "TRUST_X_FORWARDED_PROTO",
    ):
        full_env.pop(name, None)
    full_env.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return fresh_python.run(["-c", code], cwd=ROOT, env=full_env, timeout=60)


def read_settings(**env: str) -> dict:
    out = run_settings(**env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_without_debug_or_secret_key_the_app_refuses_to_start():
    out = run_settings()
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr
    assert "SECRET_KEY is not set" in out.stderr


def test_debug_zero_without_secret_key_refuses_to_start():
    out = run_settings(DEBUG="0")
    assert out.returncode != 0
    assert "SECRET_KEY is not set" in out.stderr


def test_manage_py_refuses_to_start_without_secret_key():
    out = run_settings(
        "import runpy, sys; sys.argv = ['manage.py', 'check'];"
        " runpy.run_path('manage.py', run_name='__main__')",
        DEBUG="0",
    )
    assert out.returncode != 0
    assert "SECRET_KEY is not set" in out.stderr


def test_debug_is_off_unless_asked_for():
    assert read_settings(SECRET_KEY="k" * 60)["DEBUG"] is False
    assert read_settings(DEBUG="1")["DEBUG"] is True


def test_signup_is_open_by_default_only_with_debug():
    assert read_settings(DEBUG="1")["SIGNUP_OPEN"] is True
    assert read_settings(SECRET_KEY="k" * 60)["SIGNUP_OPEN"] is False
    assert read_settings(SECRET_KEY="k" * 60, SIGNUP_OPEN="1")["SIGNUP_OPEN"] is True
    assert read_settings(DEBUG="1", SIGNUP_OPEN="0")["SIGNUP_OPEN"] is False


def test_sqlite_database_url_connects(tmp_path):
    path = tmp_path / "offerdesk.sqlite3"
    code = READ.replace(
        "print(",
        "from django.db import connection;connection.cursor().execute('select 1');print(",
        1,
    )
    out = run_settings(code, DEBUG="1", DATABASE_URL=f"sqlite:///{path}")
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["ENGINE"] == "django.db.backends.sqlite3"
    assert found["NAME"] == str(path)
    assert "connect_timeout" not in found["OPTIONS"]
    assert found["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert path.exists()


def test_postgres_database_url_keeps_its_connect_timeout():
    found = read_settings(
        DEBUG="1", DATABASE_URL="postgres://u@127.0.0.1:5432/x", DB_CONNECT_TIMEOUT="7"
    )
    assert found["ENGINE"] == "django.db.backends.postgresql"
    assert found["OPTIONS"]["connect_timeout"] == 7


@pytest.mark.django_db
def test_closed_signup_refuses_and_creates_nobody(client, settings):
    settings.SIGNUP_OPEN = False
    page = client.get(reverse("signup"))
    assert page.status_code == 403
    assert "Sign-up is closed" in page.content.decode()
    response = client.post(
        reverse("signup"),
        {"username": "mallory", "password1": "a-Sturdy-pass-42", "password2": "a-Sturdy-pass-42"},
    )
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="mallory").exists()
    login = client.get(reverse("login")).content.decode()
    assert reverse("signup") not in login


@pytest.mark.django_db
def test_open_signup_is_linked_from_login(client, settings):
    settings.SIGNUP_OPEN = True
    assert client.get(reverse("signup")).status_code == 200
    assert reverse("signup") in client.get(reverse("login")).content.decode()


@pytest.mark.django_db
def test_seed_demo_refuses_the_public_password_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        call_command("seed_demo")
    assert not get_user_model().objects.filter(username="demo").exists()


READ_PROXY = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps(s.SECURE_PROXY_SSL_HEADER))"
)


def test_x_forwarded_proto_is_trusted_only_when_asked_for():
    """Without a proxy that sets it, the header is the client's word: it must not mean HTTPS."""
    for env, expected in (
        ({}, None),
        ({"TRUST_X_FORWARDED_PROTO": "0"}, None),
        ({"TRUST_X_FORWARDED_PROTO": "1"}, ["HTTP_X_FORWARDED_PROTO", "https"]),
    ):
        out = run_settings(READ_PROXY, SECRET_KEY="k" * 60, **env)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout.strip().splitlines()[-1]) == expected


@pytest.mark.django_db
def test_a_forwarded_proto_header_is_not_https_by_default(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = []
    response = client.get(reverse("login"), HTTP_X_FORWARDED_PROTO="https")
    assert response.status_code == 301
    assert response["Location"].startswith("https://")
