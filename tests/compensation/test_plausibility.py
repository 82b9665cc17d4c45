"""Warnings about implausible entries: each fires when it should and is silent otherwise."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from compensation import selectors
from compensation.plausibility import CHECKS, package_warnings
from tests.factories import (
    BandFactory,
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    LevelFactory,
    OfferFactory,
    PackageFactory,
    PreferencesFactory,
    RefresherFactory,
)

pytestmark = pytest.mark.django_db


def codes(package, **kwargs) -> list[str]:
    loaded = selectors.package_get(user=package.owner, pk=package.pk)
    return [w.code for w in package_warnings(loaded, **kwargs)]


@pytest.fixture
def plain(alice):
    """USD 200,000 base; USD 400,000 over 4 years at the company's USD 100: all plausible."""
    company = CompanyFactory(owner=alice, share_price=Decimal("100"))
    package = PackageFactory(owner=alice, company=company, base=Decimal("200000"))
    EquityGrantFactory(package=package, value=Decimal("400000"), grant_price=Decimal("100"))
    return package


def test_every_check_is_registered_once():
    assert list(CHECKS) == [
        "missing_fx",
        "stock_over_base",
        "base_over_band",
        "grant_price_far",
    ]


def test_plausible_package_has_no_warnings(plain):
    assert codes(plain, home_currency="USD") == []


def test_stock_over_three_times_base(plain):
    # 400,000 / 4 = 100,000 a year plus a 500,001 refresher: 600,001 > 3 x 200,000.
    RefresherFactory(package=plain, yearly_value=Decimal("500001"))
    (warning,) = package_warnings(selectors.package_get(user=plain.owner, pk=plain.pk))
    assert warning.code == "stock_over_base"
    assert "600,001 USD" in warning.message and "200,000 USD" in warning.message


def test_stock_at_three_times_base_is_silent(plain):
    RefresherFactory(package=plain, yearly_value=Decimal("500000"))  # exactly 3 x base
    assert codes(plain) == []


def test_stock_over_base_converts_a_usd_grant_on_a_twd_package(alice):
    # USD 2,000,000 / 4 = USD 500,000 a year = TWD 16,000,000 > 3 x TWD 4,800,000: a TWD
    # amount typed into a USD grant shows up here.
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(owner=alice, share_price=Decimal("100"))
    package = PackageFactory(owner=alice, company=company, currency="TWD", base=Decimal("4800000"))
    EquityGrantFactory(package=package, value=Decimal("2000000"), grant_price=Decimal("100"))
    assert codes(package) == ["stock_over_base"]
    package.grants.update(value=Decimal("1600000"))  # USD 400,000 a year = TWD 12.8 million
    assert codes(package) == []


def test_base_over_band_maximum_by_more_than_a_fifth(plain):
    level = LevelFactory(company=plain.company, code="E5")
    BandFactory(
        owner=plain.owner,
        level=level,
        base_min=Decimal("120000"),
        base_mid=Decimal("140000"),
        base_max=Decimal("160000"),
    )
    plain.level = level
    plain.save()
    # 200,000 > 1.2 x 160,000 = 192,000.
    (warning,) = package_warnings(selectors.package_get(user=plain.owner, pk=plain.pk))
    assert warning.code == "base_over_band" and "160,000 USD" in warning.message
    plain.base = Decimal("192000")
    plain.save()
    assert codes(plain) == []


def test_missing_fx_between_pay_stock_and_home(plain):
    plain.currency = "SGD"
    plain.save()
    warnings = package_warnings(
        selectors.package_get(user=plain.owner, pk=plain.pk), home_currency="TWD"
    )
    assert [w.code for w in warnings] == ["missing_fx", "missing_fx"]
    assert "from SGD to TWD" in warnings[0].message and "from USD to SGD" in warnings[1].message
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    assert codes(plain, home_currency="TWD") == []  # SGD->TWD goes through USD


def test_grant_price_far_from_the_share_price(plain):
    # A TWD price typed as USD: 3,200 against 100 is 32 times the share price.
    plain.grants.update(grant_price=Decimal("3200"), value=Decimal("12800000"))
    (warning,) = [
        w
        for w in package_warnings(selectors.package_get(user=plain.owner, pk=plain.pk))
        if w.code == "grant_price_far"
    ]
    assert "3,200.00 USD" in warning.message and "32.00 times" in warning.message


def test_grant_price_within_half_either_way_is_silent(plain):
    for price in ("50", "150"):
        plain.grants.update(grant_price=Decimal(price), value=Decimal(price) * 4000)
        assert "grant_price_far" not in codes(plain)
    plain.grants.update(grant_price=Decimal("49"), value=Decimal("196000"))
    assert "grant_price_far" in codes(plain)


def test_grant_price_in_its_own_currency_is_converted(plain):
    # TWD 3,200 a share = USD 100 at 1 USD = 32 TWD: the company's price, no warning.
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    plain.currency = "TWD"
    plain.base = Decimal("6400000")
    plain.save()
    plain.grants.update(
        grant_price=Decimal("3200"), value=Decimal("12800000"), price_currency="TWD"
    )
    assert codes(plain) == []


def test_package_page_shows_the_warnings_box(client_alice, plain):
    url = reverse("compensation:package_detail", args=[plain.pk])
    assert "Worth a second look" not in client_alice.get(url).content.decode()
    RefresherFactory(package=plain, yearly_value=Decimal("900000"))
    text = client_alice.get(url).content.decode()
    assert "Worth a second look" in text and 'data-code="stock_over_base"' in text


def test_offer_page_shows_the_warnings_box(client_alice, alice, plain):
    PreferencesFactory(owner=alice, home_currency="EUR")
    offer = OfferFactory(owner=alice, package=plain, company=plain.company)
    text = client_alice.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    assert 'data-code="missing_fx"' in text and "from USD to EUR" in text


def test_saving_the_package_form_says_when_entries_look_unusual(client_alice, plain):
    from tests.compensation.test_views import package_post

    plain.refresh_from_db()
    data = package_post(plain, base="50000")  # 100,000 of stock a year is fine...
    response = client_alice.post(reverse("compensation:package_edit", args=[plain.pk]), data)
    assert response.status_code == 302
    assert not [m for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]
    plain.refresh_from_db()
    data = package_post(plain, base="30000")  # ...but not against a base of 30,000.
    response = client_alice.post(reverse("compensation:package_edit", args=[plain.pk]), data)
    warnings = [m for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]
    assert len(warnings) == 1 and "three times the base salary" in str(warnings[0])


def test_saving_the_offer_form_says_when_entries_look_unusual(client_alice, alice):
    from tests.offers.test_views_offers import offer_post

    company = CompanyFactory(owner=alice, share_price=Decimal("100"))
    data = offer_post(company=company.pk, currency="USD", stock_currency="", base="100000")
    response = client_alice.post(reverse("offers:offer_create"), data)
    assert response.status_code == 302
    assert not [m for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]
    data = offer_post(
        name="Typo", company=company.pk, currency="USD", base="100000", stock_grant="4000000"
    )
    response = client_alice.post(reverse("offers:offer_create"), data)
    assert response.status_code == 302
    warnings = [m for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]
    assert len(warnings) == 1 and "three times the base salary" in str(warnings[0])
