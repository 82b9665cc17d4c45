"""Export files are deleted after EXPORT_RETENTION_DAYS, and with the account they belong to."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import account_delete
from offers.export.retention import export_files_purge
from offers.models import Job

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.EXPORT_RETENTION_DAYS = 7
    return tmp_path


def finished_job(owner, media, *, days_old: int, status=Job.Status.DONE) -> Job:
    """Return a job whose file exists on disk, asked for `days_old` days ago."""
    folder = media / "exports" / str(owner.pk)
    folder.mkdir(parents=True, exist_ok=True)
    job = Job.objects.create(owner=owner, kind="export", format="csv", status=status)
    name = f"{job.pk}-abc.csv"
    (folder / name).write_bytes(b"a,b\n")
    when = timezone.now() - timedelta(days=days_old)
    Job.objects.filter(pk=job.pk).update(
        file_path=f"exports/{owner.pk}/{name}", created_at=when, finished_at=when
    )
    job.refresh_from_db()
    return job


def old_file(path, days_old: int):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x")
    stamp = (timezone.now() - timedelta(days=days_old)).timestamp()
    os.utime(path, (stamp, stamp))
    return path


def test_old_export_files_and_jobs_are_deleted_recent_ones_kept(alice, bob, media):
    old = finished_job(alice, media, days_old=8)
    recent = finished_job(alice, media, days_old=2)
    bobs_old = finished_job(bob, media, days_old=30, status=Job.Status.FAILED)
    queued = Job.objects.create(owner=alice, kind="export", format="csv")
    Job.objects.filter(pk=queued.pk).update(created_at=timezone.now() - timedelta(days=9))

    assert export_files_purge() == 2

    assert not (media / old.file_path).exists()
    assert not (media / bobs_old.file_path).exists()
    assert (media / recent.file_path).is_file()
    assert set(Job.objects.values_list("pk", flat=True)) == {recent.pk, queued.pk}
    assert export_files_purge() == 0  # twice is harmless


def test_files_no_job_points_at_go_by_their_age(alice, media):
    stray_old = old_file(media / "exports" / "999" / "1-dead.xlsx", days_old=10)
    stray_new = old_file(media / "exports" / "999" / "2-live.xlsx", days_old=1)
    outside = old_file(media / "elsewhere" / "keep.txt", days_old=100)

    assert export_files_purge() == 1

    assert not stray_old.exists()
    assert stray_new.exists()
    assert outside.exists()


def test_retention_follows_the_setting(alice, media, settings):
    job = finished_job(alice, media, days_old=3)
    settings.EXPORT_RETENTION_DAYS = 2
    export_files_purge()
    assert not Job.objects.filter(pk=job.pk).exists()
    assert not (media / job.file_path).exists()


def test_old_restore_jobs_go_too_and_a_queued_restores_upload_stays(alice, media):
    Job.objects.create(
        owner=alice, kind="restore", status="failed", created_at=timezone.now() - timedelta(days=8)
    )
    upload = old_file(media / "restores" / str(alice.pk) / "x.json", days_old=30)
    queued = Job.objects.create(
        owner=alice,
        kind="restore",
        file_path=f"restores/{alice.pk}/x.json",
        created_at=timezone.now() - timedelta(days=30),
    )
    assert export_files_purge() == 0
    assert set(Job.objects.values_list("pk", flat=True)) == {queued.pk} and upload.is_file()


def test_account_deletion_removes_its_jobs_and_their_files(
    alice, bob, media, django_capture_on_commit_callbacks
):
    alices = finished_job(alice, media, days_old=0)
    bobs = finished_job(bob, media, days_old=0)
    folder = media / "exports" / str(alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        account_delete(user=alice)
    assert not Job.objects.filter(owner_id=alices.owner_id).exists()  # the foreign key cascades
    assert not (media / alices.file_path).exists()
    assert not folder.exists()
    assert (media / bobs.file_path).is_file()


def test_beat_schedule_names_registered_tasks(settings):
    from config.celery import app

    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled == {
        "accounts.tasks.trash_purge_task",
        "offers.tasks.export_files_purge_task",
        "offers.tasks.jobs_unclaimed_sweep_task",
        "offers.tasks.reminders_send_task",
    }
    assert scheduled <= set(app.tasks)
