"""With the broker down, an export or a restore answers 503 and its job is failed at once.

The job is committed with the request and published on commit, as the Monte Carlo is
(`offers.services._publish_mc`); a publish that raises marks the job failed with a message
its page shows, instead of leaving it "queued" for ever. transaction=True: the on-commit
publish then runs inside the request, as in production.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from kombu.exceptions import OperationalError as BrokerOperationalError

from offers.export import jobs
from offers.export.backup import backup_build
from offers.export.jobs import job_run_task
from offers.models import Job, Offer
from tests.factories import OfferFactory

NOT_PUBLISHED = "The job queue could not be reached, so this job never started."


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def _broker_down(monkeypatch, task) -> list[str]:
    """Make the task's publish fail as an unreachable broker does; return the ids tried."""
    tried: list[str] = []

    def refused(args, task_id=None, **kwargs):
        tried.append(task_id)
        raise BrokerOperationalError("Error 111 connecting to broker.invalid:6379")

    monkeypatch.setattr(task, "apply_async", refused)
    return tried


@pytest.mark.django_db(transaction=True)
def test_export_whose_publish_fails_is_failed_at_once(client_alice_reauth, alice, monkeypatch):
    monkeypatch.setattr(jobs, "LARGE_OPTIONS", 1)
    OfferFactory(owner=alice)
    OfferFactory(owner=alice)
    tried = _broker_down(monkeypatch, job_run_task)
    response = client_alice_reauth.post(reverse("offers:export_start"), {"format": "csv"})
    assert response.status_code == 503
    assert b"unreachable" in response.content
    job = Job.objects.get(owner=alice, kind="export")
    assert tried == [job.task_id]
    assert job.status == "failed" and job.finished_at is not None
    assert job.errors[0].startswith(NOT_PUBLISHED)
    page = client_alice_reauth.get(reverse("offers:export_job", args=[job.pk]))
    assert NOT_PUBLISHED in page.content.decode()
    assert "hx-get" not in page.content.decode()  # failed: the page stops polling


@pytest.mark.django_db(transaction=True)
def test_restore_whose_publish_fails_is_failed_at_once(
    client, alice, bob, monkeypatch, tmp_path, reauth
):
    monkeypatch.setattr(jobs, "LARGE_RECORDS", 1)
    OfferFactory(owner=alice)
    OfferFactory(owner=alice)
    raw = json.dumps(backup_build(user=alice)).encode()
    tried = _broker_down(monkeypatch, job_run_task)
    client.force_login(bob)
    reauth(client)
    upload = SimpleUploadedFile("b.json", raw, "application/json")
    response = client.post(reverse("offers:backup_import"), {"file": upload})
    assert response.status_code == 503
    job = Job.objects.get(owner=bob, kind="restore")
    assert tried == [job.task_id]
    assert job.status == "failed" and job.file_path == "" and job.finished_at is not None
    assert job.errors[0].startswith(NOT_PUBLISHED)
    assert not list((tmp_path / "restores").rglob("*.json"))  # the upload is not kept
    page = client.get(reverse("offers:export_job", args=[job.pk]))
    assert "Nothing was restored" in page.content.decode()
    assert NOT_PUBLISHED in page.content.decode()
    assert not Offer.objects.filter(owner=bob).exists()
