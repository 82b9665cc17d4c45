"""Issue 35 item 7 on the demo: asks within reach, on one basis, as the negotiation page says them."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from offers.board import board_build
from offers.models import Offer
from offers.negotiation import negotiation_context

pytestmark = pytest.mark.django_db


def _offer(user, start: str) -> Offer:
    return next(o for o in Offer.objects.filter(owner=user) if o.name.startswith(start))


def _english_draft(client, offer) -> str:
    response = client.get(reverse("offers:negotiation", args=[offer.pk]))
    assert response.status_code == 200
    return next(d.text for d in response.context["drafts"] if d.language == "en")


def test_what_leaving_forfeits_counts_only_the_grants_held_on_the_decision_date(client, demo_user):
    """The demo's current job on 1 Dec 2026, leaving on Google's start date, 14 Feb 2027.

    Its grants vest a 16th a quarter on the 1st of Mar, Jun, Sep and Dec, four years from their
    vesting start; Northwind is USD 180 a share today, growing 8% a year. Held on 1 Dec 2026:
    - the 2022 grant (from 1 Dec 2022): its last tranche vested on 1 Dec 2026: nothing left;
    - Refresher 2024, USD 200,000 at USD 120: 1,666.67 shares, 104.17 a tranche; from
      1 Mar 2027 to 1 Mar 2028, 5 tranches: 520.83 shares;
    - Refresher 2025, USD 240,000 at USD 150: 100 a tranche; 1 Mar 2027 to 1 Mar 2029: 9: 900;
    - Refresher 2026, USD 280,000 at USD 170: 102.94 a tranche; 1 Mar 2027 to 1 Mar 2030:
      13: 1,338.24 shares.
    The modelled refresher (USD 240,000 a year from year 1) is not granted yet: not counted.
    2,759.07 shares at the price projected for 14 Feb 2027, 75 days (2.464 months) on:
    180 x 1.08 ^ (2.464 / 12) = USD 182.867: USD 504,543, said "USD 500,000" (to 10,000).
    By year: 2027: 12 tranches (4 x 104.17 + 4 x 100 + 4 x 102.94 = 1,228.43 sh) USD 224,640;
    2028: 104.17 + 400 + 411.76 = 915.93 sh, USD 167,494; 2029: 511.76 sh, USD 93,585;
    2030: 102.94 sh, USD 18,825 (sum 504,544, the cents rounded).
    The next vest, 1 Mar 2027, is the three refreshers' tranches: 307.11 shares at the price
    of 13 Feb 2027 (74 days on, USD 182.83): USD 56,148, said "USD 56,000".
    """
    board = board_build(user=demo_user)
    google = _offer(demo_user, "Google")
    ctx = negotiation_context(user=demo_user, offer=google, board=board)
    assert ctx is not None and ctx.current is not None
    current = ctx.current
    assert current.unvested_total == pytest.approx(504_543, abs=1)
    assert [(year, round(value)) for year, value in current.unvested_forfeited_by_year] == [
        (2027, 224_640),
        (2028, 167_494),
        (2029, 93_585),
        (2030, 18_825),
    ]
    assert current.next_vest_value == pytest.approx(56_148, abs=1)
    client.force_login(demo_user)
    draft = _english_draft(client, google)
    assert "I walk away from USD 500,000 of unvested stock" in draft
    assert "750,000" not in draft
    page = html.unescape(
        client.get(reverse("offers:negotiation", args=[google.pk])).content.decode()
    )
    assert "USD 56,000 I would otherwise lose" in page


def test_tiktoks_private_stock_is_asked_in_cash_on_the_same_basis(client, demo_user):
    """TikTok is private: the 3-1 level's stock is asked as a sign-on, in the pay's SGD.

    Base (SGD 300,000) is above the 2-2 band's SGD 250,000 top, so the next level's stock is
    the ask: the 3-1 band's mid SGD 170,000 a year less the SGD 90,000 offered = SGD 80,000 a
    year; over the 4 years SGD 320,000, gross, asked once in cash (to the SGD 1,000). As stock
    it was said as USD 60,000 a year (SGD 80,000 x 0.74 = USD 59,200, to the 5,000).
    """
    client.force_login(demo_user)
    tiktok = _offer(demo_user, "TikTok")
    response = client.get(reverse("offers:negotiation", args=[tiktok.pk]))
    plan = response.context["plan"]
    cash = next(a for a in plan.asks if a.rule == "down_level")
    assert cash.component == "sign_on" and (cash.amount, cash.currency) == (320_000, "SGD")
    assert plan.gap.amount == pytest.approx(320_000) == plan.money_asked
    assert not any(a.component == "stock" for a in plan.asks)
    draft = _english_draft(client, tiktok)
    assert (
        "The shares are private and only sell in buybacks, so I'd like the difference over the "
        "4 years in cash."
    ) in draft
    assert "Could you add a sign-on bonus of SGD 320,000?" in draft
    assert "a year in stock?" not in draft
    # The level's stock is the figure, cash the ask: the draft never asks "in stock" first.
    assert "the difference in stock" not in draft
    assert "I'd like the 3-1 level's stock (USD 125,000 a year instead of USD 65,000)." in draft


def test_googles_stock_stays_within_the_l5_band_and_the_rest_is_a_sign_on(client, demo_user):
    """Google offers L5 with USD 120,000 of stock a year; L6's band mid is USD 230,000.

    The gap: (230,000 - 120,000) x 4 = USD 440,000. The L5 band's stock tops out at USD 160,000:
    USD 40,000 a year more (160,000 over 4 years), and the other USD 280,000 as a sign-on.
    Meta's base is at the top of its band (the next level's stock is the exception): its
    USD 60,000 a year more, to E6's USD 240,000 beyond E5's USD 150,000 top, is asked once.
    """
    client.force_login(demo_user)
    google = _offer(demo_user, "Google")
    plan = client.get(reverse("offers:negotiation", args=[google.pk])).context["plan"]
    asks = {a.component: a for a in plan.asks}
    assert (asks["stock"].amount, asks["sign_on"].amount) == (40_000, 280_000)
    assert plan.gap.amount == pytest.approx(440_000) == plan.money_asked
    assert plan.target.stock_per_year == 160_000 and plan.target.level_code == "L6"
    draft = _english_draft(client, google)
    assert "Within the L5 band, stock goes up to USD 160,000 a year." in draft
    assert "Could we add USD 40,000 a year in stock?" in draft
    assert "Could you add a sign-on bonus of USD 280,000?" in draft
    meta = _offer(demo_user, "Meta")
    plan = client.get(reverse("offers:negotiation", args=[meta.pk])).context["plan"]
    stock = next(a for a in plan.asks if a.component == "stock")
    assert stock.amount == 60_000 and not any(a.component == "sign_on" for a in plan.asks)
    assert "Within the" not in stock.script
