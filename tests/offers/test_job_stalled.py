"""Every job ends: a running job whose worker stopped answering is shown as stalled, restarted once.

A job (or a scenario's Monte Carlo) left "running" is stalled once its last progress report is
older than its task's hard time limit (TASK_TIME_LIMITS): the tests move the suite's clock past
that limit with time-machine, then restart it by the page's button (eager Celery runs it).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from offers.export.backup import BackupError, backup_build
from offers.export.jobs import job_create, job_run, restore_job_create
from offers.models import Job, Scenario
from tests.factories import OfferFactory
from tests.offers.test_job_redelivery import Killed
from tests.offers.test_scenario_montecarlo import _scenario

pytestmark = pytest.mark.django_db
STALLED = "This job stopped answering"


def _later(task: str) -> time_machine.travel:
    """Travel to one second past the task's hard time limit from now."""
    hard = settings.TASK_TIME_LIMITS[task][1]
    return time_machine.travel(timezone.now() + dt.timedelta(seconds=hard + 1), tick=False)


@pytest.fixture
def running_export(alice, settings, tmp_path, monkeypatch) -> Job:
    """An export whose worker died after claiming it: left running, its progress frozen."""
    settings.MEDIA_ROOT = tmp_path
    settings.SESSION_IDLE_SECONDS = 7200  # the owner's session outlives the job's 1900 s limit
    OfferFactory(owner=alice, name="Acme")
    job = job_create(user=alice, kind="export", format="csv")

    def dies(**kwargs):
        raise Killed

    monkeypatch.setattr("offers.export.jobs.comparison_file", dies)
    with pytest.raises(Killed):
        job_run(job_id=job.pk, task_id=job.task_id)
    monkeypatch.undo()
    return job


def test_a_job_without_progress_past_its_limit_is_stalled_and_restarts_once(
    client_alice, running_export, django_capture_on_commit_callbacks
):
    page = reverse("offers:export_job", args=[running_export.pk])
    restart = reverse("offers:export_job_restart", args=[running_export.pk])
    assert STALLED not in client_alice.get(page).content.decode()  # within the limit: running
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert client_alice.post(restart).status_code == 302  # not stalled: nothing happens
    assert callbacks == []
    with _later("offers.export.jobs.job_run_task"):
        body = client_alice.get(page, HTTP_HX_REQUEST="true").content.decode()
        assert STALLED in body and f'action="{restart}"' in body and "hx-get" not in body
        old_task = Job.objects.get(pk=running_export.pk).task_id
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            assert client_alice.post(restart)["Location"] == page
        assert len(callbacks) == 1
        job = Job.objects.get(pk=running_export.pk)
        assert (job.status, job.progress) == ("done", 100) and job.task_id != old_task
        # The second post (the button pressed twice) finds a job that is not stalled.
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            client_alice.post(restart)
        assert callbacks == []
        assert Job.objects.get(pk=running_export.pk).finished_at == job.finished_at
        assert job_run(job_id=job.pk, task_id=old_task) == "skipped"  # the dead attempt's message
        assert STALLED not in client_alice.get(page).content.decode()


def test_another_users_restart_is_a_404_and_changes_nothing(client, charlie, running_export):
    client.force_login(charlie)
    url = reverse("offers:export_job_restart", args=[running_export.pk])
    with _later("offers.export.jobs.job_run_task"):
        assert client.post(url).status_code == 404
        assert client.get(url).status_code == 404
    assert Job.objects.get(pk=running_export.pk).status == "running"


def test_restart_is_a_post(client_alice, running_export):
    with _later("offers.export.jobs.job_run_task"):
        url = reverse("offers:export_job_restart", args=[running_export.pk])
        assert client_alice.get(url).status_code == 405
    assert Job.objects.get(pk=running_export.pk).status == "running"


def test_the_same_restore_file_is_refused_while_it_restores(
    client, alice, bob, reauth, settings, tmp_path, monkeypatch
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 0)
    OfferFactory(owner=alice, name="Acme")
    raw = json.dumps(backup_build(user=alice)).encode()
    first = restore_job_create(user=bob, raw=raw)  # not published: no commit here
    Job.objects.filter(pk=first.pk).update(status="running")
    client.force_login(bob)
    reauth(client)

    def post(data: bytes):
        upload = SimpleUploadedFile("b.json", data, "application/json")
        return client.post(reverse("offers:backup_import"), {"file": upload})

    response = post(raw)
    assert response.status_code == 400
    assert "This backup is already being restored" in response.content.decode()
    assert Job.objects.filter(owner=bob).count() == 1
    # Another file is not refused; nor is the same file once the first restore has ended.
    Job.objects.filter(pk=first.pk).update(status="failed")
    assert post(raw).status_code == 302
    assert Job.objects.filter(owner=bob).count() == 2


def test_two_posts_racing_past_the_check_restore_the_file_once(
    bob, settings, tmp_path, monkeypatch
):
    """The form's check reads before it writes: the database's constraint decides a race."""
    settings.MEDIA_ROOT = tmp_path
    raw = json.dumps(backup_build(user=bob)).encode()
    first = restore_job_create(user=bob, raw=raw)
    monkeypatch.setattr("offers.export.jobs._restoring", lambda user, sha256: False)
    with pytest.raises(BackupError) as refused:
        restore_job_create(user=bob, raw=raw)  # as the second of two posts in flight at once
    assert "already being restored" in refused.value.errors[0]
    assert list(Job.objects.filter(owner=bob)) == [first]
    assert [p.name for p in (tmp_path / "restores" / str(bob.pk)).iterdir()] == [
        Path(first.file_path).name
    ]  # the second upload's file is not left behind
    Job.objects.filter(pk=first.pk).update(status="done")
    assert restore_job_create(user=bob, raw=raw).pk != first.pk  # ended: the file may go again


def test_the_migration_fails_all_but_the_newest_of_a_files_doubled_restores(migrate_to):
    apps = migrate_to([("offers", "0020_progress_at")])
    user = apps.get_model("auth", "User").objects.create(username="doubled")
    OldJob = apps.get_model("offers", "Job")
    old, new, other = (
        OldJob.objects.create(owner=user, kind="restore", upload_sha256=sha, status=status)
        for sha, status in (("a" * 64, "running"), ("a" * 64, "queued"), ("b" * 64, "queued"))
    )
    apps = migrate_to([("offers", "0021_job_one_restore_per_file")])
    statuses = dict(apps.get_model("offers", "Job").objects.values_list("pk", "status"))
    assert statuses == {old.pk: "failed", new.pk: "queued", other.pk: "queued"}


def test_a_stalled_monte_carlo_is_shown_and_restarted(
    client_alice, alice, django_capture_on_commit_callbacks
):
    scenario = _scenario(alice)
    Scenario.objects.filter(pk=scenario.pk).update(mc_status="running", mc_task_id="dead")
    status = reverse("offers:scenario_mc_status", args=[scenario.pk])
    restart = reverse("offers:scenario_mc_restart", args=[scenario.pk])
    assert STALLED not in client_alice.get(status).content.decode()
    with _later("offers.tasks.scenario_monte_carlo_task"):
        body = client_alice.get(status).content.decode()
        assert STALLED in body and f'hx-post="{restart}"' in body
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            response = client_alice.post(restart, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and len(callbacks) == 1
        scenario.refresh_from_db()
        assert (scenario.mc_status, scenario.mc_runs) == ("done", 1)
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            client_alice.post(restart)
        assert callbacks == []
        assert Scenario.objects.get(pk=scenario.pk).mc_runs == 1
