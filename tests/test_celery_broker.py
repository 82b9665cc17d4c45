"""A real task through a real Redis broker and a real worker process (CI's second pass)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from accounts.models import Revision


@pytest.mark.broker
def test_task_runs_on_real_worker(celery_worker_process, django_user_model):
    from accounts.tasks import trash_purge_task
    from config.celery import app

    assert not app.conf.task_always_eager
    user = django_user_model.objects.create_user("worker-test", password="x" * 14)
    old = Revision.objects.create(
        owner=user,
        content_type=ContentType.objects.get_for_model(user),
        object_id=user.pk,
        object_repr="old",
        action=Revision.Action.DELETED,
        snapshot=[],
        created_at=timezone.now() - timedelta(days=45),
    )
    trash_purge_task.delay()
    deadline = time.monotonic() + 60
    while Revision.objects.filter(pk=old.pk).exists() and time.monotonic() < deadline:
        time.sleep(0.3)
    assert not Revision.objects.filter(pk=old.pk).exists()


@pytest.mark.broker
def test_an_export_and_a_restore_job_run_on_real_worker(celery_worker_process, django_user_model):
    """The one job task, published on commit to the broker, run by the worker for each kind."""
    import json

    from offers.export.backup import backup_build
    from offers.export.jobs import job_create, job_path, restore_job_create
    from offers.models import Job, Offer
    from tests.factories import OfferFactory

    alice = django_user_model.objects.create_user("worker-export", password="x" * 14)
    bob = django_user_model.objects.create_user("worker-restore", password="x" * 14)
    OfferFactory(owner=alice, name="Acme")
    export = job_create(user=alice, kind=Job.Kind.EXPORT, format="csv")
    restore = restore_job_create(user=bob, raw=json.dumps(backup_build(user=alice)).encode())
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if not Job.objects.filter(status__in=["queued", "running"]).exists():
            break
        time.sleep(0.3)
    export.refresh_from_db()
    restore.refresh_from_db()
    assert (export.status, restore.status) == ("done", "done"), (export.errors, restore.errors)
    assert job_path(export).read_bytes().startswith(b"\xef\xbb\xbfoption_key")
    assert restore.counts["offers"] == 1 and Offer.objects.get(owner=bob).name == "Acme"
