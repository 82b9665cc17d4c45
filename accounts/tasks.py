"""Background work for accounts (time limits: TASK_TIME_LIMITS in config/settings.py)."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def trash_purge_task() -> int:
    """Delete trash entries past their 30 days; safe to run twice."""
    from accounts.history import trash_purge

    return trash_purge()
