"""Queue background exports and restores: the one export module that imports the export task.

The task imports `offers.export.jobs` inside its body and nothing imports this module back,
so there is no import cycle between the export code and its task.

Each job keeps the id of the task published for it: a message redelivered after its worker
died carries the same id, and only that message may take back a job left "running". A job
whose message cannot be published is failed at once, with a message its page shows.
"""

from __future__ import annotations

import dataclasses
import secrets
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.idempotency import form_token_claim
from accounts.models import RestoreJob
from config.middleware import PUBLISH_ERRORS, ServiceUnavailable
from offers.export.restore import (
    RESTORE_JOB_RECORDS,
    RestoreResult,
    backup_parse,
    backup_record_count,
    backup_restore,
)
from offers.export.restore_jobs import restore_dir
from offers.models import ExportJob
from offers.tasks_export import backup_restore_task, export_comparison_task


def _not_published() -> str:
    return _("The job queue could not be reached, so this job never started. Try again shortly.")


@transaction.atomic
def export_job_create(*, user: AbstractBaseUser, fmt: str, language: str = "") -> ExportJob:
    """Queue a background export in ``language``; the task starts once this transaction commits."""
    job = ExportJob(owner=user, format=fmt, language=language, task_id=uuid.uuid4().hex)
    job.full_clean()
    job.save()
    job_pk, task_id = job.pk, job.task_id
    transaction.on_commit(lambda: _publish_export(job_pk, task_id))
    return job


def _publish_export(job_id: int, task_id: str) -> None:
    try:
        export_comparison_task.apply_async((job_id,), task_id=task_id)
    except PUBLISH_ERRORS as exc:
        failed = ExportJob.objects.filter(
            pk=job_id, task_id=task_id, status=ExportJob.Status.QUEUED
        ).update(
            status=ExportJob.Status.FAILED,
            error=_not_published()[:300],
            finished_at=timezone.now(),
        )
        if not failed:
            raise  # the task ran (eager tasks run inside the publish) and failed on its own
        raise ServiceUnavailable("The task queue") from exc


@transaction.atomic
def restore_job_create(*, user: AbstractBaseUser, raw: bytes, replace: bool = False) -> RestoreJob:
    """Keep an uploaded backup and queue its restore; the task starts once this commits."""
    folder = restore_dir() / str(user.pk)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{secrets.token_hex(12)}.json"
    path.write_bytes(raw)
    job = RestoreJob.objects.create(
        owner=user,
        file_path=path.relative_to(settings.MEDIA_ROOT).as_posix(),
        task_id=uuid.uuid4().hex,
        replace=replace,
    )
    job_pk, task_id = job.pk, job.task_id
    transaction.on_commit(lambda: _publish_restore(job_pk, task_id, path))
    return job


def _publish_restore(job_id: int, task_id: str, path: Path) -> None:
    try:
        backup_restore_task.apply_async((job_id,), task_id=task_id)
    except PUBLISH_ERRORS as exc:
        failed = RestoreJob.objects.filter(
            pk=job_id, task_id=task_id, status=RestoreJob.Status.QUEUED
        ).update(
            status=RestoreJob.Status.FAILED,
            errors=[_not_published()],
            file_path="",
            finished_at=timezone.now(),
        )
        if not failed:
            raise  # the task ran (eager tasks run inside the publish) and failed on its own
        path.unlink(missing_ok=True)  # nothing will restore it
        raise ServiceUnavailable("The task queue") from exc


@dataclasses.dataclass(frozen=True)
class RestoreStarted:
    """What posting a backup did: restored it at once (``result``) or queued ``job``."""

    result: RestoreResult | None = None
    job: RestoreJob | None = None


@transaction.atomic
def backup_import_start(
    *, user: AbstractBaseUser, raw: bytes, form_token: str = "", replace: bool = False
) -> RestoreStarted:
    """Restore a backup now, or queue it as a job when it holds many records.

    With ``form_token`` (the restore form's one-time token) a second post of the same form
    raises DuplicateSubmission (its ``object_id``: the first post's job, if it made one)
    instead of restoring the file again. A file refused with BackupError keeps its token free,
    so the same form can send a corrected file. ``replace``: the user's data is replaced by
    the backup's (see `backup_restore`).
    """
    claim = form_token_claim(user=user, token=form_token) if form_token else None
    if backup_record_count(backup_parse(raw)) > RESTORE_JOB_RECORDS:
        started = RestoreStarted(job=restore_job_create(user=user, raw=raw, replace=replace))
    else:
        started = RestoreStarted(result=backup_restore(user=user, raw=raw, replace=replace))
    if claim is not None and started.job is not None:
        claim.object_id = started.job.pk
        claim.save(update_fields=["object_id"])
    return started
