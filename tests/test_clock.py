"""The suite's clock (tests/clock.py) covers every test, and the time of day changes no result."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time

import pytest
from django.utils import timezone

from tests import clock
from tests.conftest import ROOT

# Read when pytest imports this module, at collection: before any fixture runs.
IMPORTED_AT = dt.datetime.now(dt.UTC)
# Far more than the suite's own run time, far less than the day a date could move by.
SUITE_RUN = dt.timedelta(hours=2)


def _machine_now(tmp_path) -> float:
    """Return the machine's time as the kernel stamps a new file (no patch reaches it)."""
    probe = tmp_path / "now"
    probe.write_text("")
    return probe.stat().st_mtime


def test_a_module_is_imported_on_the_suites_clock():
    assert dt.timedelta(0) <= IMPORTED_AT - clock.SUITE.instant < SUITE_RUN


def test_every_reading_of_the_clock_in_a_test_is_the_suites():
    start = clock.SUITE.instant
    for reading in (
        dt.datetime.now(dt.UTC),
        timezone.now(),
        dt.datetime.fromtimestamp(time.time(), dt.UTC),
        dt.datetime.fromtimestamp(time.time_ns() / 1e9, dt.UTC),
    ):
        assert dt.timedelta(0) <= reading - start < SUITE_RUN
    assert dt.date.today() == start.date()  # the machine's zone is UTC here, as in CI
    assert timezone.localdate() == timezone.localtime(start).date()


def test_the_clock_ticks_from_its_instant():
    first = time.time()
    time.sleep(0.01)
    assert time.time() > first


def test_paused_runs_on_the_machines_clock_and_travels_back(tmp_path):
    with clock.SUITE.paused():
        assert abs(_machine_now(tmp_path) - time.time()) < 5
    assert dt.timedelta(0) <= timezone.now() - clock.SUITE.instant < SUITE_RUN


@pytest.mark.broker
def test_a_test_beside_a_real_worker_runs_on_the_machines_clock(tmp_path):
    assert not clock.SUITE.running
    assert abs(_machine_now(tmp_path) - time.time()) < 5


def test_an_instant_without_its_offset_is_refused(monkeypatch):
    monkeypatch.setenv(clock.ENV, "2026-12-01T23:30:00")
    with pytest.raises(ValueError, match="must name its offset"):
        clock.start_instant()


# The tests that read the user's home date against the server's: each passes at 23:30 UTC
# (07:30 the next day in Taipei) and at 00:30 UTC (16:30 the day before in Los Angeles).
DATE_TESTS = [
    "tests/offers/test_board_cache.py",
    "tests/offers/test_home_today.py",
    "tests/test_clock.py::test_a_module_is_imported_on_the_suites_clock",
    "tests/test_clock.py::test_every_reading_of_the_clock_in_a_test_is_the_suites",
]


@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="runs on SQLite whatever the settings say: CI's first pass (SQLite) runs it",
)
@pytest.mark.parametrize("instant", ["2026-12-01T23:30:00+00:00", "2026-12-02T00:30:00+00:00"])
def test_the_date_tests_pass_at_any_time_of_day(instant):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "CACHE_KEY_PREFIX"):
        env.pop(name, None)
    env[clock.ENV] = instant
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", *DATE_TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
