"""One log pipeline: gunicorn's access and error lines and Celery's go through Django's formatter.

A real gunicorn (config/gunicorn.py) serves a calendar feed URL and a password reset link with
query strings; its access log must be JSON lines without the tokens or the query strings.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from config.logformat import JsonFormatter
from config.redact import REDACTED, SecretPathFilter, secret_paths_redact
from tests.config.test_settings import run_settings

ROOT = Path(__file__).resolve().parents[2]
FEED_TOKEN = "Feed-Token-abc123XYZ"
RESET_TOKEN = "cz7-0123456789abcdef0123456789abcdef"


def test_the_redaction_takes_out_feed_and_reset_tokens_only():
    assert secret_paths_redact(f"GET /interviews/calendar/feed/{FEED_TOKEN}.ics") == (
        f"GET /interviews/calendar/feed/{REDACTED}"
    )
    assert secret_paths_redact(f"/accounts/password/reset/MQ/{RESET_TOKEN}/") == (
        f"/accounts/password/reset/MQ/{REDACTED}/"
    )
    # Pages of the reset that hold no token keep their paths.
    for path in ("/accounts/password/reset/", "/accounts/password/reset/sent/", "/offers/3/"):
        assert secret_paths_redact(path) == path


def test_the_json_formatter_carries_a_requests_fields_and_the_filter_redacts():
    record = logging.LogRecord(
        "gunicorn.access", logging.INFO, __file__, 1, "GET %s %s", (f"/x/{RESET_TOKEN}", 200), None
    )
    record.http = {"method": "GET", "status": 200}
    SecretPathFilter().filter(record)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["logger"] == "gunicorn.access" and entry["level"] == "INFO"
    assert entry["http"] == {"method": "GET", "status": 200}
    assert entry["message"] == f"GET /x/{RESET_TOKEN} 200"  # not a reset path: kept
    record.msg, record.args = f"Forbidden: /accounts/password/reset/MQ/{RESET_TOKEN}/", None
    SecretPathFilter().filter(record)
    assert RESET_TOKEN not in JsonFormatter().format(record)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def gunicorn_json(tmp_path):
    """Run gunicorn as the Procfile does (one worker), LOG_FORMAT=json; yield its port and logs."""
    port = free_port()
    out, err = tmp_path / "out.log", tmp_path / "err.log"
    env = {
        **os.environ,
        "DEBUG": "1",
        "LOG_FORMAT": "json",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("DATABASE_URL", None)
    env.pop("CELERY_BROKER_URL", None)
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.py"]
    command += ["--bind", f"127.0.0.1:{port}", "--workers", "1"]
    with out.open("w") as o, err.open("w") as e:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=o, stderr=e)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)  # noqa: S310
                break
            except urllib.error.HTTPError:
                break  # answered (503 before migrate): serving
            except OSError:
                time.sleep(0.3)
        yield port, out, err
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def fetch(port: int, path: str) -> None:
    # A 404 or a 503 is still a request in the access log.
    with contextlib.suppress(urllib.error.HTTPError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10)  # noqa: S310


def test_gunicorn_access_log_is_json_without_tokens_or_query_strings(gunicorn_json):
    port, out, err = gunicorn_json
    fetch(port, f"/interviews/calendar/feed/{FEED_TOKEN}.ics?search=secret-query")
    fetch(port, f"/accounts/password/reset/MQ/{RESET_TOKEN}/?utm=secret-query")
    time.sleep(0.5)
    text = out.read_text() + err.read_text()
    assert FEED_TOKEN not in text and RESET_TOKEN not in text and "secret-query" not in text
    access = [json.loads(line) for line in out.read_text().splitlines()]
    by_path = {e["http"]["path"]: e for e in access if e["logger"] == "gunicorn.access"}
    feed = by_path[f"/interviews/calendar/feed/{REDACTED}"]
    # (503: the scratch database has no tables; any answer is a request to log.)
    assert feed["http"]["method"] == "GET" and feed["http"]["status"] in (404, 503)
    assert feed["level"] == "INFO" and "time" in feed
    assert f"/accounts/password/reset/MQ/{REDACTED}/" in by_path
    # gunicorn's own lines ("Starting gunicorn", "Booting worker") are JSON too.
    errors = [json.loads(line) for line in err.read_text().splitlines() if line.strip()]
    assert any(e["logger"] == "gunicorn.error" for e in errors), err.read_text()[:500]


CELERY_CODE = (
    "import django; django.setup();"
    "from celery.signals import setup_logging;"
    "from config.celery import app;"
    "responses = setup_logging.send(sender=None, loglevel='INFO', logfile=None, format='',"
    " colorize=False);"
    "assert responses, 'no receiver: Celery would install its own handlers';"
    "import logging; logging.getLogger('celery.app.trace').info("
    "'Task %s succeeded', 'x');"
    "logging.getLogger('offers.tasks').warning('fetching /interviews/calendar/feed/"
    + FEED_TOKEN
    + ".ics')"
)


def test_a_celery_worker_logs_through_the_same_json_formatter():
    out = run_settings(CELERY_CODE, DEBUG="1", LOG_FORMAT="json")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stderr.strip().splitlines()]
    assert lines[-2]["logger"] == "celery.app.trace"
    assert lines[-2]["message"] == "Task x succeeded"  # INFO: a worker's task lines are kept
    assert FEED_TOKEN not in lines[-1]["message"] and REDACTED in lines[-1]["message"]
