"""Every sensitive action asks for a password typed within the last 10 minutes (issue 18).

Log-in, sign-up and the password-change form count as typing it; the re-authentication
prompt too. Covered: every comparison export format (at once and as a job), the printable
report, backup, restore and deleting the account.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from accounts.reauth import REAUTH_KEY
from offers.export.formats import EXPORT_FORMATS
from offers.models import Job
from tests.factories import OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db
REAUTH = "/accounts/reauth/"
FORMAT_KEYS = list(EXPORT_FORMATS)


def _goes_to_reauth(response, back: str) -> bool:
    return response.status_code == 302 and response["Location"] == (
        f"{REAUTH}?{urlencode({'next': back})}"
    )


def test_reauth_window_is_ten_minutes(settings):
    assert settings.REAUTH_SECONDS == 600


@pytest.mark.parametrize("fmt", FORMAT_KEYS)
def test_reauth_required_for_comparison_export(client_alice, alice, fmt):
    OfferFactory(owner=alice)
    response = client_alice.post(reverse("offers:export_start"), {"format": fmt})
    assert _goes_to_reauth(response, reverse("offers:export"))
    assert not Job.objects.exists()


def test_reauth_required_for_export_job_download(client_alice, alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
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
    url = reverse("offers:export_job_download", args=[job.pk])
    assert _goes_to_reauth(client_alice.get(url), url)


@pytest.mark.parametrize(
    "name", ["offers:export_report", "offers:backup_download", "offers:backup_import"]
)
def test_reauth_required_for_report_backup_and_restore(client_alice, name):
    url = reverse(name)
    response = client_alice.get(url)
    assert _goes_to_reauth(response, url)


def test_reauth_required_for_account_delete(client_alice, alice):
    url = reverse("delete_account")
    assert _goes_to_reauth(client_alice.post(url), url)
    assert User.objects.filter(pk=alice.pk).exists()


def test_reauth_older_than_ten_minutes_is_refused(client_alice, alice):
    session = client_alice.session
    session[REAUTH_KEY] = time.time() - 601
    session.save()
    assert _goes_to_reauth(client_alice.get(reverse("offers:export_report")), "/export/report/")
    session = client_alice.session
    session[REAUTH_KEY] = time.time() - 590
    session.save()
    assert client_alice.get(reverse("offers:export_report")).status_code == 200


@pytest.mark.parametrize("fmt", FORMAT_KEYS)
def test_login_counts_as_a_recent_password_for_exports(client, alice, fmt):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name="Acme")
    response = client.post(
        reverse("login"), {"username": "alice", "password": "alice-password-123"}
    )
    assert response.status_code == 302
    response = client.post(reverse("offers:export_start"), {"format": fmt})
    assert response.status_code in (200, 302)
    if response.status_code == 302:  # a background job: its own page, not the prompt
        assert response["Location"].startswith("/export/jobs/")
    assert client.get(reverse("offers:export_report")).status_code == 200


def test_the_reauth_prompt_then_the_export_works(client_alice, alice):
    OfferFactory(owner=alice)
    response = client_alice.post(
        REAUTH, {"password": "alice-password-123", "next": reverse("offers:export")}
    )
    assert response["Location"] == reverse("offers:export")
    response = client_alice.post(reverse("offers:export_start"), {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")


def test_signup_counts_as_a_recent_password(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "dora",
            "password1": "dora-password-12345",
            "password2": "dora-password-12345",
        },
    )
    assert response.status_code == 302
    assert REAUTH_KEY in client.session


def test_deleted_account_leaves_no_export_files(
    client_alice, alice, bob, settings, tmp_path, reauth, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    for owner in (alice, bob):
        folder = tmp_path / "exports" / str(owner.pk)
        folder.mkdir(parents=True)
        (folder / "x.csv").write_bytes(b"a,b")
        Job.objects.create(
            owner=owner,
            kind="export",
            format="csv",
            status="done",
            file_path=f"exports/{owner.pk}/x.csv",
            file_bytes=3,
        )
    reauth(client_alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert client_alice.post(reverse("delete_account")).status_code == 302
    assert not (tmp_path / "exports" / str(alice.pk)).exists()
    assert (tmp_path / "exports" / str(bob.pk) / "x.csv").exists()
