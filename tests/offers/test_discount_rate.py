"""A discount rate in Preferences: every window year's figures worth today (issue 38, item 6).

By hand: USD 120,000 a year of base (no raise, bonus or stock), gross, over 2 years at 10 %:
year 1 is worth 120,000 / 1.1^0.5 = 114,415.51 today, year 2 120,000 / 1.1^1.5 = 104,014.10,
the window 218,429.61 (mid-year: a year's pay comes through it). At 0 % it is 240,000.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from offers.board import board_build
from offers.choice import board_choice
from offers.ledger import ledger_view
from offers.models import Offer, Preferences
from offers.valuation_basis import ValuationBasis
from tests.factories import OfferFactory, PreferencesFactory
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db

DECISION = dt.date(2026, 12, 1)


def cash_option(user, rate: str = "10"):
    PreferencesFactory(
        owner=user,
        decision_date=DECISION,
        horizon_years=2,
        home_currency="USD",
        basis=Preferences.Basis.GROSS,
        discount_rate_pct=Decimal(rate),
    )
    return OfferFactory(
        owner=user,
        kind=Offer.Kind.EXTERNAL,
        name="Cash",
        package__currency="USD",
        package__base=Decimal("120000"),
        package__raise_pct=Decimal("0"),
        package__bonus_target_pct=Decimal("0"),
        package__start_date=DECISION,
    )


def test_each_window_year_is_worth_today_at_the_rate(alice):
    cash_option(alice)
    (ev,) = board_build(user=alice, mc_paths=0).evaluations
    assert ev.values == [pytest.approx(114_415.51, abs=0.01), pytest.approx(104_014.10, abs=0.01)]
    assert ev.value == pytest.approx(218_429.61, abs=0.01)
    # The yearly table is worth today too, column by column: base, total.
    assert list(ev.yearly["base"]) == ev.values
    # A first-year floor is a need for cash in that year: the first year as paid.
    assert ev.first_year == pytest.approx(120_000.0)
    assert "worth today at 10 % a year" in ev.basis.label


def test_at_zero_nothing_is_discounted(alice):
    cash_option(alice, rate="0")
    (ev,) = board_build(user=alice, mc_paths=0).evaluations
    assert ev.value == pytest.approx(240_000.0)
    assert "worth today" not in ev.basis.label


def test_the_ledger_adds_a_line_a_year_that_brings_it_to_the_headline(alice):
    cash_option(alice)
    (ev,) = board_build(user=alice, mc_paths=0).evaluations
    view = ledger_view(ev)
    assert view is not None
    lines = [r for r in view.rows if r.line.item == "present_value"]
    # 120,000 x (1 / 1.1^0.5 - 1) = -5,584.49 on the year's last day; year 2's -15,985.90.
    assert [r.line.amount for r in lines] == [
        pytest.approx(-5_584.49, abs=0.01),
        pytest.approx(120_000 / 1.1**1.5 - 120_000, abs=1e-6),
    ]
    assert [r.line.day for r in lines] == [dt.date(2027, 11, 30), dt.date(2028, 11, 30)]
    assert lines[0].description == "Year 1 worth today at 10 % a year"
    assert lines[0].working == "120,000.00 × (1 ÷ (1 + 10 %)^0.5 − 1)"
    assert view.total == pytest.approx(ev.value, abs=1e-6)
    assert [y.subtotal for y in view.years] == pytest.approx(ev.values)


def test_the_simulated_figures_are_worth_today_too(alice):
    # No stock (and no chance of losing the job): every simulated future is the deterministic
    # window, discounted the same way.
    offer = cash_option(alice)
    Offer.objects.filter(pk=offer.pk).update(job_loss_pct=Decimal("0"))
    board = board_build(user=alice, mc_paths=200)
    assert board.mc is not None
    assert board.mc.cumulative[str(offer.pk)][:, -1] == pytest.approx([218_429.61] * 3, abs=0.01)
    choice = board_choice(board, futures=200)
    assert choice is not None
    assert choice.options[0].value.value == pytest.approx(218_429.61, abs=0.01)


def test_the_basis_key_keeps_the_rate_and_old_keys_still_read():
    basis = ValuationBasis(DECISION, 4, "USD", True, 0, discount_pct=5.0)
    assert basis.key == "v1;2026-12-01;4;USD;net;0;5"
    assert ValuationBasis.from_key(basis.key) == basis
    old = ValuationBasis.from_key("v1;2026-12-01;4;USD;net;0")
    assert old is not None and old.discount_pct == 0.0
    assert old.key == "v1;2026-12-01;4;USD;net;0"


def test_the_preferences_form_saves_a_rate_and_refuses_one_above_30(client_alice, alice):
    # Posted as the page renders it (every field it sends, its version too), twice in a row.
    url = reverse("offers:preferences")
    data = form_values(client_alice.get(url).content, action=url, page=url)
    assert "discount_rate_pct" in data
    assert client_alice.post(url, {**data, "discount_rate_pct": "5"}).status_code == 302
    prefs = Preferences.objects.get(owner=alice)
    assert prefs.discount_rate_pct == Decimal("5")
    again = form_values(client_alice.get(url).content, action=url, page=url)
    assert again["discount_rate_pct"] == "5.0"
    bad = client_alice.post(url, {**again, "discount_rate_pct": "31"})
    assert bad.status_code == 400 and "discount_rate_pct" in bad.context["form"].errors
    prefs.refresh_from_db()
    assert prefs.discount_rate_pct == Decimal("5")
