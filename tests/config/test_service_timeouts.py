"""Every wait on the broker, the cache and the database is bounded (issue 37: a hung Redis).

A Redis stopped with SIGSTOP accepts connections and never answers: without socket timeouts a
publish or a worker ping waited for minutes and held a web server thread all that time.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tests import fresh_python
from tests.config.test_settings import run_settings

ROOT = Path(__file__).resolve().parents[2]
BROKER = {"DEBUG": "1", "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}
READ_TIMEOUTS = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "from config.celery import app;"
    "print(json.dumps({'transport': app.conf.broker_transport_options,"
    " 'connect': app.conf.broker_connection_timeout,"
    " 'retry': app.conf.task_publish_retry_policy,"
    " 'cache': s.CACHES['default'].get('OPTIONS', {}),"
    " 'db': s.DATABASES['default'].get('OPTIONS', {})}))"
)


def _timeouts(**env: str) -> dict:
    out = run_settings(READ_TIMEOUTS, **env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_broker_connects_and_answers_within_a_few_seconds():
    found = _timeouts(**BROKER)
    assert found["transport"]["socket_timeout"] == 3
    assert found["transport"]["socket_connect_timeout"] == 3
    assert found["connect"] == 3
    # No retry of a failed publish: kombu's would reconnect, two more socket timeouts.
    assert found["retry"]["max_retries"] == 0


def test_service_timeout_sets_the_broker_and_postgres_timeouts():
    found = _timeouts(
        **BROKER, SERVICE_TIMEOUT="5", DATABASE_URL="postgres://u:p@127.0.0.1:5432/offerdesk"
    )
    assert found["transport"]["socket_timeout"] == 5
    assert found["connect"] == 5
    assert found["db"]["connect_timeout"] == 5


def test_the_shared_cache_has_socket_timeouts():
    found = _timeouts(**BROKER, CACHE_URL="redis://127.0.0.1:6379/1")
    assert found["cache"] == {"socket_connect_timeout": 2, "socket_timeout": 2}


def test_postgres_connects_within_a_few_seconds():
    found = _timeouts(DEBUG="1", DATABASE_URL="postgres://u:p@127.0.0.1:5432/offerdesk")
    assert found["db"]["connect_timeout"] == 3


# A real Redis, stopped: what the web process does while it hangs.
HUNG = """
import json, time, django
django.setup()
from accounts.tasks import trash_purge_task
from config import health
took = {}
def timed(name, call):
    start = time.monotonic()
    try:
        took[name + ' answer'] = call()
    except Exception as exc:
        took[name + ' answer'] = type(exc).__name__
    took[name] = time.monotonic() - start
timed('publish', trash_purge_task.apply_async)
took['publish answer'] = str(took['publish answer'])
timed('broker', health.broker_status)
timed('cache', health.cache_status)
timed('worker', health.worker_status)
timed('worker again', health.worker_status)
print(json.dumps(took))
"""


@pytest.fixture
def hung_redis(own_redis):
    """A Redis server of this test's own, stopped (SIGSTOP) once it answers."""
    own_redis.proc.send_signal(signal.SIGSTOP)
    return own_redis.port


def test_a_hung_redis_costs_each_call_seconds_not_minutes(hung_redis):
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("SECRET_KEY",)},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{hung_redis}/0",
        "CACHE_URL": f"redis://127.0.0.1:{hung_redis}/1",
    }
    out = fresh_python.run(["-c", HUNG], cwd=ROOT, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    took = json.loads(out.stdout.strip().splitlines()[-1])
    # SERVICE_TIMEOUT is 3 s (the cache's 2 s); a second of slack for a busy machine.
    assert took["publish"] < 5, took  # one try of 3 s
    assert took["publish answer"] == "OperationalError"
    assert took["broker"] < 8 and took["broker answer"] == "error", took
    assert took["cache"] < 3 and took["cache answer"] == "error", took
    assert took["worker"] < 5 and took["worker answer"] == "no answer", took
    assert took["worker again"] < 0.1, took  # kept: not asked again for HEALTH_WORKER_CACHE


def test_a_restarted_redis_takes_the_next_publish_without_a_retry(own_redis):
    """A failed publish is not retried (a hung broker): a restarted one needs no retry."""
    import redis
    from celery import Celery

    app = Celery(set_as_current=False)  # the project's settings, on the test's own Redis
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_read_url = app.conf.broker_write_url = own_redis.url(0)
    app.conf.task_always_eager = False  # pass 1's settings: send_task publishes anyway
    assert app.conf.task_publish_retry_policy["max_retries"] == 0
    app.send_task("offerdesk.test.before")  # the connection is pooled
    own_redis.restart()  # its connections closed, the message lost
    app.send_task("offerdesk.test.after")  # the pool's closed connection is replaced
    app.close()
    queued = redis.Redis.from_url(own_redis.url(0)).lrange("celery", 0, -1)
    assert [json.loads(m)["headers"]["task"] for m in queued] == ["offerdesk.test.after"]


@pytest.fixture
def broker(settings, monkeypatch):
    """A broker (not eager), no network: the ping is the test's stand-in."""
    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    settings.HEALTH_WORKER_TIMEOUT = 0.5
    settings.HEALTH_WORKER_CACHE = 10


def test_the_ping_waits_for_one_answer_only(broker, monkeypatch):
    from config import health
    from config.celery import app

    calls = []

    def ping(**kwargs):
        calls.append(kwargs)
        return [{"celery@a": {"ok": "pong"}}]

    monkeypatch.setattr(app.control, "ping", ping)
    assert health.worker_status() == "ok"
    assert calls == [{"timeout": 0.5, "limit": 1}]


def test_the_answer_is_kept_in_the_process_when_the_cache_is_unreachable(broker, monkeypatch):
    from config import health
    from config.celery import app

    calls = []
    monkeypatch.setattr(app.control, "ping", lambda **kw: calls.append(kw) or [])
    monkeypatch.setattr(health, "cache_get", lambda key: None)  # the cache down: every read a miss
    assert [health.worker_status() for _ in range(3)] == ["no answer"] * 3
    assert len(calls) == 1


def test_the_answer_is_asked_again_once_it_is_old(broker, settings, monkeypatch):
    from config import health
    from config.celery import app

    calls = []
    monkeypatch.setattr(app.control, "ping", lambda **kw: calls.append(kw) or [])
    monkeypatch.setattr(health, "cache_get", lambda key: None)
    health.worker_status()
    health.WORKER_ANSWER.expires_at = time.monotonic() - 1  # HEALTH_WORKER_CACHE seconds later
    health.worker_status()
    assert len(calls) == 2


def test_while_one_thread_pings_the_others_answer_at_once(broker, monkeypatch):
    """Ten health checks during a slow ping: one pings, nine answer with what is known."""
    from config import health
    from config.celery import app

    release = threading.Event()
    calls = []

    def slow_ping(**kwargs):
        calls.append(kwargs)
        release.wait(10)
        return [{"celery@a": {"ok": "pong"}}]

    monkeypatch.setattr(app.control, "ping", slow_ping)
    first = threading.Thread(target=health.worker_status)
    first.start()
    for _ in range(50):
        if calls:
            break
        time.sleep(0.02)
    start = time.monotonic()
    others = [health.worker_status() for _ in range(9)]
    waited = time.monotonic() - start
    release.set()
    first.join(10)
    assert others == ["unknown"] * 9  # nothing known yet in this process
    assert waited < 1
    assert len(calls) == 1
    assert health.worker_status() == "ok"  # the first ping's answer, kept
