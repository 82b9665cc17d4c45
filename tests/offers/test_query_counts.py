"""Every offers page uses the same number of queries for 1 and 5 options.

Each option has a package with a sign-on, a grant and a refresher, and a scenario; the
option's history holds one revision per option and the trash one deleted option per option.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from offers import services
from offers.models import Offer
from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    RefresherFactory,
    ScenarioFactory,
    SignOnFactory,
)

pytestmark = pytest.mark.django_db

# Every authenticated request costs four queries around the view:
#   1. SELECT django_session (the session row)
#   2. SELECT auth_user (the signed-in user)
#   3. SAVEPOINT and 4. RELEASE SAVEPOINT (ATOMIC_REQUESTS inside the test's transaction)
# A first, uncounted GET warms the session's time zone, the content type cache and the Monte
# Carlo cache, so that the counted request measures the steady state.
BASE = 4
# An option list is one query with its joins plus three prefetches: sign-ons, grants, refreshers.
OPTIONS = 4
# Building the board: preferences, the option list, the user's FX rates, the current job's
# package (the valuation runs from the decision date, in the current job until each start).
BOARD = 1 + OPTIONS + 1 + 1


def make_data(user, n):
    PreferencesFactory(owner=user)
    offers = []
    for _ in range(n):
        offer = OfferFactory(owner=user)
        SignOnFactory(package=offer.package)
        EquityGrantFactory(package=offer.package)
        RefresherFactory(package=offer.package)
        ScenarioFactory(owner=user, offer=offer)
        offers.append(offer)
    first = offers[0]
    for i in range(n):
        services.offer_update(
            user=user,
            offer=Offer.objects.get(pk=first.pk),
            fields={"notes": f"edit {i}"},
            package_fields={},
            expected_version=i + 1,
            expected_package_version=i + 1,
        )
    for _ in range(n):
        services.offer_delete(user=user, offer=OfferFactory(owner=user))
    return first


PAGES = [
    # name, url, queries after BASE
    # the board, upcoming rounds, processes with deadlines
    ("dashboard", lambda o: reverse("offers:dashboard"), BOARD + 2),
    ("offer_list", lambda o: reverse("offers:offer_list"), OPTIONS),
    # the board (the option comes with it: another user's id is not on it, and is a 404)
    ("offer_detail", lambda o: reverse("offers:offer_detail", args=[o.pk]), BOARD),
    # the choices: companies, processes, levels (level and target level), tax locations
    ("offer_create", lambda o: reverse("offers:offer_create"), 5),
    # the option, then the same choices
    ("offer_edit", lambda o: reverse("offers:offer_edit", args=[o.pk]), OPTIONS + 5),
    ("compare", lambda o: reverse("offers:offer_compare"), BOARD),
    ("preferences", lambda o: reverse("offers:preferences"), 1),
    # the board (with the option), the user's processes (competing offers in flight), the
    # user's negotiation log (the plan reads what was asked and what came back)
    ("negotiation", lambda o: reverse("offers:negotiation", args=[o.pk]), BOARD + 2),
    # the options, the scenarios with their offers, the options for the "new scenario" form
    ("scenario_list", lambda o: reverse("offers:scenario_list"), OPTIONS + 2),
    # the scenario, the board, its package's grants, refreshers, company and sign-ons, the
    # processes and the levels of the scenario form (the scenario's valuation reuses the
    # board's current job), the negotiation log (the plan's asks the scenario answers)
    (
        "scenario_detail",
        lambda o: reverse("offers:scenario_detail", args=[o.scenarios.first().pk]),
        1 + BOARD + 7,
    ),
    # the option, its revisions, then the rows they link to by name, one query per linked
    # model (the saved package's company, the option's package)
    ("offer_history", lambda o: reverse("offers:offer_history", args=[o.pk]), OPTIONS + 3),
    ("trash", lambda o: reverse("offers:trash"), 1),
    ("offer_delete", lambda o: reverse("offers:offer_delete", args=[o.pk]), OPTIONS),
]


@pytest.mark.parametrize("n", [1, 5])
@pytest.mark.parametrize(("page", "url", "queries"), PAGES, ids=[p[0] for p in PAGES])
def test_page_queries(client_alice, alice, n, page, url, queries, django_assert_num_queries):
    address = url(make_data(alice, n))
    assert client_alice.get(address).status_code == 200
    with django_assert_num_queries(BASE + queries):
        response = client_alice.get(address)
    assert response.status_code == 200


def test_the_pages_show_every_option(client_alice, alice):
    """The counts above are for pages that really list the five options."""
    make_data(alice, 5)
    assert len(client_alice.get(reverse("offers:offer_list")).context["offers"]) == 5
    assert len(client_alice.get(reverse("offers:dashboard")).context["board"].evaluations) == 5
    groups = client_alice.get(reverse("offers:scenario_list")).context["groups"]
    assert sum(len(scenarios) for _offer, scenarios in groups) == 5
    assert len(client_alice.get(reverse("offers:trash")).context["items"]) == 5
