"""A worker killed mid-job: the message redelivered with the same task id takes the job back.

Celery redelivers an unacknowledged message (acks_late) with the task id it had; the job keeps
the id it was published with. The tests call the run functions as the task does: a first
attempt that dies mid-way (a BaseException that nothing catches, its clean-up skipped as a
SIGKILL skips it), then another task id, which must not take the job, then the redelivery.
"""

from __future__ import annotations

import json

import pytest

from accounts.models import RestoreJob
from offers.export import jobs, restore, restore_jobs
from offers.export.backup import backup_build
from offers.export.job_queue import export_job_create, restore_job_create
from offers.export.jobs import export_job_path, export_job_run
from offers.export.restore_jobs import restore_job_path, restore_job_run
from offers.models import ExportJob, Offer, Scenario
from offers.tasks_export import backup_restore_task, export_comparison_task
from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory
from tests.offers.test_backup import row_counts, without_meta

pytestmark = pytest.mark.django_db


class Killed(BaseException):
    """The worker process dying: no except clause of the job catches it."""


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


# Export ------------------------------------------------------------------------------------


def _export_killed_midway(alice, monkeypatch) -> ExportJob:
    OfferFactory(owner=alice, name="Acme")
    job = export_job_create(user=alice, fmt="csv")  # not published: no commit in this test
    assert job.task_id

    def dies(**kwargs):
        raise Killed

    monkeypatch.setattr(jobs, "comparison_file", dies)
    with pytest.raises(Killed):
        export_job_run(job_id=job.pk, task_id=job.task_id)
    monkeypatch.undo()
    job.refresh_from_db()
    assert (job.status, job.progress) == ("running", 5)  # what the issue saw: stuck for ever
    return job


def test_redelivered_export_takes_its_job_back_and_finishes(alice, monkeypatch):
    job = _export_killed_midway(alice, monkeypatch)
    # The redelivered message runs the task with the id the job was published with.
    assert export_comparison_task.apply_async((job.pk,), task_id=job.task_id).get() == "done"
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    assert export_job_path(job).read_bytes().startswith(b"\xef\xbb\xbfoption_key")
    # Done: the same message once more changes nothing.
    assert export_job_run(job_id=job.pk, task_id=job.task_id) == "skipped"


def test_another_task_cannot_take_a_running_export(alice, monkeypatch):
    job = _export_killed_midway(alice, monkeypatch)
    assert export_job_run(job_id=job.pk, task_id="another-task") == "skipped"
    assert export_job_run(job_id=job.pk) == "skipped"
    assert export_comparison_task.apply_async((job.pk,), task_id="another-task").get() == "skipped"
    job.refresh_from_db()
    assert (job.status, job.progress, job.file_path) == ("running", 5, "")


def test_a_queued_export_is_run_by_its_own_task_only(alice):
    OfferFactory(owner=alice)
    job = export_job_create(user=alice, fmt="csv")
    assert export_job_run(job_id=job.pk, task_id="another-task") == "skipped"
    assert export_job_run(job_id=job.pk, task_id=job.task_id) == "done"


# Restore -----------------------------------------------------------------------------------


@pytest.fixture
def doc(alice):
    PreferencesFactory(owner=alice)
    for i in range(5):
        offer = OfferFactory(owner=alice, name=f"O{i}")
        ScenarioFactory(owner=alice, offer=offer, name=f"S{i}")
    return backup_build(user=alice)


def _restore_killed_midway(bob, doc, monkeypatch, django_user_model) -> RestoreJob:
    """Start a restore that dies after writing some batches, leaving what a SIGKILL leaves."""
    monkeypatch.setattr(restore, "BATCH", 2)
    job = restore_job_create(user=bob, raw=json.dumps(doc).encode())
    real = Scenario.objects.bulk_create
    calls = []

    def dies_on_the_second_batch(objs, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise Killed
        return real(objs, *args, **kwargs)

    with monkeypatch.context() as dying:
        dying.setattr(Scenario.objects, "bulk_create", dies_on_the_second_batch)
        dying.setattr(restore, "account_delete", lambda user: None)  # killed: no clean-up
        with pytest.raises(Killed):
            restore_job_run(job_id=job.pk, task_id=job.task_id)
    job.refresh_from_db()
    assert job.status == "running" and 10 < job.progress < 100
    # What the issue saw: a stand-in owning half the rows, the upload still on disk.
    assert job.stand_in is not None and not job.stand_in.is_active
    assert Offer.objects.filter(owner=job.stand_in).count() == 5
    assert Scenario.objects.filter(owner=job.stand_in).count() == 2
    assert restore_job_path(job).is_file()
    assert not Offer.objects.filter(owner=bob).exists()
    return job


def test_redelivered_restore_cleans_up_its_dead_attempt_and_finishes(
    alice, bob, doc, monkeypatch, django_user_model
):
    users_before = set(django_user_model.objects.values_list("pk", flat=True))
    job = _restore_killed_midway(bob, doc, monkeypatch, django_user_model)
    stand_in_pk = job.stand_in_id
    assert backup_restore_task.apply_async((job.pk,), task_id=job.task_id).get() == "done"
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100), job.errors
    assert job.counts["offers"] == 5 and job.counts["scenarios"] == 5
    assert job.stand_in is None and job.file_path == ""
    assert not django_user_model.objects.filter(pk=stand_in_pk).exists()
    assert set(django_user_model.objects.values_list("pk", flat=True)) == users_before
    # All of the backup, once: no row of the dead attempt is left over.
    assert without_meta(backup_build(user=bob)) == without_meta(doc)
    assert Offer.objects.count() == 10 and Scenario.objects.count() == 10
    assert not list(restore_jobs.restore_dir().rglob("*.json"))  # the upload is gone
    assert restore_job_run(job_id=job.pk, task_id=job.task_id) == "skipped"


def test_another_task_cannot_take_a_running_restore(
    alice, bob, doc, monkeypatch, django_user_model
):
    job = _restore_killed_midway(bob, doc, monkeypatch, django_user_model)
    before = row_counts()
    assert restore_job_run(job_id=job.pk, task_id="another-task") == "skipped"
    assert restore_job_run(job_id=job.pk) == "skipped"
    assert row_counts() == before
    job.refresh_from_db()
    assert job.status == "running" and job.stand_in is not None


def test_a_restore_killed_after_handing_the_rows_over_is_not_restored_twice(
    alice, bob, doc, monkeypatch
):
    """The rows and the job's end are one commit: the redelivery finds the job done."""
    job = restore_job_create(user=bob, raw=json.dumps(doc).encode())
    real = restore_jobs.backup_restore_batched

    def dies_right_after(**kwargs):
        real(**kwargs)
        raise Killed

    with monkeypatch.context() as dying:
        dying.setattr(restore_jobs, "backup_restore_batched", dies_right_after)
        with pytest.raises(Killed):
            restore_job_run(job_id=job.pk, task_id=job.task_id)
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100) and job.counts["offers"] == 5
    assert restore_job_run(job_id=job.pk, task_id=job.task_id) == "skipped"
    assert Offer.objects.filter(owner=bob).count() == 5


def test_a_restore_whose_upload_is_gone_fails_and_cleans_up(
    alice, bob, doc, monkeypatch, django_user_model
):
    job = _restore_killed_midway(bob, doc, monkeypatch, django_user_model)
    stand_in_pk = job.stand_in_id
    restore_job_path(job).unlink()
    assert restore_job_run(job_id=job.pk, task_id=job.task_id) == "failed"
    job.refresh_from_db()
    assert job.status == "failed" and job.errors == ["file: the upload is gone"]
    assert not django_user_model.objects.filter(pk=stand_in_pk).exists()
    assert not Offer.objects.filter(owner=bob).exists()
