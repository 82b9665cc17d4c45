"""Queue background exports: the one export module that imports the export task.

The task imports `offers.export.jobs` inside its body and nothing imports this module back,
so there is no import cycle between the export code and its task.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from accounts.models import RestoreJob
from offers.export.restore_jobs import restore_dir
from offers.models import ExportJob
from offers.tasks_export import backup_restore_task, export_comparison_task


@transaction.atomic
def export_job_create(*, user: AbstractBaseUser, fmt: str, language: str = "") -> ExportJob:
    """Queue a background export in ``language``; the task starts once this transaction commits."""
    job = ExportJob(owner=user, format=fmt, language=language)
    job.full_clean()
    job.save()
    transaction.on_commit(lambda: export_comparison_task.delay(job.pk))
    return job


@transaction.atomic
def restore_job_create(*, user: AbstractBaseUser, raw: bytes) -> RestoreJob:
    """Keep an uploaded backup and queue its restore; the task starts once this commits."""
    folder = restore_dir() / str(user.pk)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{secrets.token_hex(12)}.json"
    path.write_bytes(raw)
    job = RestoreJob.objects.create(
        owner=user, file_path=path.relative_to(settings.MEDIA_ROOT).as_posix()
    )
    transaction.on_commit(lambda: backup_restore_task.delay(job.pk))
    return job
