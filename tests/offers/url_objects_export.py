"""Alice's export objects for the URL matrix (merged into tests/offers/url_objects.py)."""

from __future__ import annotations

from offers.models import Job


def _export_job(user):
    return {"pk": Job.objects.create(owner=user, kind="export", format="csv").pk}


URL_OBJECTS = {
    "offers:export_job": _export_job,
    "offers:export_job_download": _export_job,
    "offers:export_job_restart": _export_job,
}
