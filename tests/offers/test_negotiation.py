"""Negotiation points from the database: the demo story and the page."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from offers.board import board_build
from offers.models import Offer, Scenario
from offers.negotiation import negotiation_for_offer
from tests.factories import OfferFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(demo_user):
    return demo_user


def _rules(user, name_start: str) -> tuple[Offer, dict[str, object]]:
    offer = Offer.objects.get(owner=user, name__startswith=name_start)
    points = negotiation_for_offer(user=user, offer=offer)
    return offer, {p.rule: p for p in points}


def test_meta_offer_raises_the_points_of_its_story(demo):
    _offer, points = _rules(demo, "Meta")
    expected = {
        "top_of_band",
        "down_level",
        "make_whole",
        "remote_gap",
        "exploding_deadline",
        "low_overlap",
    }
    assert expected <= set(points)
    top = points["top_of_band"]
    # Base at the top of the E5 band: the ask is E6 stock mid (240k) minus the 180k a year of
    # the revised offer in the demo's negotiation log (stock raised to the E6 band's bottom).
    assert top.ask_amount == pytest.approx(60_000)
    assert top.ask_currency == "USD"
    down = points["down_level"]
    assert "E6" in down.title and "E5" in down.title
    # Issue 26: the count of ratings (with its Strong No Hire) is the user's, never said.
    assert "Strong Hire" in down.trigger and "out of" in down.trigger
    assert "Hire" not in down.evidence and "out of" not in down.evidence
    assert points["make_whole"].ask_amount > 0
    remote = points["remote_gap"]
    assert remote.figures["remote_weeks_allowed"] == 4
    assert remote.figures["required_remote_weeks"] == 8
    deadline = points["exploding_deadline"]
    assert deadline.figures["days_left"] == 6
    assert "TikTok" in deadline.trigger
    assert points["low_overlap"].figures["overlap_hours"] < 4


def test_tiktok_offer_is_private_stock_and_relocation(demo):
    _offer, points = _rules(demo, "TikTok")
    assert {"stock_risk", "relocation"} <= set(points)
    assert "private" in points["stock_risk"].title


def test_every_point_has_title_trigger_ask_priority_and_evidence(demo):
    board = board_build(user=demo)
    for offer in Offer.objects.filter(owner=demo):
        for point in negotiation_for_offer(user=demo, offer=offer, board=board):
            assert point.title and point.trigger and point.evidence
            assert point.priority in (1, 2, 3)
            if point.rule != "verdict":
                assert point.ask_amount is not None or point.ask_term


def test_page_shows_the_plan_first_then_the_background(client, demo):
    client.force_login(demo)
    offer = Offer.objects.get(owner=demo, name__startswith="Meta")
    response = client.get(reverse("offers:negotiation", args=[offer.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    plan, draft, private, background = (
        html.index('id="plan"'),
        html.index('id="draft"'),
        html.index('id="private"'),
        html.index('id="background"'),
    )
    assert plan < draft < private < background
    assert html.count("data-ask ") == 3
    # Base capped and down-levelled ask for the same stock: one ask, the other folded into it.
    assert 'data-rule="down_level" data-component="stock"' in html
    assert 'data-merged-rule="top_of_band"' in html
    assert 'class="card point p1"' in html  # the make-whole, covered by the stock ask
    assert "Play it out" in html and 'name="point" value="plan"' in html
    assert 'data-copy="draft-en"' in html and 'data-copy="draft-zh-hant"' in html
    assert "<script>" not in html  # the copy button is wired by static/js/app.js (CSP)
    detail = client.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    assert reverse("offers:negotiation", args=[offer.pk]) in detail


def test_play_it_out_creates_a_scenario_with_the_ask(client, demo):
    client.force_login(demo)
    offer = Offer.objects.get(owner=demo, name__startswith="Meta")
    before = Scenario.objects.count()
    response = client.post(
        reverse("offers:scenario_create"), {"offer": offer.pk, "point": "top_of_band"}
    )
    assert response.status_code == 302
    assert Scenario.objects.count() == before + 1
    scenario = Scenario.objects.latest("pk")
    assert scenario.offer == offer
    assert scenario.extra_stock_yearly == 60_000
    remote = client.post(
        reverse("offers:scenario_create"), {"offer": offer.pk, "point": "remote_gap"}
    )
    assert remote.status_code == 302
    assert Scenario.objects.latest("pk").remote_weeks_per_year == 8


def test_offer_without_figures_has_no_points_and_page_still_renders(client_alice, alice):
    offer = OfferFactory(owner=alice)
    response = client_alice.get(reverse("offers:negotiation", args=[offer.pk]))
    assert response.status_code == 200


def test_another_users_offer_is_404(client_charlie, alice):
    offer = OfferFactory(owner=alice)
    assert client_charlie.get(reverse("offers:negotiation", args=[offer.pk])).status_code == 404
    response = client_charlie.post(
        reverse("offers:scenario_create"), {"offer": offer.pk, "point": "top_of_band"}
    )
    assert response.status_code == 302
    assert not Scenario.objects.exists()


def test_play_it_out_sets_the_fields_each_rule_names(demo):
    from offers.scenarios.points import point_adjustments

    meta, points = _rules(demo, "Meta")
    down = point_adjustments(points["down_level"], meta)
    # The demo's log holds Meta's re-level as refused (answered with E6 stock): playing the
    # rule out asks for the stock alone, never the level again.
    assert "level" not in down and down["extra_stock_yearly"] == 60_000
    start = point_adjustments(points["start_date"], meta)
    assert start["start_date"].isoformat() == points["start_date"].figures["proposed_start"]
    assert point_adjustments(points["low_overlap"], meta) is None
    tiktok, points = _rules(demo, "TikTok")
    risk = point_adjustments(points["stock_risk"], tiktok)
    expected = tiktok.package.base + round(points["stock_risk"].ask_amount / 4)
    assert abs(risk["base"] - expected) <= 1
    assert "extra_sign_on" not in risk and risk["name"] == points["stock_risk"].title[:120]


def test_demo_transfer_and_staying_ask_only_what_their_own_employer_can_give(demo):
    board = board_build(user=demo)
    transfer = Offer.objects.get(owner=demo, kind=Offer.Kind.INTERNAL)
    stay = Offer.objects.get(owner=demo, kind=Offer.Kind.STAY)
    moving = negotiation_for_offer(user=demo, offer=transfer, board=board)
    assert {p.rule for p in moving} <= {
        "refresh_cycle",
        "localisation",
        "down_level",
        "competing_offer",
        "remote_gap",
        "low_overlap",
        "exploding_deadline",
        "verdict",
    }
    # The story's transfer is down-levelled and keeps its grants and refresher (so it asks to
    # keep the refresh cycle) and moves onto the TWD payroll at a lower base (so it asks to
    # bridge it). Meta's offer breaks the user's remote-work need and TikTok's is still
    # expected: neither is leverage for a retention grant.
    assert {"down_level", "refresh_cycle", "localisation"} <= {p.rule for p in moving}
    assert "competing_offer" not in {p.rule for p in moving}
    staying = negotiation_for_offer(user=demo, offer=stay, board=board)
    assert staying and {p.rule for p in staying} <= {"competing_offer", "remote_gap", "low_overlap"}
    for point in [*moving, *staying]:
        said = f"{point.title} {point.ask_term} {point.evidence}".lower()
        assert "sign-on" not in said and "relocation" not in said and "make-whole" not in said


def test_retention_ask_is_translated(alice):
    from django.utils import translation

    from offers.models import Preferences
    from tests.factories import OfferFactory, PreferencesFactory

    PreferencesFactory(owner=alice, basis=Preferences.Basis.GROSS)
    transfer = OfferFactory(owner=alice, kind=Offer.Kind.INTERNAL)
    # Another employer's offer in hand, worth more and within the constraints: leverage.
    OfferFactory(owner=alice, package__base=Decimal("400000"))
    with translation.override("zh-hant"):
        points = negotiation_for_offer(user=alice, offer=transfer)
    retention = next(p for p in points if p.rule == "competing_offer")
    assert retention.ask_term == "以股票留任獎勵補足差距"


def test_external_offers_keep_their_money_asks(demo):
    _offer, points = _rules(demo, "Google")
    assert {"make_whole", "below_stay", "competing_offer", "start_date"} <= set(points)
    assert points["competing_offer"].ask_term == "match in stock or sign-on"


def test_processes_without_an_offer_read_their_bands_in_one_query(alice, django_assert_num_queries):
    """Each running process is valued at its target level's band, as band_for picks it."""
    import datetime as dt

    from compensation.selectors import band_for, bands_for_levels
    from tests.factories import BandFactory, CompanyFactory, LevelFactory
    from tests.interviews.factories import ProcessFactory

    levels = [LevelFactory(company=CompanyFactory(owner=None)) for _ in range(3)]
    # Shared and own bands, older and newer: the user's own first, then the newest.
    BandFactory(level=levels[0], as_of=dt.date(2026, 1, 1))
    BandFactory(level=levels[0], owner=alice, as_of=dt.date(2025, 1, 1))
    BandFactory(level=levels[1], as_of=dt.date(2025, 1, 1))
    BandFactory(level=levels[1], as_of=dt.date(2026, 6, 1))
    BandFactory(level=levels[1], as_of=None)
    for level in levels:
        ProcessFactory(owner=alice, company=level.company, target_level=level)
    with django_assert_num_queries(1):
        bands = bands_for_levels(user=alice, level_ids={level.pk for level in levels})
    for level in levels[:2]:
        assert bands[level.pk] == band_for(user=alice, level=level)
    assert levels[2].pk not in bands and band_for(user=alice, level=levels[2]) is None
