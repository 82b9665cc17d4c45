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
