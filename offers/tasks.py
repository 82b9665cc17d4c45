"""Background work for offers: the scenario Monte Carlo, reminders, the export files' purge,
the sweep of unclaimed jobs.

Time limits: TASK_TIME_LIMITS in config/settings.py.
"""

from __future__ import annotations

import contextlib

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import OperationalError


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=5,
)
def scenario_monte_carlo_task(self, scenario_id: int, input_hash: str) -> str:  # type: ignore[no-untyped-def]
    """Run a scenario's 200,000-path Monte Carlo once and store it under its input hash."""
    from compensation.engine import EngineInputError
    from offers import services
    from offers.models import Scenario
    from offers.scenarios.montecarlo import mc_compute

    if not services.scenario_mc_claim(
        scenario_id=scenario_id, input_hash=input_hash, task_id=self.request.id
    ):
        return "skipped"
    try:
        scenario = Scenario.objects.select_related("offer__package", "owner", "level").get(
            pk=scenario_id
        )
        result = mc_compute(
            scenario,
            input_hash,
            progress=lambda pct: services.scenario_mc_progress(
                scenario_id=scenario_id, input_hash=input_hash, progress=pct
            ),
        )
    except Scenario.DoesNotExist:
        return "gone"
    except OperationalError:
        # Transient database trouble: give the claim back so that the retry can take it.
        with contextlib.suppress(OperationalError):
            services.scenario_mc_requeue(scenario_id=scenario_id, input_hash=input_hash)
        raise
    except SoftTimeLimitExceeded:
        services.scenario_mc_fail(
            scenario_id=scenario_id, input_hash=input_hash, error="The simulation took too long."
        )
        return "timeout"
    except (EngineInputError, LookupError, ValueError) as exc:
        services.scenario_mc_fail(scenario_id=scenario_id, input_hash=input_hash, error=str(exc))
        return "failed"
    if result is None:
        return "cancelled"
    stored = services.scenario_mc_store(
        scenario_id=scenario_id, input_hash=input_hash, result=result
    )
    return "stored" if stored else "superseded"


# Celery's autodiscovery imports `tasks` modules only: register the background jobs' task too.
from offers.export.jobs import job_run_task  # noqa: E402, F401


@shared_task(acks_late=True)
def reminders_send_task() -> int:
    """Email the deadline and interview reminders that are due; each is sent once."""
    from offers.reminders import reminders_send

    return reminders_send()


@shared_task(acks_late=True)
def export_files_purge_task() -> int:
    """Delete finished jobs and export files past EXPORT_RETENTION_DAYS (scheduled by beat)."""
    from offers.export.retention import export_files_purge

    return export_files_purge()


@shared_task(acks_late=True)
def jobs_unclaimed_sweep_task() -> int:
    """Send again, then fail, the jobs queued with no claim, and fail the Monte Carlo runs queued
    with none (scheduled by beat)."""
    from offers.export.jobs import jobs_unclaimed_sweep
    from offers.services import scenario_mc_unclaimed_sweep

    return jobs_unclaimed_sweep() + scenario_mc_unclaimed_sweep()
