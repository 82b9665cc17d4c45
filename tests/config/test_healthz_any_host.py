"""/healthz answers a probe by address, whatever ALLOWED_HOSTS says, with no error logged."""

from __future__ import annotations

import logging

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def production_hosts(settings):
    settings.ALLOWED_HOSTS = ["offerdesk.example.com"]
    settings.SECURE_SSL_REDIRECT = True


def test_a_probe_on_127_0_0_1_gets_the_health_answer(client, production_hosts, caplog):
    with caplog.at_level(logging.WARNING):
        response = client.get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_any_other_page_still_refuses_a_host_it_does_not_serve(client, production_hosts):
    assert client.get("/accounts/login/", HTTP_HOST="127.0.0.1:8000").status_code == 400


def test_a_post_to_healthz_is_not_answered_there(client, production_hosts):
    response = client.post("/healthz", HTTP_HOST="offerdesk.example.com", secure=True)
    assert response.status_code in (403, 405)
