"""Background export of large comparisons, and restore of large backups.

The task imports its service inside its body; `offers.export.job_queue` imports the task at
module level to queue it, and `offers.export.jobs` never imports this module: no cycle. Time
limits: TASK_TIME_LIMITS in config/settings.py.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(bind=True, acks_late=True)
def export_comparison_task(self, job_id: int) -> str:  # type: ignore[no-untyped-def]
    """Build the file of one export job; running it twice is harmless.

    Its own task id lets a message redelivered after its worker died take the job back.
    """
    from offers.export.jobs import export_job_run

    return export_job_run(job_id=job_id, task_id=self.request.id)


@shared_task(acks_late=True)
def export_files_purge_task() -> int:
    """Delete export files past EXPORT_RETENTION_DAYS (scheduled by Celery beat)."""
    from offers.export.retention import export_files_purge

    return export_files_purge()


@shared_task(bind=True, acks_late=True)
def backup_restore_task(self, job_id: int) -> str:  # type: ignore[no-untyped-def]
    """Restore one large backup in batches; running it twice is harmless.

    Its own task id lets a message redelivered after its worker died take the job back.
    """
    from offers.export.restore_jobs import restore_job_run

    return restore_job_run(job_id=job_id, task_id=self.request.id)
