"""`manage.py purge`: the beat's two clean-up jobs once, from cron, without a shell one-liner."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.utils import timezone

from accounts.models import Revision
from offers.models import Job

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def trash_entry(owner, *, days_old: int) -> Revision:
    entry = Revision.objects.create(
        owner=owner,
        content_type=ContentType.objects.get_for_model(owner),
        object_id=owner.pk,
        object_repr=f"{days_old} days old",
        action=Revision.Action.DELETED,
        snapshot=[],
    )
    Revision.objects.filter(pk=entry.pk).update(
        created_at=timezone.now() - timedelta(days=days_old)
    )
    return entry


def export_job(owner, media: Path, *, days_old: int) -> Job:
    folder = media / "exports" / str(owner.pk)
    folder.mkdir(parents=True, exist_ok=True)
    job = Job.objects.create(owner=owner, kind="export", format="csv", status=Job.Status.DONE)
    (folder / f"{job.pk}-x.csv").write_bytes(b"a,b\n")
    when = timezone.now() - timedelta(days=days_old)
    Job.objects.filter(pk=job.pk).update(
        file_path=f"exports/{owner.pk}/{job.pk}-x.csv", created_at=when, finished_at=when
    )
    job.refresh_from_db()
    return job


def test_purge_deletes_old_trash_and_old_export_files_only(alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.EXPORT_RETENTION_DAYS = 7
    trash_entry(alice, days_old=31)
    new_trash = trash_entry(alice, days_old=29)
    old_job, new_job = (
        export_job(alice, tmp_path, days_old=8),
        export_job(alice, tmp_path, days_old=1),
    )
    edit = Revision.objects.create(
        owner=alice,
        content_type=ContentType.objects.get_for_model(alice),
        object_id=alice.pk,
        object_repr="an edit, not trash",
        action=Revision.Action.CHANGED,
        snapshot=[],
    )
    Revision.objects.filter(pk=edit.pk).update(created_at=timezone.now() - timedelta(days=90))

    out = io.StringIO()
    call_command("purge", stdout=out)

    assert out.getvalue().strip() == (
        "Deleted 1 trash entries older than 30 days and 1 export files older than 7 days; "
        "0 unclaimed jobs sent again or failed."
    )
    assert set(Revision.objects.values_list("pk", flat=True)) == {new_trash.pk, edit.pk}
    assert not (tmp_path / old_job.file_path).exists()
    assert (tmp_path / new_job.file_path).is_file()
    assert set(Job.objects.values_list("pk", flat=True)) == {new_job.pk}

    again = io.StringIO()
    call_command("purge", stdout=again)  # twice is harmless
    assert again.getvalue().startswith("Deleted 0 trash entries")


def test_purge_sweeps_the_jobs_no_worker_claimed_as_beat_does(alice, settings, tmp_path):
    """Without beat (cron), a job whose message was lost still ends: purge sends it again."""
    from offers.export.jobs import job_create
    from tests.factories import OfferFactory

    settings.MEDIA_ROOT = tmp_path
    OfferFactory(owner=alice, name="Acme")
    job = job_create(user=alice, kind="export", format="csv")  # no commit: never published
    Job.objects.filter(pk=job.pk).update(progress_at=timezone.now() - timedelta(hours=1))
    out = io.StringIO()
    call_command("purge", stdout=out)
    assert out.getvalue().strip().endswith("; 1 unclaimed jobs sent again or failed.")
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE  # sent again: eager Celery ran it


def test_the_docs_give_the_command_not_a_shell_one_liner():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "manage.py purge" in readme
    for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        assert "shell -c" not in doc.read_text(encoding="utf-8"), doc.name
