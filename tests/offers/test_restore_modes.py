"""Restore: the file's version read strictly, a Monte Carlo never restored stuck, add or replace.

Replacing keeps what it replaced in the trash for 30 days, and one step there brings it back.
"""

from __future__ import annotations

import json
import zoneinfo
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from accounts.history import trash_list, trash_purge
from accounts.models import TRASH_DAYS, Revision
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from offers.export.restore_parse import backup_record_count
from offers.middleware import SESSION_TZ_KEY
from offers.models import Job, Preferences, Scenario
from tests.factories import (
    CompanyFactory,
    OfferFactory,
    PackageFactory,
    PreferencesFactory,
    ScenarioFactory,
)
from tests.offers.test_backup import refused, without_meta

pytestmark = pytest.mark.django_db


@pytest.fixture
def good(alice):
    company = CompanyFactory(owner=alice, name="Own Co")
    OfferFactory(owner=alice, package=PackageFactory(owner=alice, company=company), name="O1")
    return backup_build(user=alice)


@pytest.mark.parametrize("version", [True, 1.0, "1", [1]])
def test_a_schema_version_that_is_not_the_whole_number_1_is_refused(good, bob, version):
    """JSON's true passed as 1 (True == 1 in Python); 1.0 and "1" are not the version either."""
    good["schema_version"] = version
    errors = refused(bob, json.dumps(good))
    assert errors == [f"schema_version: expected the whole number 1, got {json.dumps(version)}"]


@pytest.mark.parametrize("status", ["queued", "running"])
def test_a_monte_carlo_running_when_backed_up_is_restored_failed_and_can_run_again(
    client, alice, bob, status
):
    ScenarioFactory(
        owner=alice,
        name="Mid-run",
        mc_status=status,
        mc_progress=40,
        mc_task_id="a" * 32,
        mc_input_hash="b" * 64,
    )
    backup_restore(user=bob, raw=json.dumps(backup_build(user=alice)))
    restored = Scenario.objects.get(owner=bob, name="Mid-run")
    assert restored.mc_status == Scenario.McStatus.FAILED
    assert restored.mc_progress == 0 and restored.mc_task_id == ""
    assert "still running when the backup was made" in restored.mc_error
    # Its page says why and offers to run it again (a queued or running one polls for good).
    client.force_login(bob)
    page = client.get(reverse("offers:scenario_detail", args=[restored.pk])).content.decode()
    assert "still running when the backup was made" in page
    assert reverse("offers:scenario_mc_start", args=[restored.pk]) in page
    assert reverse("offers:scenario_mc_status", args=[restored.pk]) not in page


def test_a_finished_monte_carlo_keeps_its_result(alice, bob):
    result = {
        "paths": 10,
        "currency": "USD",
        "options": [
            {
                "key": "o1",
                "name": "O1",
                "is_scenario": False,
                "cumulative": {"p10": [1.0], "p50": [2.0], "p90": [3.0]},
                "prob_scenario_beats": None,
            }
        ],
    }
    ScenarioFactory(owner=alice, name="Done", mc_status="done", mc_result=result, mc_progress=100)
    backup_restore(user=bob, raw=json.dumps(backup_build(user=alice)))
    restored = Scenario.objects.get(owner=bob, name="Done")
    assert restored.mc_status == Scenario.McStatus.DONE and restored.mc_result == result


def test_backup_error_is_raised_for_bool_version(good, bob):
    good["schema_version"] = True
    with pytest.raises(BackupError):
        backup_restore(user=bob, raw=json.dumps(good))


# Add or replace ---------------------------------------------------------------------------


def test_adding_a_backup_whose_companies_you_have_says_how_to_replace(good, alice):
    """Adding is refused, nothing written, and the message names the replace mode."""
    errors = refused(alice, json.dumps(good))
    assert errors == [
        "companies[0]: you already have a company with name=Own Co; to restore this backup "
        "in place of your data, choose “Replace my data with this backup”"
    ]


def changed_since_the_backup(alice):
    """Alice's data after her backup: an edited name, a new company and option, new prefs."""
    offer = alice.offers.get(name="O1")
    offer.name = "O1 renamed"
    offer.save()
    OfferFactory(owner=alice, name="Later", company=CompanyFactory(owner=alice, name="New Co"))
    PreferencesFactory(owner=alice, home_currency="SGD")


def test_replacing_leaves_exactly_the_backups_data(good, alice):
    changed_since_the_backup(alice)
    result = backup_restore(user=alice, raw=json.dumps(good), replace=True)
    assert result.counts["offers"] == 1 and result.counts["companies"] == 1
    assert without_meta(backup_build(user=alice)) == without_meta(good)
    assert good["preferences"] is None and not Preferences.objects.filter(owner=alice).exists()


def test_a_refused_file_replaces_nothing(good, alice):
    changed_since_the_backup(alice)
    before = backup_build(user=alice)
    good["offers"][0]["package"] = 99
    with pytest.raises(BackupError):
        backup_restore(user=alice, raw=json.dumps(good), replace=True)
    assert without_meta(backup_build(user=alice)) == without_meta(before)


def test_replacing_leaves_other_users_alone(good, alice, bob):
    OfferFactory(owner=bob, name="Bob's", company=CompanyFactory(owner=bob, name="Own Co"))
    bob_before = backup_build(user=bob)
    backup_restore(user=alice, raw=json.dumps(good), replace=True)
    assert without_meta(backup_build(user=bob)) == without_meta(bob_before)


@pytest.fixture
def client_alice_here(client, alice, reauth, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(alice)
    return reauth(client)


def post_restore(client, raw, **fields):
    upload = SimpleUploadedFile("backup.json", raw, "application/json")
    return client.post(reverse("offers:backup_import"), {**fields, "file": upload})


def test_the_page_offers_the_choice_and_states_what_replacing_does(client_alice_here):
    page = client_alice_here.get(reverse("offers:backup_import")).content.decode()
    assert 'type="radio" name="mode" value="add"' in page and "checked" in page
    assert 'value="replace"' in page and "Replace my data with this backup" in page
    assert 'name="confirm_replace"' in page
    assert "is deleted and the backup's data takes its place" in page
    assert "kept in the trash for 30 days" in page and "does not go to the trash" not in page


def test_replacing_through_the_page_needs_the_box_ticked(good, alice, client_alice_here):
    changed_since_the_backup(alice)
    before = backup_build(user=alice)
    raw = json.dumps(good).encode()
    response = post_restore(client_alice_here, raw, mode="replace")
    assert response.status_code == 400
    assert "Tick this box to replace your data" in response.content.decode()
    assert without_meta(backup_build(user=alice)) == without_meta(before)
    response = post_restore(client_alice_here, raw, mode="replace", confirm_replace="on")
    assert response.status_code == 302, response.context and response.context.get("import_errors")
    assert without_meta(backup_build(user=alice)) == without_meta(good)
    page = client_alice_here.get(response["Location"]).content.decode()
    assert "your data was replaced by its" in page


def test_adding_through_the_page_is_the_default(good, alice, client_alice_here):
    response = post_restore(client_alice_here, json.dumps(good).encode())
    assert response.status_code == 400
    assert "Replace my data with this backup" in "".join(response.context["import_errors"])
    assert alice.offers.count() == 1


def test_a_large_replace_runs_as_a_job_and_replaces_in_its_one_step(
    good, alice, client_alice_here, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 1)
    changed_since_the_backup(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_restore(
            client_alice_here, json.dumps(good).encode(), mode="replace", confirm_replace="on"
        )
    job = Job.objects.get(owner=alice)
    assert response["Location"] == reverse("offers:export_job", args=[job.pk])
    job.refresh_from_db()
    assert job.replace and job.status == "done", job.errors
    assert without_meta(backup_build(user=alice)) == without_meta(good)
    done = client_alice_here.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "your data was replaced by its" in done


# What replacing replaced: kept in the trash, back in one step -------------------------------


def comparable(doc: dict) -> dict:
    """A backup without its stamp, and without the preferences' version.

    A restore writes the kept preferences over the row there then, moving its version on
    (optimistic locking: a form loaded before must be refused); every other field, and every
    record of every section in its order (local ids are positions), must be what it was.
    """
    doc = {k: v for k, v in doc.items() if k not in ("exported_at", "username")}
    if doc.get("preferences") is not None:
        doc["preferences"] = {k: v for k, v in doc["preferences"].items() if k != "version"}
    return doc


def records_of(doc: dict) -> int:
    """What the trash counts: every record, and the preferences as one."""
    return backup_record_count(doc) + int(doc["preferences"] is not None)


def restore_from_trash(client, entry):
    return client.post(reverse("offers:revision_restore", args=[entry.pk]))


def test_the_page_replace_keeps_the_data_in_the_trash_and_one_step_brings_it_back(
    good, alice, client_alice_here
):
    changed_since_the_backup(alice)  # two options, two companies, preferences in SGD
    before = backup_build(user=alice)
    response = post_restore(
        client_alice_here, json.dumps(good).encode(), mode="replace", confirm_replace="on"
    )
    assert response.status_code == 302
    assert comparable(backup_build(user=alice)) == comparable(good)
    page = client_alice_here.get(response["Location"]).content.decode()
    assert "The data it replaced is in the trash for 30 days" in page

    # One trash entry for all of it, counted as the trash page says.
    entry = trash_list(user=alice).get()
    assert entry.action == Revision.Action.REPLACED
    assert entry.records == records_of(before)
    trash = client_alice_here.get(reverse("offers:trash")).content.decode()
    # In the user's own zone, as the page shows times (the session keeps it).
    zone = zoneinfo.ZoneInfo(client_alice_here.session[SESSION_TZ_KEY])
    when = f"{timezone.localtime(entry.created_at, zone):%-d %b %Y %H:%M}"
    sections = {k: len(v) for k, v in before.items() if isinstance(v, list) and v}
    # Own Co, New Co and the company the package factory made for "Later" (its package's).
    assert sections == {"companies": 3, "packages": 2, "offers": 2}
    # 3 companies + 2 packages + 2 offers + the preferences = 8.
    assert f"Your data before the restore of {when}: 8 records" in trash
    assert reverse("offers:revision_restore", args=[entry.pk]) in trash

    response = restore_from_trash(client_alice_here, entry)
    assert response.status_code == 302
    assert comparable(backup_build(user=alice)) == comparable(before)
    # The entry left the trash; the backup's data it replaced in turn took its place there.
    entry.refresh_from_db()
    assert entry.restored_at is not None
    now_in_trash = trash_list(user=alice).get()
    assert now_in_trash.pk != entry.pk and now_in_trash.records == records_of(good)
    done = client_alice_here.get(response["Location"]).content.decode()
    assert f"Your data from before the restore of {when} is back (8 records)" in done
    # Restored once: the same post again is a 404, nothing changed.
    assert restore_from_trash(client_alice_here, entry).status_code == 404
    assert comparable(backup_build(user=alice)) == comparable(before)


def test_the_job_replace_keeps_the_data_in_the_trash_too(
    good, alice, client_alice_here, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("offers.export.jobs.LARGE_RECORDS", 1)
    changed_since_the_backup(alice)
    before = backup_build(user=alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_restore(
            client_alice_here, json.dumps(good).encode(), mode="replace", confirm_replace="on"
        )
    done = client_alice_here.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "your data was replaced by its" in done and reverse("offers:trash") in done
    assert comparable(backup_build(user=alice)) == comparable(good)
    entry = trash_list(user=alice).get()
    assert entry.records == records_of(before)
    restore_from_trash(client_alice_here, entry)
    assert comparable(backup_build(user=alice)) == comparable(before)
    assert not trash_list(user=alice).filter(pk=entry.pk).exists()


def test_another_user_can_neither_see_nor_restore_the_entry(good, alice, bob, client):
    changed_since_the_backup(alice)
    backup_restore(user=alice, raw=json.dumps(good), replace=True)
    entry = trash_list(user=alice).get()
    OfferFactory(owner=bob, name="Bob's")
    bob_before = backup_build(user=bob)
    client.force_login(bob)
    assert restore_from_trash(client, entry).status_code == 404
    assert (
        "Your data before the restore" not in client.get(reverse("offers:trash")).content.decode()
    )
    assert comparable(backup_build(user=bob)) == comparable(bob_before)
    assert comparable(backup_build(user=alice)) == comparable(good)
    entry.refresh_from_db()
    assert entry.restored_at is None and not trash_list(user=bob).exists()


def test_the_purge_after_trash_days_removes_the_entry(good, alice, client_alice_here):
    changed_since_the_backup(alice)
    backup_restore(user=alice, raw=json.dumps(good), replace=True)
    entry = trash_list(user=alice).get()
    assert trash_purge(now=entry.created_at + timedelta(days=TRASH_DAYS - 1)) == 0
    assert trash_list(user=alice).filter(pk=entry.pk).exists()
    # Past its days it is no longer offered (a 404), then the purge deletes it.
    Revision.objects.filter(pk=entry.pk).update(
        created_at=timezone.now() - timedelta(days=TRASH_DAYS, minutes=1)
    )
    assert not trash_list(user=alice).exists()
    assert restore_from_trash(client_alice_here, entry).status_code == 404
    assert trash_purge() == 1
    assert not Revision.objects.filter(pk=entry.pk).exists()


def test_a_refused_file_keeps_nothing_and_deletes_nothing(good, alice):
    changed_since_the_backup(alice)
    before = backup_build(user=alice)
    good["offers"][0]["package"] = 99
    with pytest.raises(BackupError):
        backup_restore(user=alice, raw=json.dumps(good), replace=True)
    assert not Revision.objects.filter(owner=alice, action=Revision.Action.REPLACED).exists()
    assert comparable(backup_build(user=alice)) == comparable(before)


def test_a_refusal_in_the_database_keeps_nothing_either(good, alice, monkeypatch):
    """The entry is written in the restore's transaction: a failure after it rolls it back."""
    changed_since_the_backup(alice)
    before = backup_build(user=alice)

    def broken(*args, **kwargs):
        from django.db import IntegrityError

        raise IntegrityError("a rule of the database")

    monkeypatch.setattr("offers.models.Offer.objects.bulk_create", broken)
    with pytest.raises(BackupError):
        backup_restore(user=alice, raw=json.dumps(good), replace=True)
    assert not Revision.objects.filter(owner=alice, action=Revision.Action.REPLACED).exists()
    assert comparable(backup_build(user=alice)) == comparable(before)


def test_an_entry_that_no_longer_passes_the_checks_restores_nothing(good, alice, client_alice_here):
    changed_since_the_backup(alice)
    backup_restore(user=alice, raw=json.dumps(good), replace=True)
    entry = trash_list(user=alice).get()
    entry.snapshot["offers"][0]["package"] = 99
    Revision.objects.filter(pk=entry.pk).update(snapshot=entry.snapshot)
    response = restore_from_trash(client_alice_here, entry)
    assert response["Location"] == reverse("offers:trash")
    page = client_alice_here.get(reverse("offers:trash")).content.decode()
    assert "could not be put back" in page and "unknown package id 99" in page
    assert comparable(backup_build(user=alice)) == comparable(good)
    assert list(trash_list(user=alice)) == [entry]


def test_replacing_an_empty_account_keeps_no_entry(good, bob):
    backup_restore(user=bob, raw=json.dumps(good), replace=True)
    assert not trash_list(user=bob).exists()


def test_the_trash_says_it_in_chinese(alice, client_alice_here):
    company = CompanyFactory(owner=alice, name="Own Co")
    OfferFactory(owner=alice, package=PackageFactory(owner=alice, company=company))
    backup_restore(user=alice, raw=json.dumps(backup_build(user=alice)), replace=True)
    client_alice_here.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    page = client_alice_here.get(reverse("offers:trash")).content.decode()
    assert "您在" in page and "還原前的資料：3 筆資料" in page
    assert "Your data before" not in page
