"""Every job ends: a job whose message was lost before any worker claimed it (issue 37).

Its row is queued and no message exists (a Redis restarted without persistence, a publish lost
on the way): here a job whose on-commit publish never ran. The beat's sweep sends it again once
it has waited JOB_UNCLAIMED_SECONDS (eager Celery runs it), and fails it, with a reason its
owner reads, if it waits as long again. The tests move the suite's clock with time-machine.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from offers.export.backup import backup_build
from offers.export.jobs import (
    job_create,
    job_path,
    job_run,
    jobs_unclaimed_sweep,
    restore_job_create,
)
from offers.models import Job
from tests.factories import OfferFactory

pytestmark = pytest.mark.django_db
NO_WORKER = "No worker picked this job up, even when it was sent again. Try again."


def _later(waits: int) -> time_machine.travel:
    """Travel ``waits`` times JOB_UNCLAIMED_SECONDS (and a second each) from now."""
    seconds = waits * (settings.JOB_UNCLAIMED_SECONDS + 1)
    return time_machine.travel(timezone.now() + dt.timedelta(seconds=seconds), tick=False)


@pytest.fixture
def lost_export(alice, settings, tmp_path) -> Job:
    """An export queued whose message never reached the broker (its publish did not run)."""
    settings.MEDIA_ROOT = tmp_path
    OfferFactory(owner=alice, name="Acme")
    return job_create(user=alice, kind="export", format="csv")  # no commit: never published


def test_a_job_queued_with_no_message_is_sent_again_once_and_done(lost_export):
    assert jobs_unclaimed_sweep() == 0  # waiting less than JOB_UNCLAIMED_SECONDS: left alone
    with _later(1):
        assert jobs_unclaimed_sweep() == 1  # sent again: eager Celery runs it
    job = Job.objects.get(pk=lost_export.pk)
    assert (job.status, job.progress, job.errors) == ("done", 100, [])
    assert job.task_id != lost_export.task_id and job.resent_at is not None
    assert job_path(job).read_bytes().decode("utf-8-sig").startswith("option_key")
    # The first message, had it only been late, finds nothing to claim.
    assert job_run(job_id=job.pk, task_id=lost_export.task_id) == "skipped"
    with _later(3):
        assert jobs_unclaimed_sweep() == 0  # ended: never touched again


def test_a_job_still_unclaimed_after_it_was_sent_again_fails_with_its_reason(
    client_alice, lost_export, monkeypatch
):
    sent = []
    monkeypatch.setattr(
        "offers.export.jobs.job_run_task.apply_async", lambda *a, **kw: sent.append(kw)
    )  # the second message is lost too
    with _later(1):
        assert jobs_unclaimed_sweep() == 1
        assert jobs_unclaimed_sweep() == 0  # sent again once, not each minute
    assert Job.objects.get(pk=lost_export.pk).status == "queued"
    with _later(2):
        assert jobs_unclaimed_sweep() == 1
    job = Job.objects.get(pk=lost_export.pk)
    assert (job.status, job.errors) == ("failed", [NO_WORKER]) and job.finished_at is not None
    assert [kw["task_id"] for kw in sent] == [job.task_id]
    body = client_alice.get(reverse("offers:export_job", args=[job.pk])).content.decode()
    assert "Failed" in body and NO_WORKER in body and "hx-get" not in body  # polls no more


def test_a_lost_restore_fails_and_its_file_may_be_restored_again(
    client, alice, bob, reauth, settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 0)
    monkeypatch.setattr("offers.export.jobs.job_run_task.apply_async", lambda *a, **kw: None)
    OfferFactory(owner=alice, name="Acme")
    raw = json.dumps(backup_build(user=alice)).encode()
    lost = restore_job_create(user=bob, raw=raw)  # no commit: never published
    client.force_login(bob)
    reauth(client)

    def post():
        upload = SimpleUploadedFile("b.json", raw, "application/json")
        return client.post(reverse("offers:backup_import"), {"file": upload})

    assert "already being restored" in post().content.decode()  # queued: the same file waits
    with _later(1):
        jobs_unclaimed_sweep()
    with _later(2), django_capture_on_commit_callbacks(execute=True):
        jobs_unclaimed_sweep()  # on a worker, autocommit: the upload's removal runs at once
    job = Job.objects.get(pk=lost.pk)
    assert (job.status, job.errors, job.file_path) == ("failed", [NO_WORKER], "")
    assert not job_path(lost).exists()  # its upload is deleted
    assert post().status_code == 302  # and the same file may be restored again
    assert Job.objects.filter(owner=bob).count() == 2


def test_running_and_fresh_jobs_are_left_to_their_own_ends(lost_export, alice):
    running = job_create(user=alice, kind="export", format="csv")
    Job.objects.filter(pk=running.pk).update(status="running")  # claimed: its limit, stalled
    with _later(1):
        fresh = job_create(user=alice, kind="export", format="json")  # queued a moment ago
        Job.objects.filter(pk=lost_export.pk).update(status="done")
        assert jobs_unclaimed_sweep() == 0
    statuses = dict(Job.objects.values_list("pk", "status"))
    assert (statuses[running.pk], statuses[fresh.pk]) == ("running", "queued")


def test_beat_sweeps_every_minute_and_drops_a_sweep_it_could_not_run_in_time(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["jobs-unclaimed-sweep"]
    assert entry == {
        "task": "offers.tasks.jobs_unclaimed_sweep_task",
        "schedule": 60.0,
        "options": {"expires": 60},
    }
    assert entry["task"] in settings.TASK_TIME_LIMITS
    from offers.tasks import jobs_unclaimed_sweep_task

    assert jobs_unclaimed_sweep_task.name == entry["task"]


NO_WORKER_ZH = "沒有背景工作程序接手這項工作，重新送出後也沒有。請再試一次。"


def _errors_after_both_waits(job: Job) -> list[str]:
    """Return a lost job's errors once the sweep has sent it again and then failed it."""
    with _later(1):
        jobs_unclaimed_sweep()
    with _later(2):
        jobs_unclaimed_sweep()
    return Job.objects.get(pk=job.pk).errors


def test_the_reason_is_in_the_language_the_export_was_asked_in(alice, monkeypatch):
    monkeypatch.setattr("offers.export.jobs.job_run_task.apply_async", lambda *a, **kw: None)
    job = job_create(user=alice, kind="export", format="csv", language="zh-hant")
    assert _errors_after_both_waits(job) == [NO_WORKER_ZH]


def test_a_restore_asked_in_zh_hant_fails_in_zh_hant(alice, settings, tmp_path, monkeypatch):
    """A job keeps the language of the request that made it: a restore has no format to say it."""
    from django.utils import translation

    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr("offers.export.jobs.job_run_task.apply_async", lambda *a, **kw: None)
    raw = json.dumps(backup_build(user=alice)).encode()
    with translation.override("zh-hant"):
        job = restore_job_create(user=alice, raw=raw)
    assert job.language == "zh-hant"
    assert _errors_after_both_waits(job) == [NO_WORKER_ZH]


def test_a_stalled_job_restarted_may_be_sent_again_once_more(lost_export):
    from offers.export.jobs import job_restart, stalled_before

    long_ago = stalled_before("offers.export.jobs.job_run_task") - dt.timedelta(seconds=1)
    Job.objects.filter(pk=lost_export.pk).update(
        status="running", progress_at=long_ago, resent_at=long_ago
    )
    assert job_restart(Job.objects.get(pk=lost_export.pk))
    assert Job.objects.get(pk=lost_export.pk).resent_at is None  # a new queueing


def test_a_monte_carlo_queued_with_no_message_fails_readably_and_runs_again(alice, client):
    """A scenario's run whose message was lost ends failed after twice the wait, with its reason
    on the page, and its owner starts it again (the sweep of each minute, beat)."""
    from offers.models import Scenario
    from offers.services import scenario_mc_unclaimed_sweep
    from offers.tasks import jobs_unclaimed_sweep_task
    from tests.factories import ScenarioFactory

    offer = OfferFactory(owner=alice, name="Acme")
    scenario = ScenarioFactory(owner=alice, offer=offer)
    Scenario.objects.filter(pk=scenario.pk).update(
        mc_status=Scenario.McStatus.QUEUED, mc_input_hash="lost", mc_task_id="lost"
    )  # queued, its message lost
    with _later(1):
        assert scenario_mc_unclaimed_sweep() == 0  # one wait: a busy queue, left alone
    running = ScenarioFactory(owner=alice, offer=offer)
    Scenario.objects.filter(pk=running.pk).update(mc_status=Scenario.McStatus.RUNNING)
    with _later(3):
        assert jobs_unclaimed_sweep_task() == 1  # the beat's task sweeps the runs too
        assert scenario_mc_unclaimed_sweep() == 0  # once
    ended = Scenario.objects.get(pk=scenario.pk)
    assert ended.mc_status == Scenario.McStatus.FAILED
    assert Scenario.objects.get(pk=running.pk).mc_status == Scenario.McStatus.RUNNING
    client.force_login(alice)
    page = client.get(reverse("offers:scenario_detail", args=[scenario.pk])).content.decode()
    assert "No worker picked this run up. Run it again." in page
    # Run it again: queued anew (and, Celery eager, done).
    client.post(reverse("offers:scenario_mc_start", args=[scenario.pk]))
    assert Scenario.objects.get(pk=scenario.pk).mc_status != Scenario.McStatus.FAILED
