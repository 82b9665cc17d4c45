"""Reads of offers: offer_list, offer_get, scenario_list and preferences_get."""

from __future__ import annotations

import pytest
from django.http import Http404

from offers import selectors
from offers.models import Preferences
from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    ScenarioFactory,
    SignOnFactory,
)

pytestmark = pytest.mark.django_db


def test_offer_list_is_the_users_own_sorted_by_name(alice, charlie):
    OfferFactory(owner=alice, name="b")
    OfferFactory(owner=alice, name="a")
    OfferFactory(owner=charlie, name="c")
    assert [o.name for o in selectors.offer_list(user=alice)] == ["a", "b"]


def test_offer_list_loads_packages_and_their_children_up_front(alice, django_assert_num_queries):
    for _ in range(3):
        offer = OfferFactory(owner=alice)
        SignOnFactory(package=offer.package)
        EquityGrantFactory(package=offer.package)
    # the options with their joins, then sign-ons, grants and refreshers
    with django_assert_num_queries(4):
        offers = list(selectors.offer_list(user=alice))
    with django_assert_num_queries(0):
        for offer in offers:
            assert offer.package.company is not None
            assert len(offer.package.sign_ons.all()) == 1
            assert len(offer.package.grants.all()) == 1
            assert list(offer.package.refreshers.all()) == []


def test_offer_get_is_a_404_for_another_users_offer(alice, charlie):
    offer = OfferFactory(owner=alice)
    assert selectors.offer_get(user=alice, pk=offer.pk) == offer
    with pytest.raises(Http404):
        selectors.offer_get(user=charlie, pk=offer.pk)
    with pytest.raises(Http404):
        selectors.offer_get(user=alice, pk=offer.pk + 1000)


def test_scenario_list_is_the_users_own_with_offers(alice, charlie, django_assert_num_queries):
    mine = ScenarioFactory(owner=alice)
    ScenarioFactory(owner=charlie)
    with django_assert_num_queries(1):
        scenarios = list(selectors.scenario_list(user=alice))
        assert scenarios == [mine]
        assert scenarios[0].offer.package.base > 0


def test_preferences_get_returns_saved_or_unsaved_defaults_and_never_writes(alice, charlie):
    defaults = selectors.preferences_get(user=alice)
    assert defaults.pk is None and defaults.owner == alice
    assert not Preferences.objects.exists()
    saved = PreferencesFactory(owner=charlie, home_timezone="Europe/Berlin")
    assert selectors.preferences_get(user=charlie) == saved
    assert selectors.preferences_get(user=alice).pk is None
