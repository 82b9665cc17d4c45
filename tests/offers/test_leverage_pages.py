"""Leverage on the negotiation page: only an offer in hand that meets the hard constraints.

A small board of our own (alice: one option to negotiate, a richer one expected, a richer one
in hand that breaks her remote-work need), then the demo's.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from offers.models import Offer, Preferences
from tests.factories import CompanyFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


def _option(alice, name, *, base, remote, status=Offer.Status.RECEIVED):
    company = CompanyFactory(owner=alice, name=name)
    return OfferFactory(
        owner=alice,
        name=name,
        company=company,
        package__company=company,
        package__base=Decimal(base),
        remote_weeks_per_year=remote,
        status=status,
    )


@pytest.fixture
def board(alice):
    # Gross: an after-tax value with no tax rule is never leverage, whatever the status.
    PreferencesFactory(owner=alice, required_remote_weeks=6, basis=Preferences.Basis.GROSS)
    return {
        "mine": _option(alice, "Acme", base="200000", remote=8),
        "expected": _option(alice, "Expected Co", base="400000", remote=8, status="draft"),
        "onsite": _option(alice, "Onsite Co", base="450000", remote=0),
    }


def _page(client, offer):
    response = client.get(reverse("offers:negotiation", args=[offer.pk]))
    assert response.status_code == 200
    plan = response.context["plan"]
    points = [a.point for a in plan.asks] + [b.point for b in plan.background]
    said = " ".join([*(d.text for d in response.context["drafts"]), *plan.leverage])
    return {p.rule: p for p in points}, said


def test_neither_an_expected_offer_nor_an_excluded_one_is_leverage(client_alice, board):
    rules, said = _page(client_alice, board["mine"])
    assert "competing_offer" not in rules
    assert "best_alternative" not in rules["verdict"].figures
    for name in ("Expected Co", "Onsite Co", "competing"):
        assert name not in said and name not in rules["verdict"].trigger


def test_the_best_alternative_is_the_best_offer_in_hand_within_the_constraints(
    client_alice, alice, board
):
    _option(alice, "Fair Co", base="300000", remote=8)
    rules, said = _page(client_alice, board["mine"])
    assert rules["verdict"].figures["best_alternative"] == "Fair Co"
    assert rules["competing_offer"].figures["alternative"] == "Fair Co"
    assert "Expected Co" not in said and "Onsite Co" not in said


def test_a_transfer_is_not_bluffed_with_an_option_the_user_would_not_take(client_alice, board):
    transfer = board["mine"]
    transfer.kind = Offer.Kind.INTERNAL
    transfer.save()
    rules, said = _page(client_alice, transfer)
    assert "competing_offer" not in rules
    assert "offer in hand" not in said and "Onsite Co" not in said


# The demo: Meta breaks the remote-work need, TikTok is expected -----------------------------


@pytest.fixture
def demo(demo_user, client):
    client.force_login(demo_user)
    return {o.name.split()[0]: o for o in Offer.objects.filter(owner=demo_user)}


def test_no_demo_plan_cites_meta_or_tiktok_as_leverage(demo, client):
    for name, offer in demo.items():
        rules, said = _page(client, offer)
        assert "competing option" not in said, name
        for other in ("Meta", "TikTok"):
            if other == name:
                continue
            assert f"offer in hand from {other}" not in said, name
            best = rules.get("verdict")
            if best is not None:
                assert other not in str(best.figures.get("best_alternative", "")), name


def test_the_demo_transfer_asks_no_retention_on_the_strength_of_meta(demo, client):
    rules, said = _page(client, demo["Internal"])
    assert "competing_offer" not in rules
    assert "Meta" not in said
