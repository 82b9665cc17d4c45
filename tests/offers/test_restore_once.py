"""The restore form carries a one-time token: the same form posted twice restores the backup once."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from offers.export.backup import backup_build
from offers.models import Job, Offer
from tests.factories import OfferFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def raw(alice) -> bytes:
    for i in range(5):
        OfferFactory(owner=alice, name=f"O{i}")
    return json.dumps(backup_build(user=alice)).encode()


@pytest.fixture
def client_bob(client, bob, reauth):
    client.force_login(bob)
    return reauth(client)


def _rendered_form(client) -> dict[str, str]:
    """Return the hidden fields of the restore form as the page renders it."""
    html = client.get(reverse("offers:backup_import")).content.decode()
    return dict(re.findall(r'<input type="hidden" name="(form_token)" value="([^"]+)"', html))


def _post(client, form: dict[str, str], raw: bytes):
    upload = SimpleUploadedFile("backup.json", raw, "application/json")
    return client.post(reverse("offers:backup_import"), {**form, "file": upload})


def test_the_same_form_posted_twice_restores_once(client_bob, bob, raw):
    form = _rendered_form(client_bob)
    assert form["form_token"]
    first = _post(client_bob, form, raw)
    assert first.status_code == 302 and first["Location"] == reverse("offers:export")
    second = _post(client_bob, form, raw)
    assert second.status_code == 302 and second["Location"] == reverse("offers:export")
    assert Offer.objects.filter(owner=bob).count() == 5
    page = client_bob.get(second["Location"]).content.decode()
    assert "This form was already sent: the backup was restored once." in page
    # A form opened again is a new restore (of the same names: refused, nothing doubled).
    third = _post(client_bob, _rendered_form(client_bob), raw)
    assert third.status_code == 400
    assert Offer.objects.filter(owner=bob).count() == 5


def test_a_large_backup_posted_twice_makes_one_job_and_shows_it(
    client_bob, bob, raw, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 3)
    form = _rendered_form(client_bob)
    with django_capture_on_commit_callbacks(execute=True):
        first = _post(client_bob, form, raw)
        second = _post(client_bob, form, raw)
    job = Job.objects.get(owner=bob)  # one job
    job_page = reverse("offers:export_job", args=[job.pk])
    assert first["Location"] == job_page and second["Location"] == job_page
    job.refresh_from_db()
    assert job.status == "done", job.errors
    assert Offer.objects.filter(owner=bob).count() == 5


def test_a_refused_file_leaves_the_form_usable(client_bob, bob, raw):
    form = _rendered_form(client_bob)
    broken = _post(client_bob, form, b'{"format": "offerdesk-backup", "schema_version": 9}')
    assert broken.status_code == 400
    assert form["form_token"] in broken.content.decode()  # the same form, shown again
    assert _post(client_bob, form, raw).status_code == 302
    assert Offer.objects.filter(owner=bob).count() == 5
