"""Offer terms through the app: fixed vest dates, bonus cycles and sign-on instalments are
stored, edited in the package form, checked, read by the engine and kept by a backup."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from compensation import engine
from compensation.models import Package
from compensation.selectors import package_to_spec
from compensation.services import package_update
from offers.export.backup import BackupError, backup_build
from offers.export.restore import backup_restore
from tests.compensation.test_views import package_post
from tests.factories import EquityGrantFactory, OfferFactory, PackageFactory, SignOnFactory

pytestmark = pytest.mark.django_db

META_DATES = [[2, 15], [5, 15], [8, 15], [11, 15]]


def test_package_form_stores_vest_dates_instalments_and_bonus_cycle(client_alice, alice):
    data = package_post(
        **{
            "grants-0-weights_text": "25,25,25,25",
            "grants-0-frequency_months": "3",
            "grants-0-vest_dates_text": "02-15, 05-15, 08-15, 11-15",
            "signons-0-instalments_text": "0:50%, 12:50%",
            "signons-0-clawback_kind": "full",
            "bonus_cycle": "calendar",
            "bonus_payout_month": "3",
            "bonus_prorate_first_year": "on",
            "bonus_cutoff_month": "10",
            "bonus_cutoff_day": "1",
        }
    )
    assert client_alice.post(reverse("compensation:package_create"), data).status_code == 302
    package = Package.objects.get(owner=alice)
    assert package.grants.get().vest_dates == META_DATES
    sign_on = package.sign_ons.get()
    assert sign_on.instalments == [[0, 0.5], [12, 0.5]] and sign_on.clawback_kind == "full"
    assert (package.bonus_cycle, package.bonus_cutoff_month, package.bonus_cutoff_day) == (
        "calendar",
        10,
        1,
    )
    spec = package_to_spec(package, horizon_years=4)
    assert spec.grants[0].schedule.vest_dates == ((2, 15), (5, 15), (8, 15), (11, 15))
    assert spec.sign_on[0].instalments == ((0, 0.5), (12, 0.5))
    assert spec.sign_on[0].clawback_kind == "full"
    assert spec.bonus_cycle == engine.BonusCycle(start_month=1, payout_month=3, cutoff=(10, 1))
    # The edit page shows them back as typed.
    page = client_alice.get(reverse("compensation:package_edit", args=[package.pk]))
    html = page.content.decode()
    assert "02-15, 05-15, 08-15, 11-15" in html and "0:50%, 12:50%" in html
    detail = client_alice.get(reverse("compensation:package_detail", args=[package.pk]))
    text = detail.content.decode()
    assert "quarterly on 15 Feb/May/Aug/Nov" in text
    assert "Calendar year" in text and "paid on 15 Mar" in text
    assert "nothing the first year if starting after 1 October" in text
    assert "(in full)" in text and "12: 50%" in text


def test_the_meta_preset_sets_the_fixed_dates(client_alice, alice):
    data = package_post(**{"grants-0-preset": "meta_quarterly", "grants-0-weights_text": ""})
    assert client_alice.post(reverse("compensation:package_create"), data).status_code == 302
    grant = Package.objects.get(owner=alice).grants.get()
    assert grant.vest_dates == META_DATES and grant.frequency_months == 3


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("grants-0-vest_dates_text", "13-15", "month"),
        ("grants-0-vest_dates_text", "04-31", "day"),
        ("grants-0-vest_dates_text", "02-15, 08-15", "one date per vest in a year"),
        ("grants-0-vest_dates_text", "Feb 15", "month-day"),
        ("signons-0-instalments_text", "0:50%", "sum to 1"),
        ("signons-0-instalments_text", "half", "months:share"),
        ("bonus_cutoff_month", "4", "both the cut-off month and day"),
    ],
)
def test_bad_terms_are_shown_not_500(client_alice, field, value, message):
    overrides = {"grants-0-weights_text": "25,25,25,25", "grants-0-frequency_months": "3"}
    overrides[field] = value
    response = client_alice.post(reverse("compensation:package_create"), package_post(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Package.objects.exists()


def test_a_cut_off_day_its_month_lacks_is_refused(client_alice):
    data = package_post(**{"bonus_cutoff_month": "4", "bonus_cutoff_day": "31"})
    response = client_alice.post(reverse("compensation:package_create"), data)
    assert (
        response.status_code == 200 and "does not exist in that month" in response.content.decode()
    )
    assert not Package.objects.exists()


def test_the_service_refuses_bad_instalments_and_cut_offs(alice):
    package = PackageFactory(owner=alice)
    with pytest.raises(ValidationError) as info:
        package_update(
            user=alice,
            package=package,
            expected_version=package.version,
            fields={"bonus_cutoff_month": 2, "bonus_cutoff_day": 30},
        )
    assert "bonus_cutoff_day" in info.value.message_dict
    package.refresh_from_db()
    with pytest.raises(ValidationError) as info:
        package_update(
            user=alice,
            package=package,
            expected_version=package.version,
            fields={},
            sign_ons=[{"amount": 1000, "year": 1, "clawback_months": 12, "instalments": [[0, 2]]}],
        )
    assert "instalments" in str(info.value)
    assert not package.sign_ons.exists()


def terms_package(owner):
    package = PackageFactory(
        owner=owner,
        bonus_cycle="fiscal",
        bonus_fiscal_start_month=7,
        bonus_payout_month=9,
        bonus_prorate_first_year=False,
        bonus_cutoff_month=4,
        bonus_cutoff_day=1,
        bonus_paid_if_left=True,
    )
    EquityGrantFactory(package=package, vest_dates=META_DATES)
    SignOnFactory(package=package, instalments=[[0, 0.5], [12, 0.5]], clawback_kind="full")
    OfferFactory(owner=owner, package=package)
    return package


def test_backup_round_trip_keeps_the_terms(alice, bob):
    terms_package(alice)
    doc = backup_build(user=alice)
    assert doc["grants"][0]["vest_dates"] == META_DATES
    assert doc["sign_ons"][0]["instalments"] == [[0, 0.5], [12, 0.5]]
    backup_restore(user=bob, raw=json.dumps(doc))
    package = Package.objects.get(owner=bob)
    assert package.grants.get().vest_dates == META_DATES
    sign_on = package.sign_ons.get()
    assert sign_on.instalments == [[0, 0.5], [12, 0.5]] and sign_on.clawback_kind == "full"
    assert (
        package.bonus_cycle,
        package.bonus_fiscal_start_month,
        package.bonus_payout_month,
        package.bonus_prorate_first_year,
        package.bonus_cutoff_month,
        package.bonus_cutoff_day,
        package.bonus_paid_if_left,
    ) == ("fiscal", 7, 9, False, 4, 1, True)


def test_an_old_backup_without_the_terms_restores_with_the_defaults(alice, bob):
    terms_package(alice)
    doc = backup_build(user=alice)
    for key in (
        "bonus_cycle",
        "bonus_fiscal_start_month",
        "bonus_payout_month",
        "bonus_prorate_first_year",
        "bonus_cutoff_month",
        "bonus_cutoff_day",
        "bonus_paid_if_left",
    ):
        del doc["packages"][0][key]
    del doc["grants"][0]["vest_dates"]
    del doc["sign_ons"][0]["instalments"], doc["sign_ons"][0]["clawback_kind"]
    backup_restore(user=bob, raw=json.dumps(doc))
    package = Package.objects.get(owner=bob)
    assert package.bonus_cycle == "anniversary" and package.bonus_prorate_first_year
    assert package.grants.get().vest_dates is None
    sign_on = package.sign_ons.get()
    assert sign_on.instalments is None and sign_on.clawback_kind == "prorated"
    spec = package_to_spec(package, horizon_years=4)
    assert spec.bonus_cycle is None and spec.sign_on[0].instalments == ((0, 1.0),)


@pytest.mark.parametrize(
    ("section", "key", "value", "error"),
    [
        ("grants", "vest_dates", [[2, 30]], "grants[0].vest_dates"),
        ("grants", "vest_dates", "Feb 15", "grants[0].vest_dates"),
        ("sign_ons", "instalments", [[0, 0.4]], "sign_ons[0].instalments"),
        ("sign_ons", "clawback_kind", "half", "sign_ons[0].clawback_kind"),
        ("packages", "bonus_cutoff_day", 31, "packages[0].bonus_cutoff_day"),
    ],
)
def test_a_backup_with_bad_terms_is_refused(alice, bob, section, key, value, error):
    terms_package(alice)
    doc = backup_build(user=alice)
    doc[section][0][key] = value
    with pytest.raises(BackupError) as info:
        backup_restore(user=bob, raw=json.dumps(doc))
    assert any(e.startswith(error) for e in info.value.errors), info.value.errors
    assert not Package.objects.filter(owner=bob).exists()


def test_the_current_job_bonus_paid_after_the_new_start_is_not_counted(alice):
    """The engine's rule through a real package: a March payout after a February start."""
    package = PackageFactory(
        owner=alice,
        base=200_000,
        bonus_target_pct=15,
        bonus_cycle="calendar",
        bonus_payout_month=3,
        bonus_prorate_first_year=False,
        start_date=dt.date(2026, 12, 1),
    )
    spec = package_to_spec(package, horizon_years=4)
    lost = engine.forfeited_on_leave(spec, dt.date(2027, 2, 13), price=1.0)
    # The whole 2026 bonus (paid 15 Mar 2027) and 43 days of 2027's, on the base after
    # the 3 % raise of the package's first anniversary (1 Dec 2027).
    assert lost["bonus_unpaid"] == pytest.approx(30_000 + 30_900 * 43 / 365)


@pytest.mark.parametrize(
    ("month", "day"), [(4, None), (None, 1), (13, 1), (4, 0)], ids=["month", "day", "13", "0"]
)
def test_the_database_refuses_a_half_or_impossible_cut_off(alice, month, day):
    """The last wall, under the form and the service: both or neither, in range (the NOT NULLs:
    a CHECK passes when a comparison with NULL is unknown)."""
    from django.db import IntegrityError, transaction

    package = PackageFactory(owner=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Package.objects.filter(pk=package.pk).update(bonus_cutoff_month=month, bonus_cutoff_day=day)
    Package.objects.filter(pk=package.pk).update(bonus_cutoff_month=4, bonus_cutoff_day=1)
