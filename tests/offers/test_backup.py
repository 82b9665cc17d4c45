"""Backup and restore: round trip on the demo data, and hostile files that change nothing."""

from __future__ import annotations

import json

import jsonschema
import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from compensation.demo import seed_reference
from compensation.models import Company, Level
from offers.export.backup import NOT_BACKED_UP, SECTIONS, BackupError, backup_build, backup_bytes
from offers.export.restore import backup_restore
from tests.factories import CompanyFactory, LevelFactory, OfferFactory, PackageFactory
from tests.offers.export_schema import load_schema

pytestmark = pytest.mark.django_db


def row_counts() -> dict[str, int]:
    return {m._meta.label: m.objects.count() for m in apps.get_models() if not m._meta.proxy}


def without_meta(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("exported_at", "username")}


@pytest.fixture
def demo(django_user_model):
    seed_reference()
    call_command("seed_demo", force=True)
    return django_user_model.objects.get(username="demo")


def test_demo_round_trip_is_identical_apart_from_ids(demo, bob, tmp_path):
    first = backup_build(user=demo)
    assert first["offers"] and first["rounds"] and first["preferences"]
    jsonschema.validate(first, load_schema("backup-v1.json"))
    path = tmp_path / "demo.json"
    call_command("export_user_data", user="demo", output=str(path))
    call_command("import_user_data", str(path), user="bob")
    again = backup_build(user=bob)
    assert without_meta(again) == without_meta(first)
    # New rows, owned by Bob; shared reference data is referred to, not copied.
    assert set(bob.offers.values_list("pk", flat=True)).isdisjoint(
        demo.offers.values_list("pk", flat=True)
    )
    assert Company.objects.filter(owner=bob).count() == Company.objects.filter(owner=demo).count()


def test_private_companies_and_levels_are_copied(alice, bob):
    company = CompanyFactory(owner=alice, name="Stealth AI")
    level = LevelFactory(company=company, code="S1")
    OfferFactory(owner=alice, package=PackageFactory(owner=alice, company=company, level=level))
    seed_reference()
    shared = Level.objects.get(company__name="Meta", code="E5")
    # A level on its own company's ladder, as the package writer (and so a restore) requires.
    OfferFactory(owner=alice, company=shared.company, level=shared)
    doc = backup_build(user=alice)
    assert doc["levels"] == [
        {
            "id": 1,
            "company": 1,
            "code": "S1",
            "order": level.order,
            "title": level.title,
            "equivalence": 5,
        }
    ]
    assert {"company": "Meta", "code": "E5"} in [p["level"] for p in doc["packages"]]
    backup_restore(user=bob, raw=json.dumps(doc))
    copy = Level.objects.get(company__owner=bob, code="S1")
    assert copy.pk != level.pk and copy.company.name == "Stealth AI"
    assert bob.offers.filter(package__level=shared).exists()
    assert without_meta(backup_build(user=bob)) == without_meta(doc)


def test_every_owned_model_is_in_the_backup():
    covered = {s.model._meta.label for s in SECTIONS} | {"offers.Preferences", *NOT_BACKED_UP}
    owned = {
        m._meta.label
        for m in apps.get_models()
        if any(f.name == "owner" for f in m._meta.concrete_fields)
    }
    assert owned <= covered, f"add to offers/export/backup.py: {sorted(owned - covered)}"


@pytest.fixture
def good(alice):
    company = CompanyFactory(owner=alice, name="Own Co")
    for i in range(4):
        OfferFactory(
            owner=alice, package=PackageFactory(owner=alice, company=company), name=f"O{i}"
        )
    return backup_build(user=alice)


def refused(user, raw) -> list[str]:
    before = row_counts()
    with pytest.raises(BackupError) as info:
        backup_restore(user=user, raw=raw)
    assert row_counts() == before
    return info.value.errors


def test_unknown_local_id_names_record_and_field(good, bob):
    good["offers"][3]["package"] = 17
    assert refused(bob, json.dumps(good)) == ["offers[3].package: unknown package id 17"]


def test_another_users_ids_and_private_names_are_refused(good, bob, charlie):
    other = OfferFactory(owner=charlie, name="Charlie's")
    CompanyFactory(owner=charlie, name="Charlie Co")
    good["offers"][0]["package"] = other.package_id
    good["packages"][0]["company"] = {"name": "Charlie Co"}
    errors = refused(bob, json.dumps(good))
    assert 'packages[0].company: unknown shared company "Charlie Co"' in errors
    assert any(e.startswith("offers[0].package: unknown package id") for e in errors) or (
        other.package_id <= len(good["packages"])
    )


def test_wrong_types_are_refused(good, bob):
    good["packages"][1]["base"] = "lots"
    good["offers"][2]["remote_weeks_per_year"] = "4"
    good["offers"][1]["name"] = 12
    good["packages"][2]["start_date"] = "2027-13-45"
    errors = refused(bob, json.dumps(good))
    assert any(e.startswith("packages[1].base:") for e in errors)
    assert 'offers[2].remote_weeks_per_year: expected a whole number, got "4"' in errors
    assert "offers[1].name: expected a string, got 12" in errors
    assert any(e.startswith("packages[2].start_date:") for e in errors)


def test_rule_breaking_values_are_refused(good, bob):
    good["offers"][0]["remote_weeks_per_year"] = 60
    good["offers"][1]["kind"] = "hostile"
    good["offers"][2]["surprise"] = 1
    good["offers"][3]["id"] = good["offers"][2]["id"]
    errors = refused(bob, json.dumps(good))
    assert any(e.startswith("offers[0].remote_weeks_per_year:") for e in errors)
    assert any(e.startswith("offers[1].kind:") for e in errors)
    assert "offers[2].surprise: unknown field" in errors
    assert any(e.startswith("offers[3].id: duplicate offer id") for e in errors)


def test_two_offers_on_one_package_are_refused(good, bob):
    good["offers"][1]["package"] = good["offers"][0]["package"]
    errors = refused(bob, json.dumps(good))
    assert any(e.startswith("offers[1]: another offer in the file") for e in errors)


def test_importing_twice_into_the_same_user_is_refused(good, alice):
    errors = refused(alice, json.dumps(good))
    assert errors == [
        "companies[0]: you already have a company with name=Own Co; to restore this backup "
        "in place of your data, choose “Replace my data with this backup”"
    ]


@pytest.mark.parametrize(
    "raw, message",
    [
        (b'{"format": "offerdesk-backup", "schema_version": 1, "offers": [', "not valid JSON"),
        (b"\xff\xfe junk", "not UTF-8"),
        (b"[1, 2, 3]", "not an Offerdesk backup"),
        (b'{"format": "offerdesk-backup", "schema_version": 99}', "schema_version"),
        (
            b'{"format": "offerdesk-backup", "schema_version": 1, "evil": []}',
            "evil: unknown section",
        ),
        (
            b'{"format": "offerdesk-backup", "schema_version": 1, "offers": {"a": 1}}',
            "offers: expected a list",
        ),
        (b'{"format": "offerdesk-backup", "schema_version": 1, "offers": [7]}', "offers[0].id"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_hostile_files_are_refused(bob, raw, message):
    errors = refused(bob, raw)
    assert any(message in e for e in errors), errors


def test_fifty_megabytes_of_junk_is_refused_before_parsing(bob):
    errors = refused(bob, b"x" * (50 * 1024 * 1024))
    assert "more than the 20 MB" in errors[0]


def test_import_command_reports_errors(bob, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "offerdesk-backup", "schema_version": 1, "offers": [{"id": 1}]}')
    before = row_counts()
    with pytest.raises(CommandError, match="offers\\[0\\].package: missing"):
        call_command("import_user_data", str(path), user="bob")
    assert row_counts() == before


def test_backup_bytes_is_json(alice):
    OfferFactory(owner=alice)
    assert json.loads(backup_bytes(user=alice))["format"] == "offerdesk-backup"


def test_a_tax_rule_restores(good, bob):
    from compensation.models import Package

    good["packages"][0]["tax_regime"] = "sg"
    backup_restore(user=bob, raw=json.dumps(good))
    assert sorted(Package.objects.filter(owner=bob).values_list("tax_regime", flat=True)) == [
        "",
        "",
        "",
        "sg",
    ]


def test_an_older_file_without_a_tax_rule_restores_as_flat_rate(good, bob):
    from compensation.models import Package

    for package in good["packages"]:
        del package["tax_regime"]  # a backup written before packages had a tax rule
    backup_restore(user=bob, raw=json.dumps(good))
    assert set(Package.objects.filter(owner=bob).values_list("tax_regime", flat=True)) == {""}


def test_an_unknown_tax_rule_is_refused(good, bob):
    good["packages"][0]["tax_regime"] = "atlantis"
    errors = refused(bob, json.dumps(good))
    assert any(e.startswith("packages[0].tax_regime:") for e in errors)


def test_an_older_file_with_a_cost_of_living_index_restores_without_it(alice, bob):
    """The index no page read is gone; a backup written while places had one still restores."""
    from compensation.models import LocationPreset
    from tests.factories import LocationPresetFactory

    LocationPresetFactory(owner=alice, name="Hsinchu", currency="TWD", time_zone="Asia/Taipei")
    doc = backup_build(user=alice)
    assert "cost_of_living_index" not in doc["locations"][0]
    doc["locations"][0]["cost_of_living_index"] = "65.00"  # as a file of version 1 wrote it
    backup_restore(user=bob, raw=json.dumps(doc))
    place = LocationPreset.objects.get(owner=bob, name="Hsinchu")
    assert (place.currency, place.time_zone) == ("TWD", "Asia/Taipei")
    assert "cost_of_living_index" not in {f.name for f in LocationPreset._meta.get_fields()}


def test_a_retired_field_is_still_refused_where_it_never_was(good, bob):
    good["packages"][0]["cost_of_living_index"] = "65.00"
    assert refused(bob, json.dumps(good)) == ["packages[0].cost_of_living_index: unknown field"]
