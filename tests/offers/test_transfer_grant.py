"""An empty stock field estimates a new grant for an external offer alone (issue 34).

A transfer or staying keeps the grants held on the move date and adds none: the field is left
empty by a person who has no new grant, not one who wants the band's midpoint.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from offers.models import Offer
from tests.factories import BandFactory, CompanyFactory, LevelFactory, PreferencesFactory
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def level(alice):
    PreferencesFactory(owner=alice)
    company = CompanyFactory(owner=alice, name="Hooli", share_price=Decimal("100"))
    level = LevelFactory(company=company, code="E5")
    # The band's yearly stock midpoint: USD 100,000, so an estimate is 4 x 100,000 = 400,000.
    BandFactory(level=level, owner=alice, stock_mid=Decimal("100000"))
    return level


def _post_new_option(client, level, *, kind: str) -> Offer:
    url = reverse("offers:offer_create")
    values = form_values(client.get(url).content, action=url, page=url)
    assert values["stock_grant"] == ""  # the page renders the field empty
    values.update(
        name=f"{kind} option",
        kind=kind,
        company=str(level.company_id),
        level=str(level.pk),
        base="215,000",
        start_date="2027-02-01",
    )
    response = client.post(url, values)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Offer.objects.get(owner=level.company.owner, name=f"{kind} option")


@pytest.mark.parametrize("kind", [Offer.Kind.INTERNAL, Offer.Kind.STAY])
def test_a_transfer_or_staying_with_an_empty_stock_field_adds_no_grant(client_alice, level, kind):
    offer = _post_new_option(client_alice, level, kind=kind)
    assert list(offer.package.grants.all()) == []


def test_an_external_offer_with_an_empty_stock_field_estimates_from_the_band(client_alice, level):
    offer = _post_new_option(client_alice, level, kind=Offer.Kind.EXTERNAL)
    (grant,) = offer.package.grants.all()
    assert grant.value == Decimal("400000.00")  # 4 x the band's 100,000 a year
    assert grant.label == "Estimated: 4 x the band's yearly stock midpoint"
    assert grant.grant_price == Decimal("100.0000")


def test_the_stock_field_says_what_empty_means(client_alice, level):
    page = client_alice.get(reverse("offers:offer_create")).content.decode()
    assert "keeps the grants you hold and adds none" in page
