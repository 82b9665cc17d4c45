"""Render a comparison in any format, decide what is large, and run background export jobs."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from offers.export import LARGE_OPTIONS, LARGE_ROUNDS
from offers.export.comparison import Comparison, Progress, comparison_build
from offers.models import ExportJob, Offer

FORMATS = tuple(ExportJob.Format.values)


def comparison_render(comparison: Comparison, fmt: str) -> bytes:
    """Return the comparison as a file in one of FORMATS."""
    if fmt == "csv":
        from offers.export.csv_export import csv_bytes

        return csv_bytes(comparison)
    if fmt == "xlsx":
        from offers.export.xlsx import xlsx_bytes

        return xlsx_bytes(comparison)
    if fmt == "json":
        from offers.export.json_export import json_bytes

        return json_bytes(comparison)
    if fmt == "html":
        from offers.export.html import html_bytes

        return html_bytes(comparison)
    raise ValueError(f"unknown export format {fmt!r}")


def comparison_file(*, user: AbstractBaseUser, fmt: str, progress: Progress | None = None) -> bytes:
    """Build the user's comparison and return it as a file in ``fmt``."""
    return comparison_render(comparison_build(user=user, progress=progress), fmt)


def export_is_large(*, user: AbstractBaseUser) -> bool:
    """Return True when the export should run in the background (many options or rounds)."""
    from interviews.models import Round

    return (
        Offer.objects.filter(owner=user).count() > LARGE_OPTIONS
        or Round.objects.filter(owner=user).count() > LARGE_ROUNDS
    )


def export_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / "exports"


@transaction.atomic
def export_job_create(*, user: AbstractBaseUser, fmt: str) -> ExportJob:
    """Queue a background export; the task starts once this transaction commits."""
    from offers.tasks_export import export_comparison_task

    job = ExportJob(owner=user, format=fmt)
    job.full_clean()
    job.save()
    transaction.on_commit(lambda: export_comparison_task.delay(job.pk))
    return job


def export_job_run(*, job_id: int) -> str:
    """Build the file of a queued job; a job already claimed is left alone (safe to run twice)."""
    claimed = ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.QUEUED).update(
        status=ExportJob.Status.RUNNING, progress=5
    )
    if claimed != 1:
        return "skipped"
    job = ExportJob.objects.select_related("owner").get(pk=job_id)

    def progress(pct: int) -> None:
        ExportJob.objects.filter(pk=job_id).update(progress=pct)

    try:
        data = comparison_file(user=job.owner, fmt=job.format, progress=progress)
        progress(90)
        folder = export_dir() / str(job.owner_id)
        folder.mkdir(parents=True, exist_ok=True)
        # An unguessable name: the file is only ever served through the owner-checked view.
        name = f"{job.pk}-{secrets.token_hex(8)}.{job.format}"
        (folder / name).write_bytes(data)
    except Exception as exc:
        ExportJob.objects.filter(pk=job_id).update(
            status=ExportJob.Status.FAILED,
            error=str(exc)[:300] or exc.__class__.__name__,
            finished_at=timezone.now(),
        )
        raise
    ExportJob.objects.filter(pk=job_id).update(
        status=ExportJob.Status.DONE,
        progress=100,
        file_path=f"exports/{job.owner_id}/{name}",
        file_bytes=len(data),
        finished_at=timezone.now(),
    )
    return "done"


def export_job_path(job: ExportJob) -> Path:
    """Return the job's file on disk."""
    return Path(settings.MEDIA_ROOT) / job.file_path
