"""Error reporting behind SENTRY_DSN, with personal data off; nothing goes over the network."""

from __future__ import annotations

import json
import os
from pathlib import Path

from config.sentry import event_scrub, sentry_init, sentry_options
from tests import fresh_python

ROOT = Path(__file__).resolve().parents[2]


def test_options_leave_personal_data_out():
    options = sentry_options(
        dsn="https://key@sentry.invalid/1", environment="prod", release="", traces_sample_rate=0
    )
    assert options["send_default_pii"] is False
    assert options["max_request_body_size"] == "never"
    assert options["include_local_variables"] is False
    assert options["before_send"] is event_scrub
    assert options["environment"] == "prod" and options["release"] is None


def test_no_dsn_starts_nothing():
    assert sentry_init(dsn="") is False


def test_scrub_strips_request_data_cookies_user_and_feed_tokens():
    event = {
        "request": {
            "url": "https://o.example/interviews/calendar/feed/SECRETTOKEN.ics",
            "method": "POST",
            "data": {"base": "218000"},
            "cookies": {"sessionid": "abc"},
            "query_string": "base=218000",
            "headers": {"Cookie": "sessionid=abc", "Authorization": "x", "User-Agent": "ua"},
            "env": {"REMOTE_ADDR": "10.0.0.1"},
        },
        "user": {"id": 7, "username": "alice", "ip_address": "10.0.0.1"},
        "transaction": "/interviews/calendar/feed/SECRETTOKEN.ics",
        "breadcrumbs": {
            "values": [
                {"category": "query", "message": "SELECT 1", "data": {"db.params": [218000]}},
                {"category": "httplib", "message": "GET /interviews/calendar/feed/SECRETTOKEN.ics"},
            ]
        },
    }
    scrubbed = json.dumps(event_scrub(event, {}))
    for secret in ("218000", "sessionid", "alice", "10.0.0.1", "SECRETTOKEN", "Authorization"):
        assert secret not in scrubbed, secret
    assert event["request"]["headers"] == {"User-Agent": "ua"}
    assert event["request"]["url"].endswith("/calendar/feed/[redacted]")


SCRIPT = r"""
import json, sys, types
import django
django.setup()
import sentry_sdk
from django.contrib.auth.decorators import login_not_required
from django.test import Client, override_settings
from django.urls import path

client = sentry_sdk.get_client()
options = client.options
print(json.dumps({
    "active": client.is_active(),
    "send_default_pii": options["send_default_pii"],
    "max_request_body_size": options["max_request_body_size"],
    "include_local_variables": options["include_local_variables"],
    "before_send": options["before_send"].__name__ if options["before_send"] else None,
}))
if not client.is_active():
    sys.exit(0)

sent = []

class Recording:
    def capture_envelope(self, envelope):
        for item in envelope.items:
            if item.payload.json is not None:
                sent.append(item.payload.json)
    def flush(self, *a, **k): pass
    def kill(self, *a, **k): pass
    def record_lost_event(self, *a, **k): pass
    def is_healthy(self): return True

client.transport = Recording()

@login_not_required
def boom(request):
    salary = "218000 USD base"  # a local variable that must not be sent
    raise ValueError("boom " + str(len(salary)))

urls = types.ModuleType("boom_urls")
urls.urlpatterns = [path("boom/", boom)]
sys.modules["boom_urls"] = urls
with override_settings(ROOT_URLCONF="boom_urls"):
    c = Client(raise_request_exception=False)
    c.cookies["theme"] = "dark-218000"
    r = c.post("/boom/?base=218000", {"base": "218000", "password": "hunter2"},
               HTTP_AUTHORIZATION="Bearer hunter2")
print(json.dumps({"status": r.status_code, "events": sent}))
"""


def run(env_extra: dict[str, str]) -> list[dict]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test", "DEBUG": "1"}
    env.pop("SENTRY_DSN", None)
    env.update(env_extra)
    out = fresh_python.run(
        ["-c", SCRIPT],
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def test_without_sentry_dsn_reporting_is_off():
    (status,) = run({})
    assert status["active"] is False


def test_with_sentry_dsn_an_error_is_sent_without_personal_data():
    status, result = run(
        {"SENTRY_DSN": "https://public@sentry.invalid/1", "ALLOWED_HOSTS": "testserver"}
    )
    assert status == {
        "active": True,
        "send_default_pii": False,
        "max_request_body_size": "never",
        "include_local_variables": False,
        "before_send": "event_scrub",
    }
    assert result["status"] == 500
    (event,) = [e for e in result["events"] if e.get("exception")]
    assert event["exception"]["values"][-1]["type"] == "ValueError"
    text = json.dumps(event)
    for secret in ("218000", "hunter2", "dark-"):
        assert secret not in text, secret
    frames = event["exception"]["values"][-1]["stacktrace"]["frames"]
    assert frames and all("vars" not in f for f in frames)
    assert "user" not in event
    assert "data" not in event["request"] and "cookies" not in event["request"]
