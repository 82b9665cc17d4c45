"""Render a comparison in a registered format, decide what is large, and run export jobs.

The export task calls `export_job_run`; this module never imports the task (queueing lives in
`offers.export.job_queue`), so the two import each other in one direction only.
"""

from __future__ import annotations

import contextlib
import gc
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone, translation

from accounts.locking import job_claim
from offers.board_cache import board_cached
from offers.export import LARGE_OPTIONS, LARGE_ROUNDS
from offers.export.comparison import Progress, comparison_build
from offers.export.formats import export_format
from offers.models import ExportJob, Offer

_paused = 0
_paused_lock = threading.Lock()
_was_enabled = True


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector while building an export (reference counting goes on).

    An export allocates a few hundred thousand small objects that live until it is written;
    each of the collector's full passes walks all of them (and everything the process has
    loaded) to find no garbage: a fifth of a thousand-option export's time. The collector runs
    again once every export of the process is done (stays off if it was off before); what the
    exports left in cycles is collected then.
    """
    global _paused, _was_enabled
    with _paused_lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
        _paused += 1
        gc.disable()
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()


def comparison_file(*, user: AbstractBaseUser, fmt: str, progress: Progress | None = None) -> bytes:
    """Build the user's comparison and return it as a file in the registered format ``fmt``.

    The board the pages use is taken when it is cached; otherwise one is built for the export
    alone, without the Monte Carlo band the comparison does not show.
    """
    writer = export_format(fmt)
    with gc_paused():
        board = board_cached(user=user)
        return writer.write(comparison_build(user=user, board=board, progress=progress))


def export_is_large(*, user: AbstractBaseUser) -> bool:
    """Return True when the export should run in the background (many options or rounds)."""
    from interviews.models import Round

    return (
        Offer.objects.filter(owner=user).count() > LARGE_OPTIONS
        or Round.objects.filter(owner=user).count() > LARGE_ROUNDS
    )


def export_needs_job(*, user: AbstractBaseUser, fmt: str) -> bool:
    """Return True when this export must be built by a background job instead of at once."""
    return not export_format(fmt).inline or export_is_large(user=user)


def export_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / "exports"


def export_job_claim(*, job_id: int, task_id: str | None = None) -> bool:
    """Claim a queued job (or take back its own dead attempt's: `job_claim`)."""
    return job_claim(ExportJob, job_id=job_id, task_id=task_id, progress=5)


def export_job_run(*, job_id: int, task_id: str | None = None) -> str:
    """Build the file of a queued job; a job already claimed is left alone (safe to run twice).

    ``task_id`` (the task's own id) lets a redelivered message take back the job its dead
    attempt left running, and build the file again from the start.
    """
    if not export_job_claim(job_id=job_id, task_id=task_id):
        return "skipped"
    job = ExportJob.objects.select_related("owner").get(pk=job_id)

    def progress(pct: int) -> None:
        ExportJob.objects.filter(pk=job_id).update(progress=pct)

    try:
        # A worker has no request: the labels are written in the language the export was asked in.
        with translation.override(job.language or settings.LANGUAGE_CODE):
            data = comparison_file(user=job.owner, fmt=job.format, progress=progress)
        progress(90)
        folder = export_dir() / str(job.owner_id)
        folder.mkdir(parents=True, exist_ok=True)
        # An unguessable name: the file is only ever served through the owner-checked view.
        name = f"{job.pk}-{secrets.token_hex(8)}.{export_format(job.format).extension}"
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
