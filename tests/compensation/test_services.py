from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from accounts.locking import StaleEditError
from accounts.models import Revision
from compensation import services
from compensation.models import Band, Company, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from tests.factories import (
    BandFactory,
    CompanyFactory,
    FxRateFactory,
    LevelFactory,
    LocationPresetFactory,
)

pytestmark = pytest.mark.django_db


def test_company_create_and_update(alice):
    company = services.company_create(
        user=alice, name="Acme AI", ticker="ACME", share_price=Decimal("50")
    )
    assert company.owner == alice and company.share_price == 50
    services.company_update(user=alice, company=company, name="Acme AI Inc")
    assert Company.objects.get(pk=company.pk).name == "Acme AI Inc"


def test_company_duplicate_name_and_bad_values_are_validation_errors(alice):
    services.company_create(user=alice, name="Acme")
    with pytest.raises(ValidationError):
        services.company_create(user=alice, name="Acme")
    with pytest.raises(ValidationError):
        services.company_create(
            user=alice, name="Bad", currency="usd", volatility_pct=Decimal("500")
        )


def test_shared_or_others_company_cannot_be_changed(alice, charlie):
    with pytest.raises(PermissionError):
        services.company_update(user=alice, company=CompanyFactory(owner=None), name="x")
    with pytest.raises(PermissionError):
        services.company_update(user=alice, company=CompanyFactory(owner=charlie), name="x")


def test_level_create_on_own_company_only(alice):
    company = CompanyFactory(owner=alice)
    level = services.level_create(user=alice, company=company, code="E5", order=5, equivalence=5)
    assert level.company == company
    with pytest.raises(ValidationError):
        services.level_create(user=alice, company=company, code="E5", order=6)
    with pytest.raises(PermissionError):
        services.level_create(user=alice, company=CompanyFactory(owner=None), code="X", order=1)


def band_fields(level, **overrides):
    fields = {
        "level": level,
        "currency": "USD",
        "base_min": Decimal("100"),
        "base_mid": Decimal("150"),
        "base_max": Decimal("200"),
        "bonus_target_pct": Decimal("10"),
    }
    return {**fields, **overrides}


def test_band_create_update_delete(alice):
    level = LevelFactory(company=CompanyFactory(owner=None))
    band = services.band_create(user=alice, **band_fields(level))
    assert band.owner == alice
    services.band_update(user=alice, band=band, base_max=Decimal("250"))
    assert Band.objects.get(pk=band.pk).base_max == 250
    revision = services.band_delete(user=alice, band=band)
    assert (
        revision.action == Revision.Action.DELETED and not Band.objects.filter(pk=band.pk).exists()
    )


def test_band_must_be_ordered_and_on_a_visible_company(alice, charlie):
    level = LevelFactory(company=CompanyFactory(owner=None))
    with pytest.raises(ValidationError):
        services.band_create(user=alice, **band_fields(level, base_max=Decimal("120")))
    hidden = LevelFactory(company=CompanyFactory(owner=charlie))
    with pytest.raises(ValidationError):
        services.band_create(user=alice, **band_fields(hidden))
    with pytest.raises(PermissionError):
        services.band_update(user=alice, band=BandFactory(level=level), base_max=Decimal("1"))
    assert not Band.objects.filter(owner=alice).exists()


def test_fx_rate_create_update(alice):
    fx = services.fx_rate_create(
        user=alice,
        currency="sgd",
        to_currency="usd",
        rate=Decimal("0.75"),
        as_of=dt.date(2026, 11, 1),
    )
    assert (fx.currency, fx.to_currency, fx.owner) == ("SGD", "USD", alice)
    services.fx_rate_update(user=alice, fx=fx, rate=Decimal("0.76"))
    fx.refresh_from_db()
    assert fx.rate == Decimal("0.76")
    with pytest.raises(ValidationError):
        services.fx_rate_create(
            user=alice,
            currency="USD",
            to_currency="USD",
            rate=Decimal("1"),
            as_of=dt.date(2026, 1, 1),
        )
    with pytest.raises(PermissionError):
        services.fx_rate_update(user=alice, fx=FxRateFactory(), rate=Decimal("1"))


def test_location_create_update(alice):
    place = services.location_create(
        user=alice, name="Hsinchu", currency="TWD", effective_tax_pct=Decimal("18")
    )
    services.location_update(user=alice, location=place, effective_tax_pct=Decimal("19"))
    place.refresh_from_db()
    assert place.owner == alice and place.effective_tax_pct == 19
    with pytest.raises(ValidationError):
        services.location_create(
            user=alice, name="Nowhere", currency="TWD", effective_tax_pct=Decimal("95")
        )
    with pytest.raises(PermissionError):
        services.location_update(user=alice, location=LocationPresetFactory(), name="x")


PACKAGE = {
    "name": "Meta E5 offer",
    "currency": "USD",
    "base": Decimal("230000"),
    "bonus_target_pct": Decimal("15"),
    "start_date": dt.date(2027, 1, 4),
}
GRANT = {
    "label": "On-hire",
    "value": Decimal("480000"),
    "grant_price": Decimal("600"),
    "vest_start": dt.date(2027, 1, 4),
    "weights": [25.0, 25.0, 25.0, 25.0],
    "cliff_months": 0,
    "frequency_months": 3,
}


def test_package_create_with_children_records_a_revision(alice):
    pkg = services.package_create(
        user=alice,
        fields=PACKAGE,
        sign_ons=[{"amount": Decimal("50000"), "year": 1, "clawback_months": 12}],
        grants=[GRANT],
        refreshers=[{"yearly_value": Decimal("100000"), "first_year": 2, "weights": [25] * 4}],
    )
    assert pkg.owner == alice and pkg.version == 1
    assert (pkg.sign_ons.count(), pkg.grants.count(), pkg.refreshers.count()) == (1, 1, 1)
    revision = Revision.objects.get(object_id=pkg.pk, action="created")
    assert len(revision.snapshot) == 4


def test_package_create_rejects_another_users_company(alice, charlie):
    with pytest.raises(ValidationError):
        services.package_create(
            user=alice, fields={**PACKAGE, "company": CompanyFactory(owner=charlie)}
        )
    assert not Package.objects.exists()


def test_package_create_rejects_bad_schedule_and_writes_nothing(alice):
    with pytest.raises(services.ChildValidationError) as info:
        services.package_create(
            user=alice, fields=PACKAGE, grants=[GRANT, {**GRANT, "weights": [50, 10]}]
        )
    assert info.value.index == 1 and info.value.model is EquityGrant
    assert not Package.objects.exists() and not EquityGrant.objects.exists()


def test_package_update_replaces_children_and_records_them(alice, package):
    grant = package.grants.get()
    services.package_update(
        user=alice,
        package=package,
        expected_version=1,
        fields={"base": Decimal("210000")},
        sign_ons=[],
        grants=[{**GRANT, "id": grant.pk, "label": "renamed"}, {**GRANT, "label": "second"}],
        refreshers=[],
    )
    package.refresh_from_db()
    assert package.base == 210000 and package.version == 2
    assert sorted(package.grants.values_list("label", flat=True)) == ["renamed", "second"]
    assert package.grants.filter(pk=grant.pk).exists()
    assert not SignOn.objects.filter(package=package).exists()
    assert not Refresher.objects.filter(package=package).exists()
    revision = Revision.objects.get(object_id=package.pk, action="changed")
    assert [row["model"] for row in revision.snapshot] == [
        "compensation.package",
        "compensation.equitygrant",
        "compensation.equitygrant",
    ]


def test_second_edit_from_the_same_version_is_refused_and_data_intact(alice, package):
    first = Package.objects.get(pk=package.pk)
    second = Package.objects.get(pk=package.pk)
    keep = {"sign_ons": [], "grants": [], "refreshers": []}
    services.package_update(
        user=alice, package=first, expected_version=1, fields={"base": Decimal("210000")}, **keep
    )
    with pytest.raises(StaleEditError):
        services.package_update(
            user=alice,
            package=second,
            expected_version=1,
            fields={"base": Decimal("999999")},
            sign_ons=[{"amount": Decimal("1"), "year": 1, "clawback_months": 0}],
            grants=[],
            refreshers=[],
        )
    package.refresh_from_db()
    assert package.base == 210000 and package.version == 2
    assert not SignOn.objects.filter(package=package).exists()
    assert Revision.objects.filter(object_id=package.pk, action="changed").count() == 1


def test_package_update_of_another_user_is_refused(charlie, package):
    with pytest.raises(PermissionError):
        services.package_update(
            user=charlie,
            package=package,
            expected_version=1,
            fields={},
            sign_ons=[],
            grants=[],
            refreshers=[],
        )
