"""Restore: the file's version read strictly, a Monte Carlo never restored stuck, add or replace."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from offers.export.backup import BackupError, backup_build, backup_restore
from offers.models import Scenario
from tests.factories import CompanyFactory, OfferFactory, PackageFactory, ScenarioFactory
from tests.offers.test_backup import refused

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
