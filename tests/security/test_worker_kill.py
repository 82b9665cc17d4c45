"""A worker killed mid-task: the task completes on a restarted worker, stored exactly once."""

from __future__ import annotations

import os
import signal
import time

import pytest

pytestmark = pytest.mark.broker


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _scenario(user):
    from tests.factories import FxRateFactory, OfferFactory, PreferencesFactory, ScenarioFactory

    FxRateFactory(owner=None, currency="SGD", to_currency="USD", rate="0.74")
    PreferencesFactory(owner=user)
    offer = OfferFactory(owner=user)
    OfferFactory(owner=user)
    return ScenarioFactory(owner=user, offer=offer)


@pytest.mark.django_db(transaction=True)
def test_sigkill_mid_task_completes_on_a_restarted_worker_once(celery_worker_process, alice):
    from django.conf import settings

    from offers import services
    from offers.models import Scenario

    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    scenario = _scenario(alice)

    assert services.scenario_mc_start(user=alice, scenario=scenario)

    def row():
        return Scenario.objects.values("mc_status", "mc_progress", "mc_runs").get(pk=scenario.pk)

    _wait(lambda: row()["mc_status"] == "running" and row()["mc_progress"] > 0, 120, "progress")
    assert row()["mc_status"] == "running"
    celery_worker_process.kill(signal.SIGKILL)
    killed_at = time.monotonic()
    time.sleep(1)
    assert row()["mc_status"] == "running"  # left behind by the dead attempt

    # Redelivered after the broker's visibility timeout (lowered for tests in conftest): the
    # restarted worker takes it back at its start once the timeout has passed (kombu sweeps
    # for due messages at a worker's start, then only every 100 s).
    timeout = float(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "10"))
    time.sleep(max(0.0, killed_at + timeout + 0.5 - time.monotonic()))
    celery_worker_process.start()
    _wait(lambda: row()["mc_status"] in ("done", "failed"), 180, "the redelivered run")
    final = Scenario.objects.get(pk=scenario.pk)
    assert final.mc_status == "done", final.mc_error
    assert final.mc_runs == 1
    assert final.mc_progress == 100
    assert final.mc_result
