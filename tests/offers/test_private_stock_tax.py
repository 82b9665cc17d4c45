"""Private stock is taxed at its full value at vest; the liquidity discount lowers the value
a decision counts only (docs/valuation.md, "Private stock"). Entered on the offer form."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from offers.board import board_build
from offers.ledger import ledger_view
from offers.models import Offer, Preferences
from tests.factories import CompanyFactory, LocationPresetFactory, PreferencesFactory
from tests.rendered_forms import post_as_rendered

pytestmark = pytest.mark.django_db


def test_a_private_grant_is_taxed_on_its_full_value(client_alice, alice):
    # Bytes: private, USD 100 a share, no growth or volatility, a 25 % liquidity discount.
    # Offer: USD 100,000 a year from 1 Jan 2027, a USD 160,000 grant vesting evenly each
    # quarter over 4 years (1,600 shares, 100 a quarter), taxed at a flat 30 % (a place
    # without tables). One window year from 1 Dec 2026, after tax:
    #   base: 11 months (Jan-Nov 2027) x 100,000/12 = 91,666.67
    #   vests on 1 Apr, 1 Jul and 1 Oct 2027: 3 x 100 x USD 100 = 30,000 at full value,
    #     30,000 x (1 - 25 %) = 22,500 counted by the decision
    #   tax: 30 % x (91,666.67 + 30,000) = 36,500.00 (before: 30 % x 114,166.67 = 34,250)
    #   after tax: 91,666.67 + 22,500 - 36,500 = 77,666.67 (before: 79,916.67)
    PreferencesFactory(
        owner=alice, horizon_years=1, home_currency="USD", basis=Preferences.Basis.NET
    )
    bytes_co = CompanyFactory(
        owner=alice,
        name="Bytes",
        ticker="",
        share_price=Decimal("100"),
        growth_pct=Decimal("0"),
        volatility_pct=Decimal("0"),
        liquidity_discount_pct=Decimal("25"),
    )
    place = LocationPresetFactory(
        owner=alice, name="Flatland", currency="USD", effective_tax_pct=Decimal("30")
    )
    url = reverse("offers:offer_create")
    post_as_rendered(
        client_alice,
        url,
        name="Bytes offer",
        kind="external",
        company=str(bytes_co.pk),
        currency="USD",
        base="100,000",
        raise_pct="0",
        stock_grant="160,000",
        stock_currency="USD",
        vesting_preset="even_4y_quarterly",
        start_date="2027-01-01",
        tax_location=str(place.pk),
        work_timezone="Asia/Singapore",
    )
    offer = Offer.objects.get(owner=alice, name="Bytes offer")

    (ev,) = board_build(user=alice, mc_paths=0).evaluations
    assert not ev.error
    assert ev.component("base") == [pytest.approx(91_666.67, abs=0.01)]
    assert ev.component("equity") == [pytest.approx(22_500.00, abs=0.01)]
    assert ev.component("tax") == [pytest.approx(36_500.00, abs=0.01)]
    assert ev.value == pytest.approx(77_666.67, abs=0.01)

    # The ledger shows both: each vest counted at 7,500 and taxed at its full 10,000.
    view = ledger_view(ev)
    vests = [r for r in view.rows if r.line.item == "grant_vest"]
    assert [r.line.amount for r in vests] == [pytest.approx(7_500.0)] * 3
    assert [r.line.taxable for r in vests] == [pytest.approx(10_000.0)] * 3
    (flat,) = [r for r in view.rows if r.line.item == "flat_tax"]
    assert flat.line.unit_price == pytest.approx(121_666.67, abs=0.01)
    assert view.total == pytest.approx(ev.value)
    page = client_alice.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    assert "100 shares × USD 100 × (1 − 25% liquidity discount)" in page
    assert "taxed at its full value, 10,000.00" in page
