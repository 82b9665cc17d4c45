"""Run large restores in the background (see `backup_restore_batched`).

The restore task calls `restore_job_run`; this module never imports the task (queueing lives
in `offers.export.job_queue`), so the two import each other in one direction only.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils import timezone

from accounts.models import RestoreJob
from offers.export.backup import BackupError, backup_restore_batched


def restore_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / "restores"


def restore_job_path(job: RestoreJob) -> Path:
    """Return the uploaded file of a restore job."""
    return Path(settings.MEDIA_ROOT) / job.file_path


def restore_job_run(*, job_id: int) -> str:
    """Restore a queued job's file; a job already claimed is left alone (safe to run twice)."""
    claimed = RestoreJob.objects.filter(pk=job_id, status=RestoreJob.Status.QUEUED).update(
        status=RestoreJob.Status.RUNNING, progress=1
    )
    if claimed != 1:
        return "skipped"
    job = RestoreJob.objects.select_related("owner").get(pk=job_id)
    path = restore_job_path(job)

    def progress(pct: int) -> None:
        RestoreJob.objects.filter(pk=job_id).update(progress=min(99, pct))

    try:
        result = backup_restore_batched(user=job.owner, raw=path.read_bytes(), progress=progress)
    except BackupError as exc:
        _finish(job_id, status=RestoreJob.Status.FAILED, errors=exc.errors)
        return "failed"
    except Exception as exc:
        _finish(job_id, status=RestoreJob.Status.FAILED, errors=[str(exc)[:300]])
        raise
    finally:
        path.unlink(missing_ok=True)  # the upload is not kept, whatever happened
    counts = {**result.counts, "preferences": int(result.preferences)}
    _finish(job_id, status=RestoreJob.Status.DONE, counts=counts)
    return "done"


def _finish(job_id: int, *, status: str, **values: object) -> None:
    RestoreJob.objects.filter(pk=job_id).update(
        status=status,
        progress=100 if status == RestoreJob.Status.DONE else 0,
        file_path="",
        finished_at=timezone.now(),
        **values,
    )
