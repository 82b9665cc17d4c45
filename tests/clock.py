"""The test suite's one clock: every test reads a fixed instant, whatever the machine's time.

`tests/conftest.py` starts it when pytest configures (before any test module is imported, so a
module-level `date.today()` is frozen too) and stops it at the end. It ticks from the instant
(sleeps and time-outs still pass), so a five-minute suite runs from 12:00 to 12:05 UTC on
1 Dec 2026, every day of the year: 20:00 in Taipei, 04:00 in Los Angeles, one date in all three.

`OFFERDESK_TEST_NOW=2026-12-01T23:30:00+00:00` runs the suite at another instant, to prove a
test does not hang on the time of day (the README's `make test` notes the two runs at 23:30 and
00:30 UTC). Tests whose other processes read the clock too (a real Celery worker or beat on the
shared database) run on the machine's clock: `paused()`.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from contextlib import contextmanager

import time_machine

START = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
ENV = "OFFERDESK_TEST_NOW"


def start_instant() -> dt.datetime:
    """Return the instant the suite starts at: OFFERDESK_TEST_NOW (ISO 8601, aware) or START."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return START
    instant = dt.datetime.fromisoformat(raw)
    if instant.tzinfo is None:
        raise ValueError(f"{ENV} must name its offset, e.g. 2026-12-01T23:30:00+00:00: {raw!r}")
    return instant


class SuiteClock:
    """A ticking time-machine travel that can be paused for a test."""

    def __init__(self) -> None:
        self.instant = start_instant()
        self._travel: time_machine.travel | None = None

    @property
    def running(self) -> bool:
        return self._travel is not None

    def start(self) -> None:
        if self._travel is None:
            self._travel = time_machine.travel(self.instant, tick=True)
            self._travel.start()

    def stop(self) -> None:
        if self._travel is not None:
            self._travel.stop()
            self._travel = None

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Run on the machine's clock, then travel back to the suite's instant."""
        was_running = self.running
        self.stop()
        try:
            yield
        finally:
            if was_running:
                self.start()


SUITE = SuiteClock()
