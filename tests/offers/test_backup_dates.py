"""One date range for the forms, the imports and the restore: what a form saves, a backup restores.

A deadline, a vesting start and an FX date at either end of `accounts.dates` are taken by the
forms, backed up and restored as they were; a day outside is refused by the form and by the
restore with the same message.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from accounts.dates import DATE_MAX, DATE_MIN
from compensation.models import FxRate
from compensation.package_parts import EquityGrant
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from offers.models import Offer
from tests.compensation.test_views import package_post
from tests.offers.test_backup import row_counts, without_meta
from tests.offers.test_views_offers import offer_post

pytestmark = pytest.mark.django_db

FX = {"currency": "USD", "to_currency": "TWD", "rate": "31.5"}
OUTSIDE = {DATE_MIN: "1899-12-31", DATE_MAX: "2201-01-01"}


def _save_through_the_forms(client, day: str) -> list[int]:
    """Post an FX rate, a package with a grant and an offer, all dated ``day``; the statuses."""
    return [
        client.post(reverse("compensation:fx_list"), {**FX, "as_of": day}).status_code,
        client.post(
            reverse("compensation:package_create"),
            package_post(start_date=day, **{"grants-0-vest_start": day}),
        ).status_code,
        client.post(
            reverse("offers:offer_create"), offer_post(start_date=day, deadline=day)
        ).status_code,
    ]


@pytest.mark.parametrize("edge", [DATE_MIN, DATE_MAX], ids=["first", "last"])
def test_a_date_at_each_end_saved_by_a_form_round_trips(client_alice, alice, bob, edge, reauth):
    day = edge.isoformat()
    assert _save_through_the_forms(client_alice, day) == [302, 302, 302]
    assert FxRate.objects.get(owner=alice).as_of == edge
    assert Offer.objects.get(owner=alice).deadline == edge
    assert EquityGrant.objects.filter(package__owner=alice, vest_start=edge).count() == 2
    first = backup_build(user=alice)
    backup_restore(user=bob, raw=json.dumps(first))
    assert without_meta(backup_build(user=bob)) == without_meta(first)
    client_alice.force_login(bob)
    reauth(client_alice)
    for url in (
        reverse("offers:dashboard"),
        reverse("offers:offer_list"),
        reverse("offers:offer_detail", args=[Offer.objects.get(owner=bob).pk]),
        reverse("offers:export_report"),
        reverse("compensation:fx_list"),
    ):
        assert client_alice.get(url).status_code == 200, url


@pytest.mark.parametrize("edge", [DATE_MIN, DATE_MAX], ids=["before", "after"])
def test_a_date_outside_is_refused_by_the_forms_and_the_restore_alike(
    client_alice, alice, bob, edge
):
    day = OUTSIDE[edge]
    message = f"{day} is outside the years 1900 to 2200"
    for field, response in (
        ("as_of", client_alice.post(reverse("compensation:fx_list"), {**FX, "as_of": day})),
        (
            "grants-0-vest_start",
            client_alice.post(
                reverse("compensation:package_create"),
                package_post(**{"grants-0-vest_start": day}),
            ),
        ),
        (
            "deadline",
            client_alice.post(reverse("offers:offer_create"), offer_post(deadline=day)),
        ),
    ):
        assert response.status_code in (200, 400), field
        assert message in response.content.decode(), field
    assert not FxRate.objects.filter(owner=alice).exists()
    assert not Offer.objects.filter(owner=alice).exists()
    # The same dates in a backup (edited by hand) are refused with the same words.
    assert _save_through_the_forms(client_alice, edge.isoformat()) == [302, 302, 302]
    doc = backup_build(user=alice)
    doc["fx_rates"][0]["as_of"] = day
    doc["grants"][0]["vest_start"] = day
    doc["offers"][0]["deadline"] = day
    before = row_counts()
    with pytest.raises(BackupError) as refused:
        backup_restore(user=bob, raw=json.dumps(doc))
    assert row_counts() == before
    assert sorted(refused.value.errors) == sorted(
        [
            f"fx_rates[0].as_of: {message}",
            f"grants[0].vest_start: {message}",
            f"offers[0].deadline: {message}",
        ]
    )
