"""Large restores run as a background job, in batches, still all or nothing (issue 18)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import RestoreJob
from offers.export import restore
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore_batched
from offers.models import Offer, Scenario
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


def test_large_restore_runs_as_a_background_job_with_a_progress_page(
    client, bob, doc, monkeypatch, settings, tmp_path, reauth, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr("offers.export.job_queue.RESTORE_JOB_RECORDS", 3)
    client.force_login(bob)
    reauth(client)
    upload = SimpleUploadedFile("b.json", json.dumps(doc).encode(), "application/json")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(reverse("offers:backup_import"), {"file": upload})
    job = RestoreJob.objects.get(owner=bob)
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:backup_import_job", args=[job.pk])
    page = client.get(response["Location"])
    assert b"<progress" in page.content and b"hx-get" in page.content  # polls while queued
    assert not Offer.objects.filter(owner=bob).exists()
    for callback in callbacks:
        callback()
    job.refresh_from_db()
    assert job.status == "done", job.errors
    assert job.counts["offers"] == 5 and job.counts["scenarios"] == 5
    assert without_meta(backup_build(user=bob)) == without_meta(doc)
    done = client.get(response["Location"], HTTP_HX_REQUEST="true")
    assert b"Backup restored: " in done.content and b"hx-get" not in done.content
    assert not list((tmp_path / "restores").rglob("*.json"))  # the upload is not kept


def test_large_restore_with_errors_fails_with_the_reasons(
    client, bob, doc, monkeypatch, settings, tmp_path, reauth, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr("offers.export.job_queue.RESTORE_JOB_RECORDS", 3)
    doc["grants"] = [{"id": 1, "package": 1, "weights": [None, None]}]
    client.force_login(bob)
    reauth(client)
    upload = SimpleUploadedFile("b.json", json.dumps(doc).encode(), "application/json")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("offers:backup_import"), {"file": upload})
    job = RestoreJob.objects.get(owner=bob)
    assert job.status == "failed"
    assert any(e.startswith("grants[0].") for e in job.errors)
    page = client.get(response["Location"])
    assert b"Nothing was restored" in page.content
    assert not Offer.objects.filter(owner=bob).exists()


def test_large_restore_writes_in_batches(bob, doc, monkeypatch):
    monkeypatch.setattr(restore, "BATCH", 2)
    seen: list[int] = []
    batches = []
    real = Scenario.objects.bulk_create

    def counting(objs, *args, **kwargs):
        batches.append(len(objs))
        return real(objs, *args, **kwargs)

    monkeypatch.setattr(Scenario.objects, "bulk_create", counting)
    result = backup_restore_batched(user=bob, raw=json.dumps(doc), progress=seen.append)
    assert batches == [2, 2, 1]
    assert result.counts["scenarios"] == 5
    assert seen == sorted(seen) and seen[-1] == 100 and len(seen) > 10
    assert Offer.objects.filter(owner=bob).count() == 5


def test_large_restore_failing_midway_leaves_nothing(bob, doc, monkeypatch, django_user_model):
    monkeypatch.setattr(restore, "BATCH", 2)
    before = row_counts()
    real = Scenario.objects.bulk_create
    calls = []

    def failing(objs, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(objs, *args, **kwargs)

    monkeypatch.setattr(Scenario.objects, "bulk_create", failing)
    with pytest.raises(RuntimeError):
        backup_restore_batched(user=bob, raw=json.dumps(doc))
    assert row_counts() == before  # the stand-in user and every row it got are gone


def test_large_restore_refuses_a_hostile_file_before_writing(bob, doc):
    doc["rounds"] = [{"id": 1, "process": 99}]
    before = row_counts()
    with pytest.raises(BackupError):
        backup_restore_batched(user=bob, raw=json.dumps(doc))
    assert row_counts() == before


def test_large_restore_refreshes_the_cached_board(bob, doc, django_capture_on_commit_callbacks):
    """The rows change owner by a queryset update (no post_save): the board still follows."""
    from offers.board_cache import board_get

    doc.pop("preferences")  # no preferences row saved: nothing else would refresh the board
    before = board_get(user=bob)
    assert before.evaluations == []
    with django_capture_on_commit_callbacks(execute=True):
        backup_restore_batched(user=bob, raw=json.dumps(doc))
    after = board_get(user=bob)
    assert sorted(e.offer.name for e in after.evaluations) == [f"O{i}" for i in range(5)]
