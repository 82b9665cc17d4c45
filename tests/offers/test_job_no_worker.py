"""A job still queued after JOB_WORKER_WAIT_SECONDS, with no worker answering, says so.

The workers are asked with /healthz's ping (config.health.worker_status, its answer cached);
a job queued a moment ago asks nothing; eager tasks always have a worker.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from offers import services
from offers.models import Job, Scenario
from tests.factories import ScenarioFactory

pytestmark = pytest.mark.django_db

NO_WORKER = "No worker has picked this up yet; is a worker running?"


@pytest.fixture
def pings(settings, monkeypatch):
    """A broker (not eager) whose workers answer as the test says; returns the ping log."""
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    settings.JOB_WORKER_WAIT_SECONDS = 10
    log: dict[str, list] = {"replies": [], "calls": []}

    def ping(timeout, limit=None):
        log["calls"].append(timeout)
        return log["replies"]

    monkeypatch.setattr(app.control, "ping", ping)
    return log


def _ago(seconds: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=seconds)


def _export_job(alice, *, queued_seconds_ago: int) -> Job:
    return Job.objects.create(
        owner=alice, kind="export", format="xlsx", task_id="t", created_at=_ago(queued_seconds_ago)
    )


def _status(client, name: str, pk: int) -> str:
    return client.get(reverse(name, args=[pk]), HTTP_HX_REQUEST="true").content.decode()


def test_export_queued_with_no_worker_says_so(client_alice, alice, pings):
    job = _export_job(alice, queued_seconds_ago=30)
    assert NO_WORKER in _status(client_alice, "offers:export_job", job.pk)
    page = client_alice.get(reverse("offers:export_job", args=[job.pk])).content.decode()
    assert NO_WORKER in page
    assert len(pings["calls"]) == 1  # the answer is kept a few seconds: one ping for both


def test_export_queued_a_moment_ago_asks_no_worker(client_alice, alice, pings):
    job = _export_job(alice, queued_seconds_ago=2)
    assert NO_WORKER not in _status(client_alice, "offers:export_job", job.pk)
    assert pings["calls"] == []


def test_export_queued_with_a_worker_answering_says_nothing(client_alice, alice, pings):
    pings["replies"] = [{"celery@host": {"ok": "pong"}}]
    job = _export_job(alice, queued_seconds_ago=30)
    html = _status(client_alice, "offers:export_job", job.pk)
    assert NO_WORKER not in html and "Queued" in html


def test_running_export_says_nothing(client_alice, alice, pings):
    job = _export_job(alice, queued_seconds_ago=30)
    Job.objects.filter(pk=job.pk).update(status="running", progress=40)
    assert NO_WORKER not in _status(client_alice, "offers:export_job", job.pk)
    assert pings["calls"] == []


def test_eager_tasks_always_have_a_worker(client_alice, alice, settings, monkeypatch):
    from config.celery import app

    settings.CELERY_BROKER_URL = ""
    monkeypatch.setattr(app.control, "ping", lambda timeout, limit=None: pytest.fail("pinged"))
    job = _export_job(alice, queued_seconds_ago=3600)
    assert NO_WORKER not in _status(client_alice, "offers:export_job", job.pk)


def test_restore_queued_with_no_worker_says_so(client_alice, alice, pings):
    job = Job.objects.create(owner=alice, kind="restore", task_id="t", created_at=_ago(30))
    assert NO_WORKER in _status(client_alice, "offers:export_job", job.pk)


def test_monte_carlo_queued_with_no_worker_says_so(client_alice, alice, pings):
    scenario = ScenarioFactory(owner=alice)
    Scenario.objects.filter(pk=scenario.pk).update(
        mc_status="queued", mc_input_hash="h", mc_task_id="t", updated_at=_ago(30)
    )
    html = client_alice.get(reverse("offers:scenario_mc_status", args=[scenario.pk])).content
    assert "Queued" in html.decode() and NO_WORKER in html.decode()
    page = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk])).content
    assert NO_WORKER in page.decode()
    pings["replies"] = [{"celery@host": {"ok": "pong"}}]
    from django.core.cache import cache

    from config.health import WORKER_ANSWER

    cache.clear()  # a worker starts; the kept answer expires (shared and in this process)
    WORKER_ANSWER.reset()
    html = client_alice.get(reverse("offers:scenario_mc_status", args=[scenario.pk])).content
    assert NO_WORKER not in html.decode()


def test_monte_carlo_start_stamps_when_it_was_queued(alice):
    """The wait is counted from the start of the run, not from the scenario's last edit."""
    scenario = ScenarioFactory(owner=alice)
    Scenario.objects.filter(pk=scenario.pk).update(updated_at=_ago(3600))
    assert services.scenario_mc_start(user=alice, scenario=scenario)  # published on commit
    scenario.refresh_from_db()
    assert scenario.mc_status == "queued"
    assert timezone.now() - scenario.updated_at < dt.timedelta(seconds=5)
