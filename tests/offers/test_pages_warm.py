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
    # nothing else: the options come with the board
    "offer_list": (lambda offer, scenario: reverse("offers:offer_list"), 4),
    # nothing else: the offer comes with the board (another user's id is not on it: 404)
    "offer": (lambda offer, scenario: reverse("offers:offer_detail", args=[offer.pk]), 4),
    # nothing else: the offer and its negotiation points come with the board
    "negotiation": (lambda offer, scenario: reverse("offers:negotiation", args=[offer.pk]), 4),
    # the scenario; its valuation, its results, the form (with the levels it offers) and the
    # negotiation points come with the board
    "scenario": (lambda offer, scenario: reverse("offers:scenario_detail", args=[scenario.pk]), 5),
}


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("n", [1, 5])
def test_warm_page_queries_do_not_grow_with_the_options(
    page, n, options, client_alice, django_assert_num_queries
):
    offer, scenario = options(n)
    url_of, expected = PAGES[page]
    url = url_of(offer, scenario)
    assert client_alice.get(reverse("offers:dashboard")).status_code == 200  # warms the board
    assert client_alice.get(url).status_code == 200  # and the page's own parts
    with django_assert_num_queries(expected):
        response = client_alice.get(url)
    assert response.status_code == 200


def test_a_warm_page_reuses_its_html_and_follows_a_write(
    options, client_alice, django_capture_on_commit_callbacks, monkeypatch
):
    """The board's part of the dashboard is rendered once per board, again after a write."""
    from offers import views

    offer, _scenario = options(3)
    renders = []
    real = views.render_to_string
    monkeypatch.setattr(
        views, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k)
    )
    first = client_alice.get(reverse("offers:dashboard")).content.decode()
    again = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert renders == ["offers/partials/dashboard_board.html"]
    assert "Option 0" in first and _ranking(first) == _ranking(again)
    with django_capture_on_commit_callbacks(execute=True):
        offer.name = "Renamed option"
        offer.save()
    after = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert len(renders) == 2
    assert "Renamed option" in after and "Option 0" not in after


def test_a_saved_scenario_shows_its_new_figures_on_a_warm_page(
    options, client_alice, django_capture_on_commit_callbacks
):
    _offer, scenario = options(2)
    url = reverse("offers:scenario_detail", args=[scenario.pk])
    before = client_alice.get(url).content.decode()
    assert _results(client_alice.get(url).content.decode()) == _results(before)  # warm
    data = {
        "name": "Bigger ask",
        "extra_stock_yearly": "90000",
        "extra_sign_on": "0",
        "version": scenario.version,
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client_alice.post(reverse("offers:scenario_update", args=[scenario.pk]), data)
    assert response.status_code == 302
    after = client_alice.get(url).content.decode()
    assert "Bigger ask" in after and 'value="90000' in after
    assert _results(after) != _results(before)


def _ranking(html: str) -> str:
    return html[html.index('id="ranking"') : html.index('id="timezones"')]


def _results(html: str) -> str:
    return html[html.index('id="scenario-results"') : html.index("Flip finder")]
