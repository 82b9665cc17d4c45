from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    expected = "ok" if os.environ.get("CELERY_BROKER_URL") else "eager"
    assert body["broker"] == expected
    assert response["Cache-Control"].startswith("no-store")


@pytest.mark.django_db
def test_healthz_is_503_when_database_is_down(client, monkeypatch):
    from config import health

    def broken() -> str:
        raise OperationalError("down")

    monkeypatch.setattr(health.connection, "cursor", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error"


@pytest.mark.django_db
def test_pages_answer_clean_503_when_database_errors(client_alice, monkeypatch):
    from offers import views

    def boom(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(views, "dashboard_context", boom, raising=False)
    monkeypatch.setattr(views, "render", boom)
    response = client_alice.get("/")
    assert response.status_code == 503
    assert b"unreachable" in response.content


def test_healthz_is_503_with_unreachable_postgres():
    """A server configured for a PostgreSQL that is not there answers 503, not 500."""
    code = (
        "import django, json; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz');"
        "print(json.dumps({'status': r.status_code, 'body': r.json()}))"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DB_CONNECT_TIMEOUT": "1",
        "ALLOWED_HOSTS": "testserver",
    }
    env.pop("CELERY_BROKER_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["status"] == 503
    assert result["body"]["database"] == "error"


def test_check_deploy_has_no_warnings():
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "x" * 64 + "-production-secret-key-value",
        "ALLOWED_HOSTS": "offerdesk.example",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests' conftest only
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout
