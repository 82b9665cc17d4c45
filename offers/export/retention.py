"""Delete background export files after EXPORT_RETENTION_DAYS (run daily by Celery beat)."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from offers.export.jobs import job_path, media_dir
from offers.models import Job


def export_files_purge(*, now: datetime | None = None) -> int:
    """Delete finished jobs and export files older than the retention; return files removed.

    Files no job points at (a crash between writing and recording) go by their age on disk.
    Running it twice is harmless.
    """
    cutoff = (now or timezone.now()) - timedelta(days=settings.EXPORT_RETENTION_DAYS)
    removed = 0
    old = Job.objects.filter(created_at__lt=cutoff, status__in=[Job.Status.DONE, Job.Status.FAILED])
    for job in old:
        path = job_path(job)
        if job.file_path and path.is_file():
            path.unlink(missing_ok=True)
            removed += 1
        Job.objects.filter(pk=job.pk).delete()
    root = media_dir("exports")
    if not root.is_dir():
        return removed
    kept = {
        Path(settings.MEDIA_ROOT) / p
        for p in Job.objects.exclude(file_path="").values_list("file_path", flat=True)
    }
    for path in root.glob("*/*"):
        if path.is_file() and path not in kept and path.stat().st_mtime < cutoff.timestamp():
            path.unlink(missing_ok=True)
            removed += 1
    # Empty per-user folders stay: a job may be about to write into one.
    return removed
