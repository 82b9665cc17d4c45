"""Alice's export objects for the URL matrix (merged into tests/offers/url_objects.py)."""

from __future__ import annotations

from accounts.models import RestoreJob
from offers.models import ExportJob


def _export_job(user):
    return {"pk": ExportJob.objects.create(owner=user, format="csv").pk}


def _restore_job(user):
    return {"pk": RestoreJob.objects.create(owner=user, status="done").pk}


URL_OBJECTS = {
    "offers:backup_import_job": _restore_job,
    "offers:export_job": _export_job,
    "offers:export_job_download": _export_job,
}
