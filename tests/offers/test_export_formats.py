"""The export-format registry is the only list of formats: every place reads it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse

from offers.export.formats import EXPORT_FORMATS, FORMAT_CHOICES, export_format
from offers.export.jobs import job_run
from offers.management.commands.export_comparison import Command
from offers.models import Job
from offers.views_export import ExportForm
from tests.factories import OfferFactory, PreferencesFactory

ROOT = Path(__file__).resolve().parents[2]
KEYS = list(EXPORT_FORMATS)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def test_registry_entries_are_consistent():
    assert KEYS == ["csv", "xlsx", "json", "html"]
    max_length = Job._meta.get_field("format").max_length
    for key, fmt in EXPORT_FORMATS.items():
        assert fmt.key == key and len(key) <= max_length
        assert fmt.extension.isalnum() and fmt.content_type
        assert str(fmt.label)
        assert callable(fmt.write)
    with pytest.raises(ValueError, match="unknown export format 'exe'"):
        export_format("exe")


def test_model_form_and_command_read_the_registry():
    field = Job._meta.get_field("format")
    assert [key for key, _label in field.choices] == KEYS
    assert list(field.choices) == FORMAT_CHOICES
    (constraint,) = [c for c in Job._meta.constraints if c.name == "job_format_valid"]
    export, restore = constraint.condition.children
    assert sorted(export.children) == [("format__in", KEYS), ("kind", "export")]
    assert sorted(restore.children) == [("format", ""), ("kind", "restore")]
    assert [key for key, _label in ExportForm().fields["format"].choices] == KEYS
    parser = Command().create_parser("manage.py", "export_comparison")
    (action,) = [a for a in parser._actions if a.dest == "format"]
    assert list(action.choices) == KEYS


@pytest.mark.django_db
@pytest.mark.parametrize(
    "values",
    [{"kind": "export", "format": "exe"}, {"kind": "export"}, {"kind": "restore", "format": "csv"}],
)
def test_the_database_refuses_an_unregistered_format(alice, values):
    """An export has a registered format; a restore has none."""
    with transaction.atomic(), pytest.raises(IntegrityError):
        Job.objects.create(owner=alice, **values)


def test_no_other_module_keeps_its_own_list_of_formats():
    """Two format keys or a format's content type outside the registry is a second list."""
    keys = re.compile("[\"'](" + "|".join(KEYS) + ")[\"']")
    content_types = [f.content_type.split(";")[0] for f in EXPORT_FORMATS.values()]
    offenders = []
    sources = [*ROOT.glob("offers/**/*.py"), *ROOT.glob("templates/offers/**/*.html")]
    for path in sources:
        if path.name == "formats.py" or "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if len(set(keys.findall(text))) >= 2:
            offenders.append(f"{path.relative_to(ROOT)}: format keys")
        # The backup file is JSON too: its own content type, not a comparison format's.
        if any(ct in text for ct in content_types if ct != "application/json"):
            offenders.append(f"{path.relative_to(ROOT)}: content type")
    assert offenders == []


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
def test_every_format_downloads_with_its_content_type(client_alice_reauth, alice, key):
    fmt = EXPORT_FORMATS[key]
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name="Acme")
    response = client_alice_reauth.post(reverse("offers:export_start"), {"format": key})
    assert response.status_code == 200
    assert response["Content-Type"] == fmt.content_type
    assert response["Content-Disposition"].endswith(f'.{fmt.extension}"')
    assert len(response.content) > 100


@pytest.mark.django_db
@pytest.mark.parametrize("key", KEYS)
def test_every_format_runs_as_a_job_and_downloads_with_its_content_type(
    client_alice_reauth, alice, key, tmp_path
):
    fmt = EXPORT_FORMATS[key]
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice)
    job = Job.objects.create(owner=alice, kind="export", format=key)
    assert job_run(job_id=job.pk) == "done"
    job.refresh_from_db()
    assert job.file_path.endswith(f".{fmt.extension}")
    assert (tmp_path / job.file_path).stat().st_size == job.file_bytes > 100
    response = client_alice_reauth.get(reverse("offers:export_job_download", args=[job.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == fmt.content_type
    assert response["Content-Disposition"].endswith(f'.{fmt.extension}"')
    assert job.filename.endswith(f".{fmt.extension}")


@pytest.mark.django_db
def test_a_format_that_cannot_run_inline_always_runs_as_a_job(
    client_alice_reauth, alice, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setitem(
        EXPORT_FORMATS, "json", dataclasses.replace(EXPORT_FORMATS["json"], inline=False)
    )
    OfferFactory(owner=alice)  # one option: small, would otherwise download at once
    with django_capture_on_commit_callbacks(execute=True):
        response = client_alice_reauth.post(reverse("offers:export_start"), {"format": "json"})
    job = Job.objects.get(owner=alice)
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:export_job", args=[job.pk])
    assert job.format == "json" and job.status == Job.Status.DONE


@pytest.mark.django_db
def test_migrations_follow_the_registry():
    """A new format changes the model's choices and constraint: it needs its migration."""
    call_command("makemigrations", "offers", check=True, dry_run=True, verbosity=0)
