"""Hostile restores: values the forms refuse are refused by a restore, and pages keep working.

Each payload is one that got through before (issue 18): the whole file is refused, with the
record and field named, nothing is written, and the user's pages still render.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse

from interviews.models import Round
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    RefresherFactory,
    ScenarioFactory,
)
from tests.interviews.factories import ProcessFactory, RoundFactory, TeamMatchFactory
from tests.offers.test_backup import row_counts

pytestmark = pytest.mark.django_db


def _seed(user) -> dict:
    offer = OfferFactory(owner=user, name="Seeded offer")
    EquityGrantFactory(package=offer.package)
    RefresherFactory(package=offer.package)
    ScenarioFactory(owner=user, offer=offer, name="Seeded scenario")
    PreferencesFactory(owner=user)
    process = ProcessFactory(owner=user, company=offer.company)
    RoundFactory(owner=user, process=process)
    TeamMatchFactory(owner=user, process=process)
    return {"offer": offer, "process": process}


@pytest.fixture
def doc(alice):
    _seed(alice)
    return backup_build(user=alice)


@pytest.fixture
def bob_pages(bob, client, reauth):
    """Bob with data of his own, logged in, and the pages a broken restore used to take down."""
    objs = _seed(bob)
    scenario = bob.scenarios.get()
    client.force_login(bob)
    reauth(client)
    return client, [
        reverse("offers:dashboard"),
        reverse("offers:offer_list"),
        reverse("offers:offer_detail", kwargs={"pk": objs["offer"].pk}),
        reverse("offers:offer_compare"),
        reverse("offers:negotiation", kwargs={"pk": objs["offer"].pk}),
        reverse("offers:scenario_list"),
        reverse("offers:scenario_detail", kwargs={"pk": scenario.pk}),
        reverse("offers:export_report"),
        reverse("interviews:process_detail", kwargs={"pk": objs["process"].pk}),
        reverse("interviews:calendar"),
    ]


def refused_and_pages_render(bob, doc, bob_pages) -> list[str]:
    before = row_counts()
    with pytest.raises(BackupError) as info:
        backup_restore(user=bob, raw=json.dumps(doc))
    assert row_counts() == before, "a refused restore wrote something"
    client, urls = bob_pages
    for url in urls:
        assert client.get(url).status_code == 200, url
    return info.value.errors


def test_restore_refuses_refresher_weights_null(bob, doc, bob_pages):
    doc["refreshers"][0]["weights"] = [None, None]
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [
        "refreshers[0].weights: expected 1 to 10 yearly percentages (numbers of 0 or more), "
        "got [null, null]"
    ]


def test_restore_refuses_grant_vesting_from_year_9999(bob, doc, bob_pages):
    doc["grants"][0]["vest_start"] = "9999-12-31"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == ["grants[0].vest_start: 9999-12-31 is outside the years 1900 to 2200"]


def test_restore_refuses_dates_before_1900(bob, doc, bob_pages):
    doc["packages"][0]["start_date"] = "0001-01-01"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == ["packages[0].start_date: 0001-01-01 is outside the years 1900 to 2200"]


@pytest.mark.parametrize(
    "result",
    [
        {"options": "abc"},
        {"paths": 10, "options": [{"name": "x"}]},
        {
            "paths": 10,
            "currency": "USD",
            "options": [
                {
                    "key": "1",
                    "name": "x",
                    "is_scenario": True,
                    "cumulative": {"p10": [1], "p50": [1, 2], "p90": [1]},
                    "prob_scenario_beats": None,
                }
            ],
        },
        [1, 2, 3],
        "done",
    ],
)
def test_restore_refuses_scenario_done_with_malformed_result(bob, doc, bob_pages, result):
    doc["scenarios"][0]["mc_status"] = "done"
    doc["scenarios"][0]["mc_result"] = result
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert len(errors) == 1 and errors[0].startswith("scenarios[0].mc_result: "), errors


def test_restore_accepts_a_real_monte_carlo_result(bob, doc):
    doc["scenarios"][0]["mc_status"] = "done"
    doc["scenarios"][0]["mc_result"] = {
        "paths": 1000,
        "currency": "USD",
        "options": [
            {
                "key": "1",
                "name": "x",
                "is_scenario": True,
                "yearly": {"p10": [1.0, 2.0], "p50": [2.0, 3.0], "p90": [3.0, 4.0]},
                "cumulative": {"p10": [1.0, 3.0], "p50": [2.0, 5.0], "p90": [3.0, 7.0]},
                "mean_cumulative": 5.0,
                "prob_scenario_beats": None,
            }
        ],
    }
    result = backup_restore(user=bob, raw=json.dumps(doc))
    assert result.counts["scenarios"] == 1


def test_restore_refuses_year_frequencies_abc(bob, doc, bob_pages):
    doc["grants"][0]["year_frequencies"] = "abc"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [
        "grants[0].year_frequencies: expected null or a list of months between vests, "
        'one per year, got "abc"'
    ]


def test_restore_refuses_year_frequencies_of_the_wrong_length(bob, doc, bob_pages):
    doc["grants"][0]["year_frequencies"] = [12, 12]
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert len(errors) == 1 and errors[0].startswith("grants[0].year_frequencies: ")


def test_restore_refuses_round_at_9999_12_31(bob, doc, bob_pages):
    doc["rounds"][0]["scheduled_at"] = "9999-12-31T23:59:00+00:00"
    doc["rounds"][0]["timezone"] = "America/Adak"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [
        "rounds[0].scheduled_at: 9999-12-31T23:59:00+00:00 is outside the years 1900 to 2200"
    ]


@pytest.mark.parametrize(
    ("section", "field"),
    [
        ("offers", "work_timezone"),
        ("preferences", "home_timezone"),
        ("rounds", "timezone"),
        ("team_matches", "time_zone"),
    ],
)
def test_restore_refuses_invalid_time_zones(bob, doc, bob_pages, section, field):
    record = doc[section] if section == "preferences" else doc[section][0]
    record[field] = "Mars/Olympus_Mons"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    where = section if section == "preferences" else f"{section}[0]"
    assert len(errors) == 1 and errors[0].startswith(f"{where}.{field}: "), errors
    assert "Mars/Olympus_Mons" in errors[0]


def test_restore_refuses_weights_adding_to_180(bob, doc, bob_pages):
    doc["grants"][0]["weights"] = [45, 45, 45, 45]
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == ["grants[0].weights: must add up to 100 (they add up to 180)"]


def test_restore_refuses_every_hostile_value_at_once_naming_each(bob, doc, bob_pages):
    doc["refreshers"][0]["weights"] = [None, None]
    doc["grants"][0]["vest_start"] = "9999-12-31"
    doc["offers"][0]["work_timezone"] = "Nowhere/Town"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert {e.split(":")[0] for e in errors} == {
        "refreshers[0].weights",
        "grants[0].vest_start",
        "offers[0].work_timezone",
    }


def test_restore_of_the_clean_file_still_works(bob, doc):
    result = backup_restore(user=bob, raw=json.dumps(doc))
    assert result.counts["grants"] == 1 and result.counts["rounds"] == 1
    assert Round.objects.get(owner=bob).scheduled_at == dt.datetime(
        2026, 2, 10, 2, 0, tzinfo=dt.UTC
    )


# Text PostgreSQL cannot hold, codes outside ISO 4217 -----------------------------------------
# A NUL in a restored name reached the database: a DataError (a 500) on PostgreSQL.

NUL_REFUSED = "contains U+0000, a character that cannot be stored; remove it"


@pytest.mark.parametrize(
    ("section", "field"),
    [
        ("offers", "name"),
        ("offers", "notes"),
        ("packages", "name"),
        ("rounds", "feedback"),
        ("team_matches", "team"),
        ("scenarios", "name"),
    ],
)
def test_restore_refuses_a_nul_in_text(bob, doc, bob_pages, section, field):
    doc[section][0][field] = "Before\x00after"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [f"{section}[0].{field}: {NUL_REFUSED}"]


def test_restore_refuses_a_lone_surrogate(bob, doc, bob_pages):
    doc["offers"][0]["name"] = "Acme \ud800"  # json.dumps writes it as the escape \ud800
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [
        "offers[0].name: contains U+D800, a character that cannot be stored; remove it"
    ]


def test_restore_refuses_a_nul_inside_a_json_field(bob, doc, bob_pages):
    doc["scenarios"][0]["mc_status"] = "done"
    doc["scenarios"][0]["mc_result"] = {
        "paths": 10,
        "currency": "USD",
        "options": [
            {
                "key": "1",
                "name": "x\x00",
                "is_scenario": True,
                "cumulative": {"p10": [1.0], "p50": [2.0], "p90": [3.0]},
                "prob_scenario_beats": None,
            }
        ],
    }
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [f"scenarios[0].mc_result: {NUL_REFUSED}"]


@pytest.mark.parametrize(
    ("section", "field"),
    [("packages", "currency"), ("grants", "price_currency"), ("preferences", "home_currency")],
)
def test_restore_refuses_a_currency_outside_iso_4217(bob, doc, bob_pages, section, field):
    record = doc[section] if section == "preferences" else doc[section][0]
    record[field] = "XYZ"
    errors = refused_and_pages_render(bob, doc, bob_pages)
    where = section if section == "preferences" else f"{section}[0]"
    assert errors == [
        f"{where}.{field}: XYZ is not an ISO 4217 currency code; use one such as USD, SGD, TWD."
    ]


def test_restore_checks_a_deeply_nested_json_field_without_recursion(bob, doc, bob_pages):
    nested: object = "deep\x00"
    for _ in range(900):  # json.loads reads it; a recursive walk would not
        nested = [nested]
    doc["scenarios"][0]["mc_status"] = "done"
    doc["scenarios"][0]["mc_result"] = nested
    errors = refused_and_pages_render(bob, doc, bob_pages)
    assert errors == [f"scenarios[0].mc_result: {NUL_REFUSED}"]
