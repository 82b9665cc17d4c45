"""One check of a place's time zone: the form takes what the restore takes (issue 37).

The place form took any text ("Mars/Olympus", "../zoneinfo/UTC"), and the user's own backup
was then refused by the restore. Both now ask accounts.zones.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from compensation.models import LocationPreset
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from tests.factories import LocationPresetFactory
from tests.offers.test_backup import without_meta

pytestmark = pytest.mark.django_db

PLACE = {
    "name": "Hsinchu",
    "currency": "TWD",
    "effective_tax_pct": "18",
}
BAD_ZONES = ["Mars/Olympus", "../zoneinfo/UTC", "Asia", "/etc/localtime"]


@pytest.mark.parametrize("zone", BAD_ZONES)
def test_the_place_form_refuses_a_zone_that_is_no_iana_name(client_alice, alice, zone):
    response = client_alice.post(
        reverse("compensation:location_list"), {**PLACE, "time_zone": zone}
    )
    assert response.status_code == 200  # the form again, with its error
    form = response.context["form"]
    assert form.errors["time_zone"] == [
        f"“{zone}” is not a known time zone; use an IANA name such as Asia/Taipei."
    ]
    assert "is not a known time zone" in response.content.decode()
    assert not LocationPreset.objects.filter(owner=alice).exists()


def test_editing_a_place_refuses_a_bad_zone_and_keeps_the_old_one(client_alice, alice):
    place = LocationPresetFactory(owner=alice, time_zone="Asia/Taipei")
    edit = reverse("compensation:location_edit", args=[place.pk])
    response = client_alice.post(edit, {**PLACE, "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert "time_zone" in response.context["form"].errors
    place.refresh_from_db()
    assert place.time_zone == "Asia/Taipei"


def test_the_place_form_suggests_the_zones(client_alice):
    html = client_alice.get(reverse("compensation:location_list")).content.decode()
    assert "data-tz-picker" in html and '<option value="Asia/Taipei">' in html


@pytest.mark.parametrize("zone", ["Asia/Taipei", "UTC", "America/Argentina/Buenos_Aires", ""])
def test_a_zone_the_form_takes_is_backed_up_and_restored(client_alice, alice, bob, zone):
    url = reverse("compensation:location_list")
    assert client_alice.post(url, {**PLACE, "time_zone": f" {zone} "}).status_code == 302
    assert LocationPreset.objects.get(owner=alice).time_zone == zone  # spaces trimmed
    first = backup_build(user=alice)
    backup_restore(user=bob, raw=json.dumps(first))
    assert LocationPreset.objects.get(owner=bob).time_zone == zone
    assert without_meta(backup_build(user=bob)) == without_meta(first)


def test_a_zone_the_form_refuses_the_restore_refuses_too(alice, bob):
    LocationPresetFactory(owner=alice, name="Hsinchu", time_zone="Asia/Taipei")
    doc = backup_build(user=alice)
    places = [r for section in doc.values() if isinstance(section, list) for r in section]
    place = next(r for r in places if isinstance(r, dict) and r.get("time_zone"))
    place["time_zone"] = "../zoneinfo/UTC"
    with pytest.raises(BackupError, match="unknown time zone"):
        backup_restore(user=bob, raw=json.dumps(doc))
    assert not LocationPreset.objects.filter(owner=bob).exists()
