"""On a warm board cache the main pages run a fixed, small number of queries, whatever the count."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    ScenarioFactory,
    SignOnFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def options(alice, django_capture_on_commit_callbacks):
    """Return a function creating ``n`` committed options (and a scenario on the first)."""

    def make(n: int):
        with django_capture_on_commit_callbacks(execute=True):
            PreferencesFactory(owner=alice)
            offers = []
            for i in range(n):
                offer = OfferFactory(owner=alice, name=f"Option {i}")
                EquityGrantFactory(package=offer.package)
                SignOnFactory(package=offer.package)
                offers.append(offer)
            scenario = ScenarioFactory(owner=alice, offer=offers[0])
        return offers[0], scenario

    return make


# Warm queries of each page, beyond the session and the user (2) and the savepoint pair of
# ATOMIC_REQUESTS inside the test's transaction (2); the board itself costs none.
PAGES = {
    # the upcoming rounds, the upcoming deadlines
    "dashboard": (lambda offer, scenario: reverse("offers:dashboard"), 6),
    # nothing else: the offer comes with the board (another user's id is not on it: 404)
    "offer": (lambda offer, scenario: reverse("offers:offer_detail", args=[offer.pk]), 4),
    # nothing else: the offer and its negotiation points come with the board
    "negotiation": (lambda offer, scenario: reverse("offers:negotiation", args=[offer.pk]), 4),
    # the scenario; its offer's grants, refreshers, company and sign-ons; the levels the form
    # offers (the negotiation points come with the board)
    "scenario": (lambda offer, scenario: reverse("offers:scenario_detail", args=[scenario.pk]), 10),
}


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("n", [1, 5])
def test_warm_page_queries_do_not_grow_with_the_options(
    page, n, options, client_alice, django_assert_num_queries
):
    offer, scenario = options(n)
    url_of, expected = PAGES[page]
    url = url_of(offer, scenario)
    assert client_alice.get(url).status_code == 200  # warms the board
    with django_assert_num_queries(expected):
        response = client_alice.get(url)
    assert response.status_code == 200
