"""The demo's internal transfer: the US grants it keeps, vesting in Taipei, are taxed by the
days worked in each place between their vesting start and the vest (issue 34, item 3).

The suite's clock is 1 Dec 2026 (tests/clock.py); the demo moves to Taipei 75 days later, on
14 Feb 2027, and the board prices Northwind's stock at the assumed price, USD 180 today
growing 8 % a year: 180 x 1.08^(m/12) at the end of window month m.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db.models import F
from django.urls import reverse

from compensation.models import Package
from offers.board import board_build
from offers.ledger import ledger_view
from offers.models import Offer

pytestmark = pytest.mark.django_db

MOVE = dt.date(2027, 2, 14)
# The grants the transfer keeps that still vest in the window, each a 16th a quarter from its
# vesting start: value / price at grant / 16 shares (the 2022 grant vested fully on 1 Dec 2026,
# the window's first day; the refresher granted 1 Dec 2026 is a grant at USD 180).
HELD = {
    dt.date(2024, 3, 1): 200_000 / 120 / 16,  # 104.166667 shares
    dt.date(2025, 3, 1): 240_000 / 150 / 16,  # 100
    dt.date(2026, 3, 1): 280_000 / 170 / 16,  # 102.941176
    dt.date(2026, 12, 1): 240_000 / 180 / 16,  # 83.333333
}
# The vests of 2027 after the move, with their window month (from 1 Dec 2026).
VESTS_2027 = {
    dt.date(2027, 3, 1): 3,
    dt.date(2027, 6, 1): 6,
    dt.date(2027, 9, 1): 9,
    dt.date(2027, 12, 1): 12,
}


def price(month: int) -> float:
    return 180.0 * 1.08 ** (month / 12)


def _transfer(user):
    board = board_build(user=user)
    (ev,) = [e for e in board.evaluations if e.offer.kind == Offer.Kind.INTERNAL]
    return ev


def test_a_kept_grant_vesting_in_taipei_is_split_by_its_days(demo_user):
    ev = _transfer(demo_user)
    assert ev.segments[1].transfer and ev.segments[1].start == MOVE
    lines = [
        r.line
        for r in ledger_view(ev).rows
        if r.line.item == "grant_vest" and r.line.day == dt.date(2027, 3, 1)
    ]
    # The refresher granted 1 Dec 2026: 90 days to its vest on 1 Mar 2027 (31 + 31 + 28), 75
    # of them before the move (31 + 31 + 13), 15 after.
    (us,) = [x for x in lines if x.place == 0 and x.quantity == pytest.approx(83.333333)]
    (taipei,) = [x for x in lines if x.place is None and x.quantity == pytest.approx(83.333333)]
    assert (us.days, taipei.days) == ((75, 90), (15, 90))
    # 83.333333 x USD 183.4968 x 75/90 = 12,742.83 taxed in the US; x 15/90 = 2,548.57 in Taipei.
    assert us.amount == pytest.approx(83.333333 * price(3) * 75 / 90, abs=0.01)
    assert us.amount == pytest.approx(12_742.83, abs=0.01)
    assert taipei.amount == pytest.approx(2_548.57, abs=0.01)
    # The two shares are the whole vest.
    assert us.amount + taipei.amount == pytest.approx(240_000 / 180 / 16 * price(3))


def test_the_us_tax_year_holds_the_us_share_of_every_vest_of_2027(demo_user):
    ev = _transfer(demo_user)
    view = ledger_view(ev)
    (us_2027,) = [
        t.working
        for t in view.tax_years
        if t.working.tax_year == 2027 and t.working.currency == "USD"
    ]
    # Each kept grant's 2027 vests: shares x price x (days from its vesting start to the move)
    # / (days from its vesting start to the vest); January 2027's base, 17,083.33, is the
    # current job's last month there.
    by_hand = sum(
        shares * price(month) * (MOVE - start).days / (day - start).days
        for start, shares in HELD.items()
        for day, month in VESTS_2027.items()
    )
    assert us_2027.equity == pytest.approx(by_hand, abs=0.01)
    assert us_2027.cash == pytest.approx(205_000 / 12, abs=0.01)
    # Taiwan's 2027 taxes the rest of those vests (in TWD, at 32 a USD) and the Taipei pay.
    (tw_2027,) = [
        t.working
        for t in view.tax_years
        if t.working.tax_year == 2027 and t.working.currency == "TWD"
    ]
    whole = sum(shares * price(month) for shares in HELD.values() for month in VESTS_2027.values())
    assert tw_2027.equity / 32 == pytest.approx(whole - by_hand, abs=0.01)
    # The US lines on the transfer's stock name the place and what they tax.
    rows = [r for r in view.rows if r.line.item == "tax" and r.line.place == 0]
    assert rows and all("on the stock earned before the move" in r.description for r in rows)
    assert all(r.source.startswith("Current job until") for r in rows)
    assert view.total == pytest.approx(ev.value, abs=1e-3)


def test_the_offer_page_shows_each_share_with_its_days(demo_user, client):
    client.force_login(demo_user)
    ev = _transfer(demo_user)
    html = client.get(reverse("offers:offer_detail", args=[ev.offer.pk])).content.decode()
    assert (
        "83.333333 shares × USD 183.4968 × 75/90 "
        "(its days from vesting start to vest worked before the move)"
    ) in html
    assert "83.333333 shares × USD 183.4968 × 15/90" in html
    # Each line's amount, as the page carries it (and shows it to the unit).
    amounts = [float(a) for a in re.findall(r'data-amount="(-?[\d.]+)"', html)]
    for by_hand in (12_742.83, 2_548.57):
        assert any(abs(a - by_hand) < 0.005 for a in amounts), by_hand


def test_the_tax_rule_says_the_first_place_taxes_the_kept_stock_on(demo_user, client):
    # Before: "California + US federal ... until 14 Feb 2027, then Taiwan ...", as if the US
    # taxed nothing after the move, while its share of the kept grants' vests runs to 2030.
    ev = _transfer(demo_user)
    assert ev.tax_words.endswith("; the kept stock taxed in each place by the days worked there"), (
        ev.tax_words
    )
    assert ", then Taiwan" in ev.tax_words
    client.force_login(demo_user)
    html = client.get(reverse("offers:offer_detail", args=[ev.offer.pk])).content.decode()
    assert "the kept stock taxed in each place by the days worked there" in html


def test_a_transfer_on_the_decision_date_still_splits_each_kept_vest_by_its_days(demo_user):
    # Moving on the window's first day, 1 Dec 2026: the current job stays as a segment of no
    # window months, so the kept grants' days before the move are still the US's. The 2025
    # grant's vest of 1 Mar 2027: 730 days from its vesting start, 640 of them before the move
    # (365 + 275).
    ev = _transfer(demo_user)
    day = dt.date(2026, 12, 1)
    Package.objects.filter(pk=ev.offer.package_id).update(start_date=day, version=F("version") + 1)
    ev = _transfer(demo_user)
    assert ev.segments[0].current and ev.segments[0].end == day == ev.segments[1].start
    lines = [
        r.line
        for r in ledger_view(ev).rows
        if r.line.item == "grant_vest" and r.line.day == dt.date(2027, 3, 1)
    ]
    (us,) = [x for x in lines if x.place == 0 and x.quantity == pytest.approx(100.0)]
    (taipei,) = [x for x in lines if x.place is None and x.quantity == pytest.approx(100.0)]
    assert (us.days, taipei.days) == ((640, 730), (90, 730))
    assert us.amount == pytest.approx(100 * price(3) * 640 / 730, abs=0.01)
    assert us.amount + taipei.amount == pytest.approx(100 * price(3))
