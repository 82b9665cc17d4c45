"""Background exports and restores (`offers.models.Job`): when, and their queue, claim, run, end.

A job is published on commit with a task id it keeps: a message redelivered after its worker
died carries the same id, and only that message may take back a job left "running". A job with
no progress for longer than its task's hard time limit has stalled: its owner may restart it;
one queued too long with no claim is sent again, then failed (`jobs_unclaimed_sweep`).
The task is defined here, beside what it runs and what queues it, so nothing imports back.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import secrets
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.idempotency import form_token_claim
from config.middleware import PUBLISH_ERRORS, ServiceUnavailable
from interviews.models import Round
from offers.board_cache import board_cached
from offers.export import LARGE_OPTIONS, LARGE_RECORDS, LARGE_ROUNDS
from offers.export.backup import BackupError
from offers.export.comparison import Progress, comparison_build
from offers.export.formats import export_format
from offers.export.restore import RestoreResult, backup_restore, backup_write
from offers.export.restore_check import backup_check
from offers.export.restore_parse import backup_parse, backup_record_count
from offers.models import Job, Offer


def comparison_file(*, user: AbstractBaseUser, fmt: str, progress: Progress | None = None) -> bytes:
    """Build the user's comparison and return it as a file in the registered format ``fmt``.

    The board the pages use is taken when it is cached; otherwise one is built for the export
    alone, without the Monte Carlo band the comparison does not show.
    """
    board = board_cached(user=user)
    return export_format(fmt).write(comparison_build(user=user, board=board, progress=progress))


def export_is_large(*, user: AbstractBaseUser) -> bool:
    """Return True when the export should run in the background (many options or rounds)."""
    return (
        Offer.objects.filter(owner=user).count() > LARGE_OPTIONS
        or Round.objects.filter(owner=user).count() > LARGE_ROUNDS
    )


def export_needs_job(*, user: AbstractBaseUser, fmt: str) -> bool:
    """Return True when this export must be built by a background job instead of at once."""
    return not export_format(fmt).inline or export_is_large(user=user)


def media_dir(name: str) -> Path:
    """Return a MEDIA_ROOT folder of per-user files ("exports", "restores")."""
    return Path(settings.MEDIA_ROOT) / name


def job_path(job: Job) -> Path:
    """Return the job's file: an export's download, a restore's upload."""
    return Path(settings.MEDIA_ROOT) / job.file_path


# Queue -------------------------------------------------------------------------------------


@transaction.atomic
def job_create(*, user: AbstractBaseUser, kind: str, **fields: Any) -> Job:
    """Save a queued job of ``kind``; its task is published once this transaction commits.

    It keeps the language it was asked in (the request's): what a worker writes for its owner,
    an export's labels or a failure's reason, is in it.
    """
    fields.setdefault("language", translation.get_language() or "")
    job = Job(owner=user, kind=kind, task_id=uuid.uuid4().hex, **fields)
    job.full_clean(validate_constraints=False)  # the database holds them (IntegrityError)
    job.save()
    transaction.on_commit(lambda: _publish(job))
    return job


def _publish(job: Job) -> None:
    try:
        job_run_task.apply_async((job.pk,), task_id=job.task_id)
    except PUBLISH_ERRORS as exc:
        message = _(
            "The job queue could not be reached, so this job never started. Try again shortly."
        )
        if not job_end(job, Job.Status.FAILED, was=Job.Status.QUEUED, errors=[message]):
            raise  # the task ran (eager tasks run inside the publish) and failed on its own
        raise ServiceUnavailable("The task queue") from exc


def restore_job_create(*, user: AbstractBaseUser, raw: bytes, replace: bool = False) -> Job:
    """Keep an uploaded backup and queue its restore; BackupError if that file is restoring."""
    sha256 = hashlib.sha256(raw).hexdigest()
    restoring = BackupError(
        [_("This backup is already being restored: see its page under Export.")]
    )
    if _restoring(user, sha256):
        raise restoring
    folder = media_dir("restores") / str(user.pk)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{secrets.token_hex(12)}.json"
    path.write_bytes(raw)
    file_path = path.relative_to(settings.MEDIA_ROOT).as_posix()
    fields = {"file_path": file_path, "replace": replace, "upload_sha256": sha256}
    try:
        return job_create(user=user, kind=Job.Kind.RESTORE, **fields)
    except IntegrityError:  # a post of the same file got there first: job_one_restore_per_file
        path.unlink(missing_ok=True)
        raise restoring from None


def _restoring(user: AbstractBaseUser, sha256: str) -> bool:
    unended = (Job.Status.QUEUED, Job.Status.RUNNING)
    return Job.objects.filter(owner=user, upload_sha256=sha256, status__in=unended).exists()


@transaction.atomic
def backup_import_start(
    *, user: AbstractBaseUser, raw: bytes, form_token: str = "", replace: bool = False
) -> RestoreResult | Job:
    """Restore a backup now (its result), or queue it as a job if it has over LARGE_RECORDS.

    With ``form_token`` (the restore form's one-time token) a second post of the same form
    raises DuplicateSubmission (its ``object_id``: the first post's job, if it made one)
    instead of restoring the file again. A file refused with BackupError keeps its token free,
    so the same form can send a corrected file. ``replace``: see `backup_restore`.
    """
    claim = form_token_claim(user=user, token=form_token) if form_token else None
    if backup_record_count(backup_parse(raw)) <= LARGE_RECORDS:
        return backup_restore(user=user, raw=raw, replace=replace)
    job = restore_job_create(user=user, raw=raw, replace=replace)
    if claim is not None:
        claim.object_id = job.pk
        claim.save(update_fields=["object_id"])
    return job


# Run ---------------------------------------------------------------------------------------


def job_claim(*, job_id: int, task_id: str | None = None) -> bool:
    """Claim a queued job with a compare-and-set; False if another task has it.

    A message redelivered after its worker died carries the same task id, so it may take back
    the job that the dead attempt left "running" (and no other message may).
    """
    claimable = models.Q(status=Job.Status.QUEUED)
    if task_id:
        claimable |= models.Q(status=Job.Status.RUNNING, task_id=task_id)
    rows = Job.objects.filter(claimable, pk=job_id)
    if task_id:
        rows = rows.filter(models.Q(task_id=task_id) | models.Q(task_id=""))
    return rows.update(status=Job.Status.RUNNING, progress=5, progress_at=timezone.now()) == 1


def stalled_before(task_name: str) -> dt.datetime:
    """Return the task's hard time limit ago: a run whose last progress is older has no worker."""
    limits = settings.TASK_TIME_LIMITS.get(task_name, (0, settings.CELERY_TASK_TIME_LIMIT))
    return timezone.now() - dt.timedelta(seconds=limits[1])


def job_stalled(job: Job) -> bool:
    """Return True when the running job stopped answering (see `stalled_before`)."""
    return job.status == Job.Status.RUNNING and job.progress_at < stalled_before(job_run_task.name)


def job_restart(job: Job) -> bool:
    """Queue a stalled job again, once (one conditional update), under a new task id."""
    task_id = uuid.uuid4().hex
    fields = {"status": Job.Status.QUEUED, "progress": 0, "progress_at": timezone.now()}
    fields["resent_at"] = None  # a new queueing: the sweep may send it again once
    cutoff = stalled_before(job_run_task.name)
    rows = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, progress_at__lt=cutoff)
    if not rows.update(**fields, task_id=task_id):
        return False
    job.task_id = task_id
    transaction.on_commit(lambda: _publish(job))
    return True


def jobs_unclaimed_sweep() -> int:
    """Send again, once, each job queued JOB_UNCLAIMED_SECONDS unclaimed; fail it after as long.

    Its message was lost (a Redis restarted without persistence): it would stay queued for ever.
    The new message's task id is new: the first, if only late, finds nothing to claim (beat).
    """
    now = timezone.now()
    cutoff = now - dt.timedelta(seconds=settings.JOB_UNCLAIMED_SECONDS)
    queued = Job.objects.filter(status=Job.Status.QUEUED)
    count = 0
    for job in queued.filter(resent_at__lt=cutoff):
        with translation.override(job.language or settings.LANGUAGE_CODE):
            reason = _("No worker picked this job up, even when it was sent again. Try again.")
        count += job_end(job, Job.Status.FAILED, was=Job.Status.QUEUED, errors=[reason])
    for job in queued.filter(resent_at=None, progress_at__lt=cutoff):
        task_id = uuid.uuid4().hex
        rows = queued.filter(pk=job.pk, task_id=job.task_id, resent_at=None)
        if rows.update(task_id=task_id, resent_at=now):
            job.task_id = task_id
            with contextlib.suppress(ServiceUnavailable):  # failed with its reason
                _publish(job)
            count += 1
    return count


def job_end(job: Job, status: str, *, was: str = Job.Status.RUNNING, **values: Any) -> bool:
    """End a job still ``was``, and delete a restore's upload; False if it was not ``was``."""
    if job.kind == Job.Kind.RESTORE:
        values["file_path"] = ""
    if status == Job.Status.DONE:
        values["progress"] = 100
    ended = Job.objects.filter(pk=job.pk, status=was).update(
        status=status, finished_at=timezone.now(), **values
    )
    if ended and job.kind == Job.Kind.RESTORE and job.file_path:
        upload = job_path(job)
        transaction.on_commit(lambda: upload.unlink(missing_ok=True))
    return bool(ended)


def _export(job: Job) -> None:
    """Build an export job's file and end the job with it."""

    def progress(pct: int) -> None:
        Job.objects.filter(pk=job.pk).update(progress=pct, progress_at=timezone.now())

    # A worker has no request: the labels are written in the language the export was asked in.
    with translation.override(job.language or settings.LANGUAGE_CODE):
        data = comparison_file(user=job.owner, fmt=job.format, progress=progress)
    progress(90)
    folder = media_dir("exports") / str(job.owner_id)
    folder.mkdir(parents=True, exist_ok=True)
    # An unguessable name: the file is only ever served through the owner-checked view.
    name = f"{job.pk}-{secrets.token_hex(8)}.{export_format(job.format).extension}"
    (folder / name).write_bytes(data)
    job_end(job, Job.Status.DONE, file_path=f"exports/{job.owner_id}/{name}", file_bytes=len(data))


def _restore(job: Job) -> None:
    """Restore a restore job's upload as `backup_restore` does: all of it, or nothing.

    The file is checked first, outside the transaction (on SQLite that holds the write lock);
    the rows and the job's end are then one commit: a worker killed before it restored nothing
    (the redelivered message restores from the start), after it the job is done.
    """
    path = job_path(job)
    if not job.file_path or not path.is_file():
        raise BackupError(["file: the upload is gone"])
    checked = backup_check(user=job.owner, doc=backup_parse(path.read_bytes()), replace=job.replace)
    with transaction.atomic():
        result = backup_write(checked)
        counts = {**result.counts, "preferences": int(result.preferences)}
        job_end(job, Job.Status.DONE, counts=counts)


RUNNERS: dict[str, Callable[[Job], None]] = {Job.Kind.EXPORT: _export, Job.Kind.RESTORE: _restore}


def job_run(*, job_id: int, task_id: str | None = None) -> str:
    """Run a queued job (or, with its own ``task_id``, take back its dead attempt's); else skip."""
    if not job_claim(job_id=job_id, task_id=task_id):
        return "skipped"
    job = Job.objects.select_related("owner").get(pk=job_id)
    try:
        RUNNERS[job.kind](job)
    except BackupError as exc:
        job_end(job, Job.Status.FAILED, errors=exc.errors)
        return "failed"
    except Exception as exc:
        job_end(job, Job.Status.FAILED, errors=[str(exc)[:300] or exc.__class__.__name__])
        raise
    return "done"


@shared_task(bind=True, acks_late=True)
def job_run_task(self, job_id: int) -> str:  # type: ignore[no-untyped-def]
    """Run one background job (`job_run`, with the task's own id); running it twice is harmless."""
    return job_run(job_id=job_id, task_id=self.request.id)
