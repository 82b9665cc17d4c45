"""A worker killed mid-job: the message redelivered with the same task id takes the job back.

Celery redelivers an unacknowledged message (acks_late) with the task id it had; the job keeps
the id it was published with. The tests call `job_run` as the task does: a first attempt that
dies mid-way (a BaseException that nothing catches, its clean-up skipped as a SIGKILL skips
it), then another task id, which must not take the job, then the redelivery.
"""

from __future__ import annotations

import json

import pytest

from offers.export import jobs
from offers.export.backup import backup_build
from offers.export.jobs import job_create, job_path, job_run, job_run_task, restore_job_create
from offers.models import Job, Offer, Scenario
from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory
from tests.offers.test_backup import row_counts, without_meta

pytestmark = pytest.mark.django_db


class Killed(BaseException):
    """The worker process dying: no except clause of the job catches it."""


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


# Export ------------------------------------------------------------------------------------


def _export_killed_midway(alice, monkeypatch) -> Job:
    OfferFactory(owner=alice, name="Acme")
    job = job_create(user=alice, kind="export", format="csv")  # not published: no commit here
    assert job.task_id

    def dies(**kwargs):
        raise Killed

    monkeypatch.setattr(jobs, "comparison_file", dies)
    with pytest.raises(Killed):
        job_run(job_id=job.pk, task_id=job.task_id)
    monkeypatch.undo()
    job.refresh_from_db()
    assert (job.status, job.progress) == ("running", 5)  # what the issue saw: stuck for ever
    return job


def test_redelivered_export_takes_its_job_back_and_finishes(alice, monkeypatch):
    job = _export_killed_midway(alice, monkeypatch)
    # The redelivered message runs the task with the id the job was published with.
    assert job_run_task.apply_async((job.pk,), task_id=job.task_id).get() == "done"
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    assert job_path(job).read_bytes().startswith(b"\xef\xbb\xbfoption_key")
    # Done: the same message once more changes nothing.
    assert job_run(job_id=job.pk, task_id=job.task_id) == "skipped"


def test_another_task_cannot_take_a_running_export(alice, monkeypatch):
    job = _export_killed_midway(alice, monkeypatch)
    assert job_run(job_id=job.pk, task_id="another-task") == "skipped"
    assert job_run(job_id=job.pk) == "skipped"
    assert job_run_task.apply_async((job.pk,), task_id="another-task").get() == "skipped"
    job.refresh_from_db()
    assert (job.status, job.progress, job.file_path) == ("running", 5, "")


def test_a_queued_job_is_run_by_its_own_task_only(alice):
    OfferFactory(owner=alice)
    job = job_create(user=alice, kind="export", format="csv")
    assert job_run(job_id=job.pk, task_id="another-task") == "skipped"
    assert job_run(job_id=job.pk, task_id=job.task_id) == "done"


# Restore -----------------------------------------------------------------------------------


@pytest.fixture
def doc(alice):
    PreferencesFactory(owner=alice)
    for i in range(5):
        offer = OfferFactory(owner=alice, name=f"O{i}")
        ScenarioFactory(owner=alice, offer=offer, name=f"S{i}")
    return backup_build(user=alice)


def _restore_killed_midway(bob, doc, monkeypatch) -> Job:
    """Start a restore that dies while writing its rows, leaving what a SIGKILL leaves."""
    job = restore_job_create(user=bob, raw=json.dumps(doc).encode())

    def dies(objs, *args, **kwargs):
        raise Killed

    with monkeypatch.context() as dying:
        dying.setattr(Scenario.objects, "bulk_create", dies)
        with pytest.raises(Killed):
            job_run(job_id=job.pk, task_id=job.task_id)
    job.refresh_from_db()
    assert (job.status, job.progress) == ("running", 5)
    # One transaction: the offers written before the scenarios went with it.
    assert not Offer.objects.filter(owner=bob).exists()
    assert job_path(job).is_file()  # kept for the redelivered message
    return job


def test_redelivered_restore_restores_from_the_start_once(
    alice, bob, doc, monkeypatch, django_capture_on_commit_callbacks
):
    job = _restore_killed_midway(bob, doc, monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):  # the upload goes once committed
        assert job_run_task.apply_async((job.pk,), task_id=job.task_id).get() == "done"
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100), job.errors
    assert job.counts["offers"] == 5 and job.counts["scenarios"] == 5
    assert job.file_path == ""
    assert without_meta(backup_build(user=bob)) == without_meta(doc)
    assert Offer.objects.count() == 10 and Scenario.objects.count() == 10
    assert not list((jobs.media_dir("restores")).rglob("*.json"))  # the upload is gone
    assert job_run(job_id=job.pk, task_id=job.task_id) == "skipped"


def test_another_task_cannot_take_a_running_restore(alice, bob, doc, monkeypatch):
    job = _restore_killed_midway(bob, doc, monkeypatch)
    before = row_counts()
    assert job_run(job_id=job.pk, task_id="another-task") == "skipped"
    assert job_run(job_id=job.pk) == "skipped"
    assert row_counts() == before
    job.refresh_from_db()
    assert job.status == "running"


def test_the_rows_and_the_jobs_end_are_one_commit(alice, bob, doc, monkeypatch):
    """Killed as the job is marked done: neither the rows nor the end were committed."""
    job = restore_job_create(user=bob, raw=json.dumps(doc).encode())
    real = jobs.job_end

    def dies_right_after(job, status, **kwargs):
        real(job, status, **kwargs)
        raise Killed

    with monkeypatch.context() as dying:
        dying.setattr(jobs, "job_end", dies_right_after)
        with pytest.raises(Killed):
            job_run(job_id=job.pk, task_id=job.task_id)
    job.refresh_from_db()
    assert (job.status, job.counts) == ("running", {})
    assert not Offer.objects.filter(owner=bob).exists()
    assert job_run(job_id=job.pk, task_id=job.task_id) == "done"
    assert Offer.objects.filter(owner=bob).count() == 5


def test_a_restore_whose_upload_is_gone_fails(alice, bob, doc, monkeypatch):
    job = _restore_killed_midway(bob, doc, monkeypatch)
    job_path(job).unlink()
    assert job_run(job_id=job.pk, task_id=job.task_id) == "failed"
    job.refresh_from_db()
    assert job.status == "failed" and job.errors == ["file: the upload is gone"]
    assert not Offer.objects.filter(owner=bob).exists()
