"""Large restores run as a background job, still all or nothing (issue 18).

The job is published on commit and the tests' Celery runs it eagerly inside the publish: the
whole path, from the form's post through `job_run_task` to the job's page.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from offers.export.backup import backup_build
from offers.models import Job, Offer
from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory
from tests.offers.test_backup import row_counts, without_meta

pytestmark = pytest.mark.django_db


@pytest.fixture
def doc(alice):
    PreferencesFactory(owner=alice)
    for i in range(5):
        offer = OfferFactory(owner=alice, name=f"O{i}")
        ScenarioFactory(owner=alice, offer=offer, name=f"S{i}")
    return backup_build(user=alice)


@pytest.fixture
def client_bob(client, bob, reauth, monkeypatch, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 3)
    client.force_login(bob)
    return reauth(client)


def _post(client, doc):
    upload = SimpleUploadedFile("b.json", json.dumps(doc).encode(), "application/json")
    return client.post(reverse("offers:backup_import"), {"file": upload})


def test_large_restore_runs_as_a_background_job_with_a_progress_page(
    client_bob, bob, doc, tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = _post(client_bob, doc)
    job = Job.objects.get(owner=bob)
    assert job.kind == "restore"
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:export_job", args=[job.pk])
    page = client_bob.get(response["Location"])
    assert b"Restoring a backup" in page.content
    assert b"<progress" in page.content and b"hx-get" in page.content  # polls while queued
    assert not Offer.objects.filter(owner=bob).exists()
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()  # the publish: the eager task runs the job
    job.refresh_from_db()
    assert job.status == "done", job.errors
    assert job.counts["offers"] == 5 and job.counts["scenarios"] == 5
    assert without_meta(backup_build(user=bob)) == without_meta(doc)
    done = client_bob.get(response["Location"], HTTP_HX_REQUEST="true")
    assert b"Backup restored: " in done.content and b"hx-get" not in done.content
    assert not list((tmp_path / "restores").rglob("*.json"))  # the upload is not kept


def test_large_restore_with_errors_fails_with_the_reasons(
    client_bob, bob, doc, tmp_path, django_capture_on_commit_callbacks
):
    doc["grants"] = [{"id": 1, "package": 1, "weights": [None, None]}]
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(client_bob, doc)
    job = Job.objects.get(owner=bob)
    assert job.status == "failed"
    assert any(e.startswith("grants[0].") for e in job.errors)
    page = client_bob.get(response["Location"])
    assert b"Nothing was restored" in page.content
    assert not Offer.objects.filter(owner=bob).exists()
    assert not list((tmp_path / "restores").rglob("*.json"))


def test_a_restore_failing_midway_leaves_nothing(
    client_bob, bob, doc, monkeypatch, django_capture_on_commit_callbacks
):
    from offers.models import Scenario

    def disk_full(objs, *args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Scenario.objects, "bulk_create", disk_full)
    before = row_counts()
    with pytest.raises(RuntimeError), django_capture_on_commit_callbacks(execute=True):
        _post(client_bob, doc)
    job = Job.objects.get(owner=bob)
    assert (job.status, job.errors) == ("failed", ["disk full"])
    assert {k: v for k, v in row_counts().items() if k != "offers.Job"} == {
        k: v for k, v in before.items() if k != "offers.Job"
    }


def test_a_small_restore_makes_no_job(client_bob, bob, doc, monkeypatch):
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 5000)
    assert _post(client_bob, doc)["Location"] == reverse("offers:export")
    assert Offer.objects.filter(owner=bob).count() == 5 and not Job.objects.exists()


def test_another_users_job_is_a_404_on_every_job_url(client, alice, charlie):
    restore = Job.objects.create(owner=alice, kind="restore", status="done")
    export = Job.objects.create(owner=alice, kind="export", format="csv", status="done")
    client.force_login(charlie)
    for job in (restore, export):
        for name in (
            "offers:export_job",
            "offers:export_job_download",
            "offers:export_job_restart",
        ):
            url = reverse(name, args=[job.pk])
            assert client.get(url).status_code == 404, url
            assert client.post(url).status_code == 404, url
            assert client.get(url, HTTP_HX_REQUEST="true").status_code == 404, url


def test_a_restore_job_has_no_download(client_alice_reauth, alice):
    job = Job.objects.create(owner=alice, kind="restore", status="done")
    url = reverse("offers:export_job_download", args=[job.pk])
    assert client_alice_reauth.get(url).status_code == 404
