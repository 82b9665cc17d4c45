"""Alice's export objects for the URL matrix (merged into tests/offers/url_objects.py)."""

from __future__ import annotations

from offers.models import ExportJob


def _export_job(user):
    return {"pk": ExportJob.objects.create(owner=user, format="csv").pk}


URL_OBJECTS = {
    "offers:export_job": _export_job,
    "offers:export_job_download": _export_job,
}
