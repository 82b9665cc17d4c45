"""Run large restores in the background (see `backup_restore_batched`).

The restore task calls `restore_job_run`; this module never imports the task (queueing lives
in `offers.export.job_queue`), so the two import each other in one direction only.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from accounts.locking import job_claim
from accounts.models import RestoreJob
from accounts.services import account_delete
from offers.export.backup import BackupError
from offers.export.restore import RestoreResult, backup_restore_batched


def restore_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / "restores"


def restore_job_path(job: RestoreJob) -> Path:
    """Return the uploaded file of a restore job."""
    return Path(settings.MEDIA_ROOT) / job.file_path


def restore_job_claim(*, job_id: int, task_id: str | None = None) -> bool:
    """Claim a queued job (or take back its own dead attempt's: `job_claim`)."""
    return job_claim(RestoreJob, job_id=job_id, task_id=task_id, progress=1)


def restore_leftovers_delete(job: RestoreJob) -> None:
    """Delete what an attempt killed mid-way left: its stand-in user and the rows written for it."""
    if job.stand_in is not None:
        with transaction.atomic():
            account_delete(user=job.stand_in)
        job.stand_in = None


def restore_job_run(*, job_id: int, task_id: str | None = None) -> str:
    """Restore a queued job's file; a job already claimed is left alone (safe to run twice).

    ``task_id`` (the task's own id) lets a redelivered message take back the job its dead
    attempt left running: what that attempt wrote is deleted first, then the file is restored
    from the start.
    """
    if not restore_job_claim(job_id=job_id, task_id=task_id):
        return "skipped"
    job = RestoreJob.objects.select_related("owner", "stand_in").get(pk=job_id)
    restore_leftovers_delete(job)
    path = restore_job_path(job)
    if not job.file_path or not path.is_file():
        _finish(job_id, status=RestoreJob.Status.FAILED, errors=["file: the upload is gone"])
        return "failed"

    def progress(pct: int) -> None:
        running = RestoreJob.objects.filter(pk=job_id, status=RestoreJob.Status.RUNNING)
        running.update(progress=min(99, pct))  # a job done (in the hand-over) stays at 100

    def stand_in_made(stand_in: AbstractBaseUser) -> None:
        RestoreJob.objects.filter(pk=job_id).update(stand_in=stand_in)

    def handed_over(result: RestoreResult) -> None:
        # In the transaction that hands the rows over: a worker killed after it finds the job
        # done, never restores the file twice.
        counts = {**result.counts, "preferences": int(result.preferences)}
        _finish(job_id, status=RestoreJob.Status.DONE, counts=counts)

    try:
        backup_restore_batched(
            user=job.owner,
            raw=path.read_bytes(),
            progress=progress,
            stand_in_made=stand_in_made,
            handed_over=handed_over,
            replace=job.replace,
        )
    except BackupError as exc:
        _finish(job_id, status=RestoreJob.Status.FAILED, errors=exc.errors)
        path.unlink(missing_ok=True)
        return "failed"
    except Exception as exc:
        _finish(job_id, status=RestoreJob.Status.FAILED, errors=[str(exc)[:300]])
        path.unlink(missing_ok=True)
        raise
    # Kept until the job ends: a worker killed mid-way leaves it for the redelivered message.
    path.unlink(missing_ok=True)
    return "done"


def _finish(job_id: int, *, status: str, **values: object) -> None:
    """End a running job (one already done, in the hand-over, stays done)."""
    RestoreJob.objects.filter(pk=job_id, status=RestoreJob.Status.RUNNING).update(
        status=status,
        progress=100 if status == RestoreJob.Status.DONE else 0,
        file_path="",
        stand_in=None,
        finished_at=timezone.now(),
        **values,
    )
