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


@pytest.mark.django_db
def test_healthz_without_a_broker_says_the_worker_is_eager(client, settings):
    settings.CELERY_BROKER_URL = ""
    body = client.get("/healthz").json()
    assert body["broker"] == "eager" and body["worker"] == "eager"


@pytest.mark.django_db
def test_healthz_pings_a_worker_once_within_the_cache_time(client, settings, monkeypatch):
    """No network: the broker check and the ping are stand-ins; the answer is cached."""
    from config import health
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    settings.HEALTH_WORKER_TIMEOUT = 0.5
    monkeypatch.setattr(health, "broker_status", lambda: "ok")
    pings = []

    def ping(timeout):
        pings.append(timeout)
        return [{"celery@host": {"ok": "pong"}}]

    monkeypatch.setattr(app.control, "ping", ping)
    assert client.get("/healthz").json()["worker"] == "ok"
    assert client.get("/healthz").json()["worker"] == "ok"
    assert pings == [0.5]  # the second answer came from the cache


@pytest.mark.django_db
def test_healthz_reports_no_worker_without_failing(client, settings, monkeypatch):
    from config import health
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "broker_status", lambda: "ok")
    monkeypatch.setattr(app.control, "ping", lambda timeout: [])
    response = client.get("/healthz")
    assert response.status_code == 200  # pages still work; tasks wait in the queue
    assert response.json()["worker"] == "no answer"


@pytest.mark.django_db
def test_healthz_does_not_ping_when_the_broker_is_down(client, settings, monkeypatch):
    from config import health
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "broker_status", lambda: "error")
    monkeypatch.setattr(app.control, "ping", lambda timeout: pytest.fail("pinged"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["worker"] == "unknown"


@pytest.mark.broker
def test_healthz_sees_a_real_worker(celery_worker_process, client):
    """CI's broker pass: a real worker answers the ping through the real broker."""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "ok",
        "worker": "ok",
        "status": "ok",
    }


@pytest.mark.broker
@pytest.mark.django_db
def test_healthz_with_a_broker_and_no_worker(client):
    if not os.environ.get("CELERY_BROKER_URL"):
        pytest.skip("needs CELERY_BROKER_URL")
    from config.celery import app

    if app.control.ping(timeout=1.0):
        pytest.skip("a worker of another run answers on this broker")
    body = client.get("/healthz").json()
    assert body["broker"] == "ok" and body["worker"] == "no answer"
