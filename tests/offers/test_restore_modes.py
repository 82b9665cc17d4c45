"""Restore: the file's version read strictly, a Monte Carlo never restored stuck, add or replace."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import RestoreJob
from offers.export.backup import (
    BackupError,
    backup_build,
    backup_restore,
    backup_restore_batched,
)
from offers.models import Preferences, Scenario
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


def test_replacing_in_batches_leaves_exactly_the_backups_data(good, alice):
    changed_since_the_backup(alice)
    backup_restore_batched(user=alice, raw=json.dumps(good), replace=True)
    assert without_meta(backup_build(user=alice)) == without_meta(good)


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
    assert "does not go to the trash" in page


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


def test_a_large_replace_runs_as_a_job_and_replaces_in_its_hand_over(
    good, alice, client_alice_here, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("offers.export.job_queue.RESTORE_JOB_RECORDS", 1)
    changed_since_the_backup(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_restore(
            client_alice_here, json.dumps(good).encode(), mode="replace", confirm_replace="on"
        )
    job = RestoreJob.objects.get(owner=alice)
    assert response["Location"] == reverse("offers:backup_import_job", args=[job.pk])
    job.refresh_from_db()
    assert job.replace and job.status == "done", job.errors
    assert without_meta(backup_build(user=alice)) == without_meta(good)
    done = client_alice_here.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "your data was replaced by its" in done
