from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def trash_purge_task() -> int:
    """Delete trash entries past their 30 days; safe to run twice."""
    from accounts.history import trash_purge

    return trash_purge()
