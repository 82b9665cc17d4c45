"""Eager tasks that take a while, run on a thread of the web process when there is no broker.

Without a broker (`make run`) Celery runs a task in the request that queues it: the scenario
Monte Carlo would hold its request for the whole simulation. `apply_in_background` runs it on a
thread of its own instead, as a worker would: the request answers at once and the page polls
the progress the task writes. `EAGER_TASKS_IN_BACKGROUND` (on by default, off in the tests'
settings) chooses; with a broker tasks are published as ever.

A task that asks to be retried (``autoretry_for``: SQLite's lock met by a write beside a
request's) runs again on the same thread after its countdown, as on a worker, up to the task's
own ``max_retries``: ``apply(throw=True)`` raises the ``Retry`` and would end it there.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from celery import Task
from celery.exceptions import Retry
from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)


def runs_in_background(task: Task) -> bool:
    """Return whether ``task`` is to run on a thread here (eager, and so configured)."""
    return bool(task.app.conf.task_always_eager and settings.EAGER_TASKS_IN_BACKGROUND)


def apply_in_background(task: Task, args: tuple[Any, ...], *, task_id: str) -> threading.Thread:
    """Run ``task`` eagerly on a daemon thread with the id it was queued with."""

    def run() -> None:
        retries = 0
        try:
            while True:
                try:
                    task.apply(args=args, task_id=task_id, retries=retries, throw=True)
                    return
                except Retry as retry:  # past max_retries the task raises its own error
                    retries += 1
                    time.sleep(retry.when if isinstance(retry.when, int | float) else 1)
        except Exception:  # the task records its own failures; anything else is logged
            logger.exception("Background task %s failed", task.name)
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=run, name=f"eager {task.name}", daemon=True)
    thread.start()
    return thread
