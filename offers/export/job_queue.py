"""Queue background exports: the one export module that imports the export task.

The task imports `offers.export.jobs` inside its body and nothing imports this module back,
so there is no import cycle between the export code and its task.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from offers.models import ExportJob
from offers.tasks_export import export_comparison_task


@transaction.atomic
def export_job_create(*, user: AbstractBaseUser, fmt: str) -> ExportJob:
    """Queue a background export; the task starts once this transaction commits."""
    job = ExportJob(owner=user, format=fmt)
    job.full_clean()
    job.save()
    transaction.on_commit(lambda: export_comparison_task.delay(job.pk))
    return job
