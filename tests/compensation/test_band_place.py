"""A band applies to its own place and currency (issue 28): a Taipei salary in TWD is not
placed in a US band without saying so, and the negotiation never argues from one."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from compensation import selectors
from compensation.selectors.bands import band_applies
from tests.factories import BandFactory, FxRateFactory, LevelFactory, LocationPresetFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def taipei_package(package):
    """Alice's package moved to Taipei in TWD: base 4,800,000 TWD (150,000 USD at 32)."""
    taipei = LocationPresetFactory(name="Taipei", currency="TWD")
    package.location = taipei
    package.currency = "TWD"
    package.base = Decimal("4800000")
    package.level = LevelFactory(company=package.company)
    package.save()
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    return package


@pytest.mark.parametrize(
    ("currency", "location", "applies"),
    [
        ("TWD", "Taipei", True),
        ("TWD", "taipei ", True),  # the place as typed, any case
        ("TWD", "", True),  # a band without a place: wherever its currency is paid
        ("USD", "", False),  # a US dollar band says nothing of a TWD salary
        ("USD", "Taipei", False),
        ("TWD", "Kaohsiung", False),
    ],
)
def test_band_applies_to_its_own_place_and_currency(currency, location, applies):
    band = BandFactory.build(currency=currency, location=location)
    assert band_applies(band, currency="TWD", location="Taipei") is applies


def test_a_band_of_the_place_comes_before_a_band_in_the_currency_elsewhere(alice, taipei_package):
    level = taipei_package.level
    BandFactory(level=level, currency="TWD", location="Kaohsiung")
    BandFactory(level=level, currency="USD", location="")
    local = BandFactory(level=level, currency="TWD", location="Taipei")
    found = selectors.band_for(user=alice, level=level, currency="TWD", location="Taipei")
    assert found == local
    assert selectors.local_band_for(user=alice, level=level, currency="TWD", location="Taipei") == (
        local
    )


def test_a_taipei_salary_is_not_silently_placed_in_a_us_band(client_alice, alice, taipei_package):
    # Only a USD band without a place (a US band): 180/210/240k USD = 5,760,000 / 6,720,000 /
    # 7,680,000 TWD at 32. 4,800,000 TWD is below its bottom, and the page says the band is
    # another currency's, converted, and a rough guide only.
    BandFactory(level=taipei_package.level, currency="USD", location="")
    assert (
        selectors.local_band_for(
            user=alice, level=taipei_package.level, currency="TWD", location="Taipei"
        )
        is None
    )
    page = client_alice.get(reverse("compensation:package_detail", args=[taipei_package.pk]))
    body = page.content.decode()
    assert "data-band-elsewhere" in body
    assert "No band for Taipei in TWD" in body
    assert "band (USD), converted to TWD" in body
    position = page.context["position"]
    assert position["elsewhere"] is True
    assert position["components"][0]["min"] == pytest.approx(5_760_000)


def test_a_band_of_the_place_is_compared_without_a_warning(client_alice, alice, taipei_package):
    # TWD band 4,200,000 / 5,400,000 / 6,600,000: 4,800,000 is halfway from min to mid, P25.
    BandFactory(
        level=taipei_package.level,
        currency="TWD",
        location="Taipei",
        base_min=Decimal("4200000"),
        base_mid=Decimal("5400000"),
        base_max=Decimal("6600000"),
    )
    BandFactory(level=taipei_package.level, currency="USD", location="")
    page = client_alice.get(reverse("compensation:package_detail", args=[taipei_package.pk]))
    assert "data-band-elsewhere" not in page.content.decode()
    assert page.context["position"]["components"][0]["percentile"] == pytest.approx(25)


def test_the_demo_transfer_in_taipei_says_its_band_is_elsewhere(client):
    from offers.models import Offer
    from offers.negotiation import negotiation_for_offer
    from tests.offers.scenario_demo import seed_demo_user

    demo = seed_demo_user()
    client.force_login(demo)
    transfer = Offer.objects.get(owner=demo, name__startswith="Internal transfer: Northwind")
    body = client.get(
        reverse("compensation:package_detail", args=[transfer.package_id])
    ).content.decode()
    assert "No band for Taipei in TWD" in body
    # The negotiation never argues from another place's band.
    rules = {p.rule for p in negotiation_for_offer(user=demo, offer=transfer)}
    assert "top_of_band" not in rules
