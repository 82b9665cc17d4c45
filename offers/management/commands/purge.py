"""Run the periodic clean-up jobs once, for a deployment without Celery beat (cron)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Delete trash entries older than 30 days and background export files older than "
        "EXPORT_RETENTION_DAYS, and send again or fail the jobs no worker claimed: the jobs "
        "Celery beat runs. Safe to run twice; for cron when no beat runs."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # The jobs' own code, as the beat's tasks run it (accounts.tasks, offers.tasks).
        from accounts.history import trash_purge
        from accounts.models import TRASH_DAYS
        from offers.export.retention import export_files_purge
        from offers.tasks import jobs_unclaimed_sweep_task

        trash = trash_purge()
        files = export_files_purge()
        swept = jobs_unclaimed_sweep_task()
        self.stdout.write(
            f"Deleted {trash} trash entries older than {TRASH_DAYS} days and {files} export "
            f"files older than {settings.EXPORT_RETENTION_DAYS} days; {swept} unclaimed jobs "
            "sent again or failed."
        )
