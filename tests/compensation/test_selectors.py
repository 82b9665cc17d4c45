from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.http import Http404

from compensation import selectors
from compensation.selectors.queries import band_list
from tests.factories import (
    BandFactory,
    CompanyFactory,
    LevelFactory,
    LocationPresetFactory,
    PackageFactory,
)

pytestmark = pytest.mark.django_db


def test_company_list_is_shared_plus_own(alice, charlie):
    shared = CompanyFactory(owner=None, name="Shared Co")
    mine = CompanyFactory(owner=alice)
    CompanyFactory(owner=charlie)
    assert set(selectors.company_list(user=alice)) == {shared, mine}


def test_company_get_404_for_another_users_private_company(alice, charlie):
    shared = CompanyFactory(owner=None)
    private = CompanyFactory(owner=alice)
    assert selectors.company_get(user=charlie, pk=shared.pk) == shared
    assert selectors.company_get(user=alice, pk=private.pk) == private
    with pytest.raises(Http404):
        selectors.company_get(user=charlie, pk=private.pk)


def test_company_get_prefetches_only_visible_bands(alice, charlie):
    company = CompanyFactory(owner=None)
    level = LevelFactory(company=company)
    shared = BandFactory(level=level)
    mine = BandFactory(level=level, owner=alice)
    BandFactory(level=level, owner=charlie)
    got = selectors.company_get(user=alice, pk=company.pk)
    assert set(got.levels.all()[0].bands.all()) == {shared, mine}


def test_band_list_filters_owner_and_level(alice, charlie):
    level = LevelFactory(company=CompanyFactory(owner=None))
    other = LevelFactory(company=level.company)
    shared = BandFactory(level=level)
    mine = BandFactory(level=other, owner=alice)
    BandFactory(level=level, owner=charlie)
    assert set(band_list(user=alice)) == {shared, mine}
    assert list(band_list(user=alice, level=level)) == [shared]


def test_band_for_prefers_own_then_newest(alice, charlie):
    level = LevelFactory(company=CompanyFactory(owner=None))
    old = BandFactory(level=level, as_of=dt.date(2025, 1, 1))
    new = BandFactory(level=level, as_of=dt.date(2026, 1, 1))
    assert selectors.band_for(user=alice, level=level) == new
    mine = BandFactory(level=level, owner=alice, as_of=dt.date(2024, 1, 1))
    assert selectors.band_for(user=alice, level=level) == mine
    assert selectors.band_for(user=charlie, level=level) == new
    assert old != new
    assert selectors.band_for(user=alice, level=None) is None
    assert selectors.band_for(user=alice, level=LevelFactory()) is None


def test_band_for_prefers_the_package_currency(alice):
    level = LevelFactory(company=CompanyFactory(owner=None))
    usd = BandFactory(level=level, owner=alice)
    sgd = BandFactory(level=level, currency="SGD", location="Singapore")
    assert selectors.band_for(user=alice, level=level) == usd
    assert selectors.band_for(user=alice, level=level, currency="SGD") == sgd


def test_next_level(alice):
    company = CompanyFactory(owner=None)
    e5 = LevelFactory(company=company, code="E5", order=5)
    e6 = LevelFactory(company=company, code="E6", order=6)
    LevelFactory(code="X7", order=7)  # another company's ladder
    assert selectors.next_level(e5) == e6
    assert selectors.next_level(e6) is None


def test_tax_rate_pct():
    place = LocationPresetFactory(effective_tax_pct=Decimal("20"))
    assert selectors.tax_rate_pct(PackageFactory(location=place)) == 20
    assert selectors.tax_rate_pct(PackageFactory(location=None)) == 0


def test_package_list_and_get_are_owner_scoped(alice, charlie, package):
    PackageFactory(owner=charlie)
    assert list(selectors.package_list(user=alice)) == [package]
    with pytest.raises(Http404):
        selectors.package_get(user=charlie, pk=package.pk)


def test_package_get_prefetches_children(alice, package, django_assert_num_queries):
    got = selectors.package_get(user=alice, pk=package.pk)
    with django_assert_num_queries(0):
        assert len(got.sign_ons.all()) == 1
        assert len(got.grants.all()) == 1
        assert len(got.refreshers.all()) == 1
        assert got.company.ticker == "ACME"


def test_import_lookups_by_name_prefer_the_users_own(alice, charlie):
    shared = CompanyFactory(owner=None, name="Acme")
    mine = CompanyFactory(owner=alice, name="ACME")
    CompanyFactory(owner=charlie, name="Hidden Co")
    companies = selectors.companies_by_name(user=alice)
    assert companies["acme"] == mine and "hidden co" not in companies
    assert selectors.companies_by_name(user=charlie)["acme"] == shared
    e5 = LevelFactory(company=mine, code="E5")
    assert selectors.levels_by_code(companies.values()) == {(mine.pk, "e5"): e5}
    LocationPresetFactory(owner=None, name="Taipei")
    own_place = LocationPresetFactory(owner=alice, name="taipei")
    assert selectors.locations_by_name(user=alice)["taipei"] == own_place
