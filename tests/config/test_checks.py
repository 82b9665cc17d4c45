"""The broker's visibility timeout exceeds every task's time limit, checked at start-up."""

from __future__ import annotations

import os
from pathlib import Path

from config.celery import app
from config.checks import task_time_limits, visibility_timeout_check
from tests import fresh_python

ROOT = Path(__file__).resolve().parents[2]


def test_every_task_takes_its_limits_from_the_one_table(settings):
    limits = task_time_limits()  # imports the tasks, as a worker does
    for name, (soft, hard) in settings.TASK_TIME_LIMITS.items():
        task = app.tasks[name]
        assert (task.soft_time_limit, task.time_limit) == (soft, hard)
        assert limits[name] == hard


def test_the_default_visibility_timeout_exceeds_every_task(settings):
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert timeout > max(task_time_limits().values())
    assert visibility_timeout_check() == []


def test_a_visibility_timeout_below_a_task_limit_fails_the_check(settings):
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600, "max_retries": 1}
    errors = visibility_timeout_check()
    assert {e.id for e in errors} == {"offerdesk.E002"}
    named = " ".join(e.msg for e in errors)
    assert "job_run_task (1900 s)" in named
    assert "scenario_monte_carlo_task" not in named  # 300 s: under 600


def test_a_time_limit_for_no_task_fails_the_check(settings):
    settings.TASK_TIME_LIMITS = {**settings.TASK_TIME_LIMITS, "offers.tasks.no_such_task": (1, 2)}
    assert [e.id for e in visibility_timeout_check()] == ["offerdesk.E001"]


def test_manage_py_check_refuses_a_short_visibility_timeout():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    env["CELERY_VISIBILITY_TIMEOUT"] = "600"
    out = fresh_python.run(
        ["manage.py", "check"],
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert out.returncode != 0
    assert "offerdesk.E002" in out.stderr
    assert "job_run_task" in out.stderr
