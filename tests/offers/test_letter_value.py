"""What the letter guarantees, beside the headline (issue 38, item 3), rebuilt by hand.

A new user at home in USD, on the gross basis, is offered USD 200,000 base with a 5 % raise, a
10 % bonus at a 1.5 multiplier, 4,000 shares at USD 100 (USD 400,000) vesting a sixteenth a
quarter, a USD 100,000 refresher a year from year 2 and 20 % share-price growth, starting on the
decision date. The headline counts all of it; the letter states the base, the bonus at target
and the grant at today's price:
    base 200,000 x 4 years                 800,000
    bonus 200,000 x 10 % x 1 x 4 years      80,000
    16 vests x 250 shares x USD 100        400,000
    the letter's value                   1,280,000
The option page, the comparison (JSON), the workbook and the report say the same figure.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from compensation.engine import Grant, PackageSpec, Refresher, Stock
from compensation.engine.projection import project_yearly
from offers.export.comparison import comparison_build
from offers.export.html import html_bytes
from offers.export.xlsx import xlsx_bytes
from offers.models import Preferences
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    OfferFactory,
    PackageFactory,
    RefresherFactory,
)

pytestmark = pytest.mark.django_db

START = dt.date(2027, 1, 4)
LETTER = 1_280_000


def test_the_letter_keeps_only_the_terms_written():
    spec = PackageSpec(
        name="o", start=START, base=200_000, raise_pct=5, bonus_target_pct=10,
        bonus_multiplier=1.5, grants=(Grant(value=400_000),),
        refreshers=(Refresher(100_000),),
        stock=Stock(price=100, growth_pct=20, volatility_pct=30),
    )  # fmt: skip
    letter = spec.letter()
    assert (letter.raise_pct, letter.bonus_multiplier, letter.refreshers) == (0.0, 1.0, ())
    assert (letter.stock.growth_pct, letter.stock.volatility_pct, letter.stock.price) == (0, 0, 100)
    assert letter.grants == spec.grants and letter.base == spec.base
    yearly = project_yearly(letter)
    assert list(yearly["base"]) == pytest.approx([200_000] * 4)
    assert list(yearly["bonus"]) == pytest.approx([20_000] * 4)
    # 4,000 shares at a flat USD 100, the 16th vest on 4 Jan 2031, the last day of year 4.
    assert float(yearly["equity"].sum()) == pytest.approx(400_000)
    assert float(yearly["total"].sum()) == pytest.approx(LETTER)


@pytest.fixture
def offer(django_user_model):
    user = django_user_model.objects.create_user("letter", password="a-long-test-password")
    Preferences.objects.create(owner=user, home_currency="USD", decision_date=START, basis="gross")
    company = CompanyFactory(
        owner=user, currency="USD", share_price=Decimal("100"), growth_pct=Decimal("20"),
        volatility_pct=Decimal("30"),
    )  # fmt: skip
    package = PackageFactory(
        owner=user, company=company, currency="USD", base=Decimal("200000"),
        raise_pct=Decimal("5"), bonus_target_pct=Decimal("10"), bonus_multiplier=Decimal("1.5"),
        start_date=START,
    )  # fmt: skip
    EquityGrantFactory(
        package=package, value=Decimal("400000"), grant_price=Decimal("100"),
        weights=[25.0, 25.0, 25.0, 25.0], cliff_months=0, frequency_months=3, vest_start=START,
    )  # fmt: skip
    RefresherFactory(package=package, yearly_value=Decimal("100000"))
    return OfferFactory(owner=user, package=package, name="USD offer")


def test_every_surface_gives_the_letter_beside_the_headline(client, offer):
    client.force_login(offer.owner)
    page = client.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    found = re.search(r"data-letter-value>What the letter states, on the same basis: "
                      r"<strong>USD ([\d,]+)</strong>", page)  # fmt: skip
    assert found and int(found[1].replace(",", "")) == LETTER
    headline = int(re.sub(r"[^0-9]", "", re.search(r"data-headline>([^<]+)<", page)[1]))
    assert headline > LETTER  # raises, the multiplier, growth and refreshers are assumed
    comparison = comparison_build(user=offer.owner)
    (row,) = comparison.options
    assert row["letter_value_home"] == pytest.approx(LETTER, abs=0.01)
    assert row["comp_value_home"] == pytest.approx(headline, abs=1)
    report = html_bytes(comparison).decode()
    assert re.search(r"data-letter-value>USD 1,280,000<", report)
    book = load_workbook(io.BytesIO(xlsx_bytes(comparison)), read_only=True)
    cells = [c for sheet in book.worksheets for r in sheet.iter_rows(values_only=True) for c in r]
    assert "The letter's value (USD)" in cells and pytest.approx(LETTER, abs=0.01) in cells


def test_the_demos_letters_are_below_their_headlines_the_transfers_held_grants_once(demo_user):
    """Every demo option assumes refreshers or growth; a transfer's held grants count once."""
    from offers.board import board_build
    from offers.letter import letter_value

    board = board_build(user=demo_user, mc_paths=0)
    letters = {ev.offer.name: (letter_value(board, ev), ev.value) for ev in board.evaluations}
    assert all(0 < letter < headline for letter, headline in letters.values()), letters
    # Both keep the same held grants at today's price (staying's letter 871,679, the transfer's
    # 867,544 on 1 Dec 2026); counting them twice would add about USD 500,000 of unvested stock.
    transfer, _ = letters["Internal transfer: Northwind Taipei"]
    stay, _ = letters["Stay at Northwind AI"]
    assert transfer < stay + 100_000
