from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.db import OperationalError

from tests import fresh_python

ROOT = Path(__file__).resolve().parent.parent
# The tests' cache: CI's broker pass shares a Redis (CACHE_URL), otherwise each process's memory.
SHARED_CACHE = os.environ.get("CACHE_URL", "").startswith(("redis://", "rediss://"))
TEST_CACHE = "ok" if SHARED_CACHE else "local"


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
    out = fresh_python.run(["-c", code], cwd=ROOT, env=env, timeout=60)
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
        "EMAIL_URL": "smtp+tls://offerdesk:pw@mail.example.com:587",
        "SITE_URL": "https://offerdesk.example",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests' conftest only
    out = fresh_python.run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
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

    def ping(timeout, limit=None):
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
    monkeypatch.setattr(app.control, "ping", lambda timeout, limit=None: [])
    response = client.get("/healthz")
    assert response.status_code == 200  # pages still work; tasks wait in the queue
    assert response.json()["worker"] == "no answer"


@pytest.mark.django_db
def test_healthz_does_not_ping_when_the_broker_is_down(client, settings, monkeypatch):
    from config import health
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "broker_status", lambda: "error")
    monkeypatch.setattr(app.control, "ping", lambda timeout, limit=None: pytest.fail("pinged"))
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
        "cache": TEST_CACHE,
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


UNREACHABLE_CACHE = "redis://127.0.0.1:1/0"


@pytest.fixture
def broker_and_worker_up(settings, monkeypatch):
    """A broker and a worker that answer, without a network (stand-ins)."""
    from config import health
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(health, "broker_status", lambda: "ok")
    monkeypatch.setattr(
        app.control, "ping", lambda timeout, limit=None: [{"celery@host": {"ok": "pong"}}]
    )


def _cache_down(settings) -> None:
    """Point the cache at a closed port (short timeouts: the test does not wait for them)."""
    from config.settings import cache_settings

    caches = cache_settings(UNREACHABLE_CACHE, "offerdesk")
    caches["default"]["OPTIONS"] = {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}
    settings.CACHES = caches


@pytest.mark.django_db
def test_healthz_all_ok(client, broker_and_worker_up):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "database": "ok",
        "broker": "ok",
        "cache": TEST_CACHE,
        "worker": "ok",
        "status": "ok",
    }


@pytest.mark.django_db
def test_healthz_reports_a_shared_cache_that_answers(client, settings, broker_and_worker_up):
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip("needs a Redis on 127.0.0.1:6379")
    from config.settings import cache_settings

    settings.CACHES = cache_settings("redis://127.0.0.1:6379/15", f"healthz-test-{os.getpid()}")
    body = client.get("/healthz").json()
    assert body["cache"] == "ok" and body["status"] == "ok"


@pytest.mark.django_db
def test_healthz_with_the_cache_down_blames_only_the_cache(client, settings, broker_and_worker_up):
    """Pages still work without the cache: reported, no 503, the queue and workers are fine."""
    _cache_down(settings)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "database": "ok",
        "broker": "ok",
        "cache": "error",
        "worker": "ok",
        "status": "ok",
    }


@pytest.mark.django_db
def test_healthz_with_the_broker_down_is_503_json(client, settings, monkeypatch):
    """A real broker URL on a closed port: the broker is reported down, the cache is not."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    from config.celery import app

    monkeypatch.setitem(app.conf, "broker_url", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setitem(app.conf, "broker_connection_timeout", 1)
    monkeypatch.setattr(app, "_pool", None)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "database": "ok",
        "broker": "error",
        "cache": TEST_CACHE,
        "worker": "unknown",
        "status": "unavailable",
    }


@pytest.mark.django_db
def test_healthz_with_the_cache_and_the_database_down_is_503_json(client, settings, monkeypatch):
    from config import health

    def broken() -> str:
        raise OperationalError("down")

    _cache_down(settings)
    monkeypatch.setattr(health.connection, "cursor", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert (body["database"], body["cache"], body["status"]) == ("error", "error", "unavailable")


@pytest.mark.django_db
def test_healthz_is_503_while_migrations_are_pending(client, monkeypatch):
    """A new release before `migrate` must not get requests: its code expects the new schema."""
    from config import health

    monkeypatch.setattr(health, "MIGRATIONS", health._Migrations())
    monkeypatch.setattr(
        health.MigrationExecutor, "migration_plan", lambda self, targets: [("offers", False)]
    )
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "migrations pending"


@pytest.mark.django_db
def test_healthz_checks_migrations_until_all_are_applied(client, monkeypatch):
    from config import health

    migrations = health._Migrations()
    monkeypatch.setattr(health, "MIGRATIONS", migrations)
    plans = []
    real = health.MigrationExecutor.migration_plan

    def plan(self, targets):
        plans.append(targets)
        return real(self, targets)

    monkeypatch.setattr(health.MigrationExecutor, "migration_plan", plan)
    assert client.get("/healthz").json()["database"] == "ok"
    assert client.get("/healthz").json()["database"] == "ok"
    assert len(plans) == 1  # once applied, they stay applied for this process's code
