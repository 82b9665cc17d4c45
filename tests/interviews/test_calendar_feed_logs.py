"""The calendar feed's token is its only key: no log line holds it, and a POST is a quiet 405.

The log is read where it leaves: the console handler that `LOGGING` (config/settings.py) gives
the root and `django.request` loggers, with every level let through for the test.
"""

from __future__ import annotations

import io
import logging
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from config.redact import SecretPathFilter, secret_paths_redact

pytestmark = pytest.mark.django_db
LOGGERS = ("", "django", "django.request", "django.security", "django.security.csrf")


def turn_on(client) -> str:
    """Turn the feed on through the page; return the path of the link shown once."""
    assert (
        client.post(reverse("interviews:calendar_settings"), {"action": "reset"}).status_code == 302
    )
    page = client.get(reverse("interviews:calendar_settings")).content.decode()
    match = re.search(r'value="http://testserver(/interviews/calendar/feed/[^"]+\.ics)"', page)
    assert match, page
    return match.group(1)


def token_of(path: str) -> str:
    return path.rsplit("/", 1)[1].removesuffix(".ics")


@pytest.fixture
def console():
    """Return what the configured console handler writes, every level included."""
    handler = next(
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, SecretPathFilter) for f in h.filters)
    )
    out = io.StringIO()
    stream = handler.setStream(out)
    levels = {name: logging.getLogger(name).level for name in LOGGERS}
    for name in LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG)
    yield out
    handler.setStream(stream)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
def csrf_records():
    """Return the records the CSRF middleware logs (it warns on every refused POST)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("django.security.csrf")
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


def test_a_post_is_405_before_csrf_and_logs_no_token(client, alice, console, csrf_records):
    client.force_login(alice)
    path = turn_on(client)
    anonymous = Client(enforce_csrf_checks=True)  # as a calendar app or a stranger posts
    for method in ("post", "put", "patch", "delete", "options"):
        response = getattr(anonymous, method)(path)
        assert response.status_code == 405, method
        assert response["Allow"] == "GET, HEAD"
    assert csrf_records == []  # no "Forbidden (CSRF cookie not set.): <path>" warning
    written = console.getvalue()
    assert "Method Not Allowed" in written  # the log was on and saw the requests
    assert token_of(path) not in written
    assert "/calendar/feed/[redacted]" in written
    # GET and HEAD still serve the calendar.
    assert anonymous.get(path).status_code == 200
    assert anonymous.head(path).status_code == 200


def test_no_log_line_holds_the_token_not_found_or_server_error(client, alice, console, monkeypatch):
    client.force_login(alice)
    path = turn_on(client)
    client.logout()
    wrong = path.replace(token_of(path), "a" * 43)
    assert client.get(wrong).status_code == 404

    def broken(**kwargs):
        raise RuntimeError("the database fell over")

    monkeypatch.setattr("interviews.views.calendar_feed_owner", broken)
    failing = Client(raise_request_exception=False)
    assert failing.get(path).status_code == 500
    written = console.getvalue()
    assert "Not Found" in written and "Internal Server Error" in written
    assert token_of(path) not in written and "a" * 43 not in written
    assert written.count("/calendar/feed/[redacted]") >= 2


def test_a_json_log_line_is_redacted_too(console, settings):
    from config.logformat import JsonFormatter

    record = logging.LogRecord(
        "django.request",
        logging.WARNING,
        __file__,
        1,
        "Not Found: %s",
        ("/interviews/calendar/feed/SeCrEt.ics",),
        None,
    )
    assert SecretPathFilter().filter(record)
    assert "SeCrEt" not in JsonFormatter().format(record)


def test_gunicorn_access_log_fields_are_redacted():
    """With the access log on (`--access-logfile -`), the request line and path are redacted."""
    from gunicorn.config import Config

    from config.gunicorn import RedactingLogger

    logger = RedactingLogger(Config())
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/interviews/calendar/feed/SeCrEt-ToKeN.ics?x=1",
        "PATH_INFO": "/interviews/calendar/feed/SeCrEt-ToKeN.ics",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": "https://example.com/interviews/calendar/feed/SeCrEt-ToKeN.ics",
    }
    resp = SimpleNamespace(status="200 OK", sent=10, headers=[])
    req = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    atoms = logger.atoms(resp, req, environ, timedelta(milliseconds=3))
    assert atoms["r"] == "GET /interviews/calendar/feed/[redacted]?x=1 HTTP/1.1"
    assert atoms["U"] == "/interviews/calendar/feed/[redacted]"
    assert "SeCrEt" not in repr(atoms)


def test_the_redaction_keeps_what_is_around_the_token():
    line = '"GET /interviews/calendar/feed/abc_DEF-123.ics HTTP/1.1" 200'
    assert secret_paths_redact(line) == '"GET /interviews/calendar/feed/[redacted] HTTP/1.1" 200'
    assert secret_paths_redact("/interviews/calendar/") == "/interviews/calendar/"
