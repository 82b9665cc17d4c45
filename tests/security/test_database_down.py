"""The database down is a 503 for everyone, signed in or not (issue 37).

Before, a signed-in user's request loaded its session in SessionTimeoutMiddleware, whose layer
turned the OperationalError into a 500 with a traceback in the log, every request.
"""

from __future__ import annotations

import logging

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_down(monkeypatch):
    """Every query raises, as with PostgreSQL stopped (the client logged in before)."""
    from config.middleware import WARNED_AT

    WARNED_AT.reset()

    def refused(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refused)


def _records(caplog, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == level]


def test_a_signed_in_user_gets_503_with_retry_after(client_alice, database_down, caplog):
    caplog.set_level(logging.INFO)
    response = client_alice.get(reverse("offers:dashboard"))
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "no-store" in response["Cache-Control"]
    assert b"The database is unreachable" in response.content
    assert b"Traceback" not in response.content


def test_a_signed_in_post_is_503_too(client_alice, database_down):
    response = client_alice.post(reverse("offers:offer_list"), {"title": "x"})
    assert response.status_code == 503


def test_no_traceback_a_request_and_one_warning_a_minute(client_alice, database_down, caplog):
    from config.middleware import WARNED_AT

    caplog.set_level(logging.INFO)
    for _ in range(5):
        assert client_alice.get(reverse("offers:dashboard")).status_code == 503
    assert _records(caplog, logging.ERROR) == []  # no "Service Unavailable" line, no traceback
    warnings = _records(caplog, logging.WARNING)
    assert [r.getMessage() for r in warnings] == ["database unavailable: OperationalError"]
    assert all(r.exc_info is None for r in caplog.records)
    WARNED_AT.at["database"] -= 61  # a minute later
    client_alice.get(reverse("offers:dashboard"))
    assert len(_records(caplog, logging.WARNING)) == 2


def test_healthz_with_a_session_cookie_answers_its_json(client_alice, database_down):
    response = client_alice.get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert (body["database"], body["status"]) == ("error", "unavailable")


def test_an_anonymous_visitor_is_still_sent_to_log_in(client, database_down):
    """No session to load: nothing asks the database before the log-in redirect."""
    response = client.get(reverse("offers:dashboard"))
    assert response.status_code == 302
