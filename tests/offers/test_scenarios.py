"""Scenario simulator: views, live updates, flip finder, accept, and the demo's scenarios."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.history import history_for, revision_restore
from accounts.models import Revision
from offers.board import board_build
from offers.models import Offer, Preferences, Scenario
from offers.scenarios.evaluation import scenario_evaluation, scenario_view
from offers.scenarios.flip import FLIP_RESOLUTION, flip_find
from offers.templatetags.offerdesk import money
from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    ScenarioFactory,
)
from tests.offers.flip_helpers import flip_apply
from tests.offers.scenario_demo import seed_demo_user

pytestmark = pytest.mark.django_db


def _form(scenario: Scenario, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": scenario.name,
        "base": "" if scenario.base is None else scenario.base,
        "raise_pct": "",
        "extra_sign_on": scenario.extra_sign_on,
        "extra_stock_yearly": scenario.extra_stock_yearly,
        "refresher_yearly": "",
        "level": "",
        "remote_weeks_per_year": ""
        if scenario.remote_weeks_per_year is None
        else scenario.remote_weeks_per_year,
        "start_date": "",
        "growth_pct": "",
        "volatility_pct": "",
        "notes": scenario.notes,
        "version": scenario.version,
    }
    data.update(changes)
    return data


@pytest.fixture
def two_offers(alice):
    PreferencesFactory(owner=alice, required_remote_weeks=0)
    mine = OfferFactory(owner=alice, name="Acme")
    EquityGrantFactory(package=mine.package)
    other = OfferFactory(owner=alice, name="Bigco")
    other.package.base = Decimal("260000")
    other.package.save()
    EquityGrantFactory(package=other.package)
    return mine, other


# Views -----------------------------------------------------------------------------------


def test_list_is_empty_then_groups_by_offer(client_alice, alice):
    response = client_alice.get(reverse("offers:scenario_list"))
    assert response.status_code == 200
    assert "No scenarios yet" in response.content.decode()
    scenario = ScenarioFactory(owner=alice, name="Ask for more")
    html = client_alice.get(reverse("offers:scenario_list")).content.decode()
    assert "Ask for more" in html and scenario.offer.name in html


def _list_queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(reverse("offers:scenario_list")).status_code == 200
    return len(ctx.captured_queries)


def test_list_query_count_does_not_grow_with_rows(client_alice, alice):
    offer = OfferFactory(owner=alice)
    ScenarioFactory(owner=alice, offer=offer)
    _list_queries(client_alice)  # warm up the session and translation caches
    one = _list_queries(client_alice)
    for _ in range(19):
        ScenarioFactory(owner=alice, offer=OfferFactory(owner=alice))
    assert _list_queries(client_alice) == one


def test_create_from_the_list(client_alice, alice):
    offer = OfferFactory(owner=alice)
    response = client_alice.post(
        reverse("offers:scenario_create"), {"offer": offer.pk, "name": "Counter"}
    )
    scenario = Scenario.objects.get(name="Counter")
    assert response.status_code == 302
    assert response["Location"] == reverse("offers:scenario_detail", args=[scenario.pk])
    assert client_alice.get(reverse("offers:scenario_create")).status_code == 405


def test_detail_shows_original_others_and_rank(client_alice, alice, two_offers):
    mine, other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, name="More stock")
    response = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Original" in html and "Bigco" in html and "More stock" in html
    assert 'hx-trigger="input changed delay:400ms"' in html
    assert 'data-chart="fig-scenario-cumulative"' in html


def test_live_update_changes_figures_and_writes_nothing(client_alice, alice, two_offers):
    mine, _other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    before = Scenario.objects.values().get(pk=scenario.pk)
    revisions = Revision.objects.count()
    url = reverse("offers:scenario_update", args=[scenario.pk])
    page = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk])).content
    response = client_alice.post(
        url, _form(scenario, extra_stock_yearly="50000"), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    # The figures are those of the typed adjustments...
    assert html != page.decode() and "Scenario" in html
    # ...and the database is unchanged: no new version, same updated_at, no history entry.
    assert Scenario.objects.values().get(pk=scenario.pk) == before
    assert Revision.objects.count() == revisions
    assert 'hx-swap-oob="true"' in html and f'value="{scenario.version}"' in html
    # The next live edit with the version the partial handed back is accepted too.
    again = client_alice.post(
        url, _form(scenario, extra_stock_yearly="60000"), HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 200
    assert again.content != response.content
    assert Scenario.objects.values().get(pk=scenario.pk) == before


def test_live_update_shows_the_typed_adjustments(client_alice, alice, two_offers):
    mine, _other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    url = reverse("offers:scenario_update", args=[scenario.pk])
    live = client_alice.post(
        url, _form(scenario, extra_stock_yearly="50000"), HTTP_HX_REQUEST="true"
    ).content.decode()
    typed = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("50000"))
    as_typed = scenario_view(user=alice, scenario=typed)
    as_stored = scenario_view(user=alice, scenario=scenario)
    assert sum(as_typed.ev.values) > sum(as_stored.ev.values)
    assert f"<strong>{money(sum(as_typed.ev.values))}</strong>" in live
    assert f"<strong>{money(sum(as_stored.ev.values))}</strong>" not in live.split("Original")[0]


def test_save_creates_a_version(client_alice, alice, two_offers):
    mine, _other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    version = scenario.version
    url = reverse("offers:scenario_update", args=[scenario.pk])
    response = client_alice.post(url, _form(scenario, extra_stock_yearly="50000"))
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.extra_stock_yearly == 50000
    assert scenario.version == version + 1
    assert history_for(user=alice, obj=scenario).count() == 1


@pytest.mark.parametrize(
    "change",
    [{"base": "-1"}, {"raise_pct": "200"}, {"extra_stock_yearly": "-5"}, {"volatility_pct": "900"}],
)
def test_impossible_adjustments_are_form_errors(client_alice, alice, change):
    scenario = ScenarioFactory(owner=alice)
    before = Scenario.objects.values().get(pk=scenario.pk)
    url = reverse("offers:scenario_update", args=[scenario.pk])
    response = client_alice.post(url, _form(scenario, **change), HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "nothing was saved" in response.content.decode()
    assert Scenario.objects.values().get(pk=scenario.pk) == before
    full = client_alice.post(url, _form(scenario, **change))
    assert full.status_code == 200
    assert Scenario.objects.values().get(pk=scenario.pk) == before


def test_save_records_history_and_redirects(client_alice, alice):
    scenario = ScenarioFactory(owner=alice)
    url = reverse("offers:scenario_update", args=[scenario.pk])
    response = client_alice.post(url, _form(scenario, name="Renamed"))
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.name == "Renamed"
    assert history_for(user=alice, obj=scenario).exists()


def test_clone_delete_and_confirm(client_alice, alice):
    scenario = ScenarioFactory(owner=alice, name="Base case")
    response = client_alice.post(reverse("offers:scenario_clone", args=[scenario.pk]))
    copy = Scenario.objects.get(name="Base case (copy)")
    assert response.status_code == 302
    assert copy.extra_stock_yearly == scenario.extra_stock_yearly
    confirm = client_alice.get(reverse("offers:scenario_delete", args=[copy.pk]))
    assert confirm.status_code == 200 and "trash" in confirm.content.decode()
    deleted = client_alice.post(reverse("offers:scenario_delete", args=[copy.pk]))
    assert deleted.status_code == 302
    assert not Scenario.objects.filter(pk=copy.pk).exists()
    assert Revision.objects.filter(action=Revision.Action.DELETED, object_id=copy.pk).exists()


def test_accept_makes_the_terms_the_offers_and_keeps_the_old_ones(client_alice, alice):
    offer = OfferFactory(owner=alice)
    EquityGrantFactory(package=offer.package)
    scenario = ScenarioFactory(
        owner=alice,
        offer=offer,
        base=Decimal("230000"),
        extra_stock_yearly=Decimal("25000"),
        remote_weeks_per_year=10,
    )
    response = client_alice.post(
        reverse("offers:scenario_accept", args=[scenario.pk]), {"version": scenario.version}
    )
    assert response.status_code == 302
    offer.refresh_from_db()
    offer.package.refresh_from_db()
    assert offer.package.base == 230000
    assert offer.remote_weeks_per_year == 10
    assert offer.package.grants.count() == 2
    history = client_alice.get(reverse("offers:offer_history", args=[offer.pk]))
    assert history.status_code == 200
    before = history_for(user=alice, obj=offer).get(summary__startswith="before accepting")
    revision_restore(user=alice, revision=before)
    offer.refresh_from_db()
    offer.package.refresh_from_db()
    assert offer.package.base == 200000
    assert offer.remote_weeks_per_year == 4


def test_post_only_endpoints_refuse_get(client_alice, alice):
    scenario = ScenarioFactory(owner=alice)
    for name in (
        "scenario_update",
        "scenario_flip",
        "scenario_mc_start",
        "scenario_mc_cancel",
        "scenario_clone",
        "scenario_accept",
    ):
        response = client_alice.get(reverse(f"offers:{name}", args=[scenario.pk]))
        assert response.status_code == 405, name


def test_another_users_scenario_is_404(client_charlie, alice):
    scenario = ScenarioFactory(owner=alice)
    for name in (
        "scenario_detail",
        "scenario_update",
        "scenario_flip",
        "scenario_mc_start",
        "scenario_mc_cancel",
        "scenario_mc_status",
        "scenario_clone",
        "scenario_delete",
        "scenario_accept",
    ):
        url = reverse(f"offers:{name}", args=[scenario.pk])
        assert client_charlie.get(url).status_code == 404, name
        assert client_charlie.post(url).status_code == 404, name
    scenario.refresh_from_db()
    assert Scenario.objects.count() == 1


# Flip finder ----------------------------------------------------------------------------


def _rank_first(user, scenario: Scenario, rival_key: str | None = None) -> bool:
    ev = scenario_evaluation(
        scenario,
        Preferences.objects.get(owner=user),
        __import__("compensation.selectors", fromlist=["fx_table"]).fx_table(user=user),
        today=dt.date.today(),
    )
    board = board_build(user=user, overrides={str(scenario.offer_id): ev})
    ranks = {r.key: r.rank for r in board.ranking}
    key = str(scenario.offer_id)
    return ranks[key] == 1 if rival_key is None else ranks[key] < ranks[rival_key]


@pytest.mark.parametrize("component", ["stock", "base", "sign_on"])
def test_flip_answer_flips_and_one_step_less_does_not(alice, two_offers, component):
    mine, other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    assert not _rank_first(alice, scenario)
    answer = flip_find(user=alice, scenario=scenario, component=component)
    assert answer.ask is not None and answer.ask > 0, answer
    for field, value in flip_apply(scenario, component, answer.ask).items():
        setattr(scenario, field, value)
    assert _rank_first(alice, scenario)
    less = Decimal(str(answer.ask - FLIP_RESOLUTION))
    scenario.refresh_from_db()
    for field, value in flip_apply(scenario, component, float(less)).items():
        setattr(scenario, field, value)
    assert not _rank_first(alice, scenario)


def test_flip_against_a_rival_and_blocker(client_alice, alice, two_offers):
    mine, other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    answer = flip_find(user=alice, scenario=scenario, component="stock", rival_key=str(other.pk))
    assert answer.ask and answer.rival_name == "Bigco"
    prefs = Preferences.objects.get(owner=alice)
    prefs.required_remote_weeks = 8
    prefs.save()
    other.remote_weeks_per_year = 10
    other.save()
    blocked = flip_find(user=alice, scenario=scenario, component="stock")
    assert blocked.blocker and "remote" in blocked.blocker
    response = client_alice.post(
        reverse("offers:scenario_flip", args=[scenario.pk]), {"component": "stock", "rival": ""}
    )
    assert response.status_code == 200
    assert "Money cannot flip it" in response.content.decode()
    bad = client_alice.post(
        reverse("offers:scenario_flip", args=[scenario.pk]), {"component": "lottery"}
    )
    assert bad.status_code == 400


def test_flip_view_shows_the_ask(client_alice, alice, two_offers):
    mine, _other = two_offers
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    response = client_alice.post(
        reverse("offers:scenario_flip", args=[scenario.pk]), {"component": "sign_on"}
    )
    assert response.status_code == 200
    assert "to rank first" in response.content.decode()


# The demo --------------------------------------------------------------------------------


def test_demo_scenarios_answer_their_points(client):
    user = seed_demo_user()
    meta = Offer.objects.get(owner=user, name__startswith="Meta")
    e6 = Scenario.objects.get(owner=user, offer=meta, name="E6 midpoint stock (VP approval)")
    remote = Scenario.objects.get(owner=user, offer=meta, name="Trade comp for remote")
    # E6 stock mid (240k a year) over the log's revised offer (the E6 band's bottom, 180k).
    assert e6.extra_stock_yearly == 60_000
    view = scenario_view(user=user, scenario=e6)
    answered = {a.ask.point.rule: a.answered for a in view.asks}
    assert answered["down_level"] is True
    assert answered["remote_gap"] is False
    assert view.gain > 0
    view = scenario_view(user=user, scenario=remote)
    answered = {a.ask.point.rule: a.answered for a in view.asks}
    assert answered["remote_gap"] is True
    assert answered["down_level"] is False
    # 12 remote weeks lift Meta out of the remote-weeks exclusion.
    key = str(meta.pk)
    assert next(r for r in view.original.ranking if r.key == key).excluded
    assert not next(r for r in view.board.ranking if r.key == key).excluded
    client.force_login(user)
    html = client.get(reverse("offers:scenario_detail", args=[remote.pk])).content.decode()
    assert 'data-rule="remote_gap" data-answered="yes"' in html


def test_demo_e6_scenario_adds_only_the_stock_the_offer_lacks():
    # Issue 28: "E6-level stock" added USD 60,000 a year on top of an offer already raised to
    # E6-band stock. It now aims at the E6 band's midpoint and adds the difference.
    from compensation.selectors import yearly_stock_value
    from offers.demo import e6_midpoint_scenario

    user = seed_demo_user()
    meta = Offer.objects.get(owner=user, name__startswith="Meta")
    assert not Scenario.objects.filter(owner=user, name__startswith="E6-level").exists()
    e6 = Scenario.objects.get(owner=user, offer=meta, name="E6 midpoint stock (VP approval)")
    # Revised grant USD 720,000 over 4 years = 180,000 a year; E6 midpoint 240,000: 60,000 more.
    held = yearly_stock_value(meta.package)
    assert held == 180_000
    assert held + e6.extra_stock_yearly == 240_000
    assert "already at the E6 band's bottom (USD 180,000 a year)" in e6.notes
    # Once the offer has the midpoint (a grant of 960,000 = 240,000 a year), no such scenario.
    grant = meta.package.grants.get()
    grant.value = 960_000
    grant.save()
    meta.package.refresh_from_db()
    assert e6_midpoint_scenario(user, meta) is None
