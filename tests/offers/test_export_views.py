"""Export page, downloads, background jobs, and their access control."""

from __future__ import annotations

import io
import json

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from accounts.reauth import mark_reauthenticated
from offers.export import jobs
from offers.models import Job
from tests.factories import OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def test_export_page(client_alice_reauth, alice):
    OfferFactory(owner=alice)
    response = client_alice_reauth.get(reverse("offers:export"))
    assert response.status_code == 200
    assert reverse("offers:export_start") in response.content.decode()
    assert reverse("offers:backup_download") in response.content.decode()


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_export_page_states_the_json_version_the_download_has(client_alice_reauth, alice, language):
    """The page said schema_version 1 while the JSON said 2: it reads the writer's version."""
    OfferFactory(owner=alice, name="Acme")
    client_alice_reauth.cookies["django_language"] = language
    page = client_alice_reauth.get(reverse("offers:export")).content.decode()
    response = client_alice_reauth.post(reverse("offers:export_start"), {"format": "json"})
    version = json.loads(response.content)["schema_version"]
    assert f"schema_version {version}" in page
    assert "schema_version " + str(version - 1) not in page
    assert ("有版本" in page) == (language == "zh-hant")


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json", "html"])
def test_small_export_downloads_at_once(client_alice_reauth, alice, fmt):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name="Acme")
    response = client_alice_reauth.post(reverse("offers:export_start"), {"format": fmt})
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response["Content-Disposition"].endswith(f'.{fmt}"')
    assert not Job.objects.exists()
    if fmt == "xlsx":
        load_workbook(io.BytesIO(response.content))
    if fmt == "json":
        assert json.loads(response.content)["schema_version"] == 2


def test_bad_format_rerenders_the_form(client_alice_reauth):
    response = client_alice_reauth.post(reverse("offers:export_start"), {"format": "exe"})
    assert response.status_code == 400


def test_get_does_not_start_an_export(client_alice_reauth):
    assert client_alice_reauth.get(reverse("offers:export_start")).status_code == 405


def test_report_page_has_charts_and_no_inline_script(client_alice_reauth, alice):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice)
    OfferFactory(owner=alice)
    response = client_alice_reauth.get(reverse("offers:export_report"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-chart="fig-report-yearly"' in html
    assert 'id="fig-report-yearly" type="application/json"' in html
    assert "<script>" not in html


def test_large_export_runs_as_a_job(
    client_alice_reauth, alice, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(jobs, "LARGE_OPTIONS", 1)
    OfferFactory(owner=alice)
    OfferFactory(owner=alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_alice_reauth.post(reverse("offers:export_start"), {"format": "csv"})
    job = Job.objects.get(owner=alice)
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:export_job", args=[job.pk])
    assert job.status == Job.Status.DONE and job.progress == 100 and job.file_bytes > 0
    page = client_alice_reauth.get(response["Location"])
    assert reverse("offers:export_job_download", args=[job.pk]) in page.content.decode()
    download = client_alice_reauth.get(reverse("offers:export_job_download", args=[job.pk]))
    assert download.status_code == 200
    assert "attachment" in download["Content-Disposition"]
    assert b"".join(download.streaming_content).startswith(b"\xef\xbb\xbfoption_key")
    # Running the task again changes nothing.
    assert jobs.job_run(job_id=job.pk) == "skipped"


def test_job_status_partial_polls_while_running(client_alice_reauth, alice):
    job = Job.objects.create(
        owner=alice, kind="export", format="xlsx", status="running", progress=40
    )
    response = client_alice_reauth.get(
        reverse("offers:export_job", args=[job.pk]), HTTP_HX_REQUEST="true"
    )
    assert 'hx-trigger="every 2s"' in response.content.decode()
    assert "<html" not in response.content.decode()


def test_another_users_job_and_download_are_404(client, alice, charlie, tmp_path):
    job = Job.objects.create(
        owner=alice,
        kind="export",
        format="csv",
        status="done",
        file_path="exports/1/x.csv",
        file_bytes=3,
    )
    (tmp_path / "exports" / "1").mkdir(parents=True)
    (tmp_path / "exports" / "1" / "x.csv").write_bytes(b"a,b")
    client.force_login(charlie)
    for name in ("offers:export_job", "offers:export_job_download"):
        for method in ("get", "post"):
            assert getattr(client, method)(reverse(name, args=[job.pk])).status_code == 404
    client.force_login(alice)
    reauthenticate(client)
    assert client.get(reverse("offers:export_job_download", args=[job.pk])).status_code == 200


def test_unfinished_job_download_shows_its_progress(client_alice_reauth, alice):
    job = Job.objects.create(owner=alice, kind="export", format="csv")
    response = client_alice_reauth.get(reverse("offers:export_job_download", args=[job.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:export_job", args=[job.pk])
    job.status, job.file_path = "done", "exports/1/missing.csv"
    job.save()
    assert (
        client_alice_reauth.get(reverse("offers:export_job_download", args=[job.pk])).status_code
        == 404
    )


def test_backup_asks_for_the_password_first(client_alice):
    response = client_alice.get(reverse("offers:backup_download"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("reauth"))
    response = client_alice.get(reverse("offers:backup_import"))
    assert response.status_code == 302


def reauthenticate(client):
    session = client.session
    from django.http import HttpRequest

    request = HttpRequest()
    request.session = session
    mark_reauthenticated(request)
    session.save()


def test_backup_download_and_restore_from_the_page(client, alice, bob):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name="Acme")
    client.force_login(alice)
    reauthenticate(client)
    response = client.get(reverse("offers:backup_download"))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    client.force_login(bob)
    reauthenticate(client)
    upload = io.BytesIO(response.content)
    upload.name = "backup.json"
    restored = client.post(reverse("offers:backup_import"), {"file": upload})
    assert restored.status_code == 302
    assert bob.offers.get().name == "Acme"


def test_restore_page_shows_errors_and_imports_nothing(client, bob):
    client.force_login(bob)
    reauthenticate(client)
    upload = io.BytesIO(
        b'{"format": "offerdesk-backup", "schema_version": 1, "offers": [{"id": 1, "package": 17}]}'
    )
    upload.name = "backup.json"
    response = client.post(reverse("offers:backup_import"), {"file": upload})
    assert response.status_code == 400
    assert "offers[0].package: unknown package id 17" in response.content.decode()
    assert not bob.offers.exists()
