"""The periodic jobs: a real `celery beat` sends them through Redis to a real worker (CI pass 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from accounts.models import Revision
from offers.models import Job
from tests.conftest import ROOT, _worker_env


@pytest.fixture
def periodic_env(monkeypatch, settings, tmp_path) -> Path:
    """Point the worker and beat at a scratch MEDIA_ROOT and run the jobs every second."""
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path))
    monkeypatch.setenv("CLEANUP_EVERY_SECONDS", "1")
    monkeypatch.setenv("EXPORT_RETENTION_DAYS", "7")
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def beat_process(periodic_env, celery_worker_process, tmp_path) -> Iterator[subprocess.Popen]:
    """Start `celery beat` (as `make beat` does) against the real broker."""
    log = ROOT / ".pytest-worker.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=INFO",
            f"--schedule={tmp_path / 'celerybeat-schedule'}",
            "--max-interval=1",
        ],
        cwd=ROOT,
        env=_worker_env(),
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)


@pytest.mark.broker
def test_beat_purges_old_trash_and_export_files(periodic_env, beat_process, django_user_model):
    media = periodic_env
    user = django_user_model.objects.create_user("beat-test", password="x" * 14)
    old_trash = Revision.objects.create(
        owner=user,
        content_type=ContentType.objects.get_for_model(user),
        object_id=user.pk,
        object_repr="old",
        action=Revision.Action.DELETED,
        snapshot=[],
        created_at=timezone.now() - timedelta(days=31),
    )
    recent_trash = Revision.objects.create(
        owner=user,
        content_type=ContentType.objects.get_for_model(user),
        object_id=user.pk,
        object_repr="recent",
        action=Revision.Action.DELETED,
        snapshot=[],
        created_at=timezone.now() - timedelta(days=29),
    )
    folder = media / "exports" / str(user.pk)
    folder.mkdir(parents=True)
    files = {}
    for label, days in (("old", 8), ("recent", 1)):
        job = Job.objects.create(owner=user, kind="export", format="csv", status=Job.Status.DONE)
        (folder / f"{job.pk}.csv").write_bytes(b"a\n")
        when = timezone.now() - timedelta(days=days)
        Job.objects.filter(pk=job.pk).update(
            file_path=f"exports/{user.pk}/{job.pk}.csv", created_at=when, finished_at=when
        )
        files[label] = (job.pk, folder / f"{job.pk}.csv")

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if not Revision.objects.filter(pk=old_trash.pk).exists() and not files["old"][1].exists():
            break
        assert beat_process.poll() is None, "celery beat exited; see .pytest-worker.log"
        time.sleep(0.5)

    assert not Revision.objects.filter(pk=old_trash.pk).exists()
    assert Revision.objects.filter(pk=recent_trash.pk).exists()
    assert not files["old"][1].exists()
    assert not Job.objects.filter(pk=files["old"][0]).exists()
    assert files["recent"][1].is_file()
    assert Job.objects.filter(pk=files["recent"][0]).exists()
