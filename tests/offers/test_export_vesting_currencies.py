"""The XLSX's vesting table names the currency of every amount, with the rate between them."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from offers.export.comparison import comparison_build
from offers.export.xlsx import xlsx_bytes
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    OfferFactory,
    PackageFactory,
    PreferencesFactory,
    RefresherFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def taipei_offer(alice):
    """Paid in TWD, home currency TWD; 400 shares granted at USD 180; USD 10,000 refreshers."""
    PreferencesFactory(owner=alice, home_currency="TWD", horizon_years=4)
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(owner=alice, currency="USD", share_price=Decimal("180"))
    package = PackageFactory(owner=alice, company=company, currency="TWD", base=Decimal("3000000"))
    EquityGrantFactory(
        package=package,
        value=None,
        shares=Decimal("400"),
        grant_price=Decimal("180"),
        price_currency="USD",
    )
    RefresherFactory(package=package, yearly_value=Decimal("10000"))
    return OfferFactory(owner=alice, name="Taipei", package=package)


def vesting_table(wb):
    """Return the vesting table of the Assumptions sheet: its heading row and its rows."""
    rows = list(wb["Assumptions"].iter_rows())
    start = next(i for i, r in enumerate(rows) if r[0].value == "Vesting schedules")
    header = [c.value for c in rows[start + 1]]
    body = []
    for r in rows[start + 2 :]:
        if r[0].value is None:
            break
        body.append(dict(zip(header, r, strict=False)))
    return header, body


def test_every_amount_of_the_vesting_table_names_its_currency(alice, taipei_offer):
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison_build(user=alice))))
    header, body = vesting_table(wb)
    grant, refresher = body
    # The grant: 400 shares x USD 180 = USD 72,000; at 32 TWD a dollar, TWD 2,304,000.
    assert grant["Shares"].value == pytest.approx(400)
    assert grant["Grant price"].value == pytest.approx(180)
    assert "USD" in grant["Grant price"].number_format
    assert grant["Price currency"].value == "USD"
    value = grant["Value in the price's currency (per year for refreshers)"]
    assert value.value == pytest.approx(72_000) and "USD" in value.number_format
    rate = grant["Rate: 1 unit of the price's currency in home currency"]
    assert rate.value == pytest.approx(32)
    assert grant["Home currency"].value == "TWD"
    home = grant["Value in home currency"]
    assert home.value == pytest.approx(2_304_000) and "TWD" in home.number_format
    # The refresher is stated in the stock's currency: USD 10,000 a year, TWD 320,000.
    value = refresher["Value in the price's currency (per year for refreshers)"]
    assert value.value == pytest.approx(10_000) and "USD" in value.number_format
    home = refresher["Value in home currency"]
    assert home.value == pytest.approx(320_000) and "TWD" in home.number_format
    # No amount is left without a currency: each money column's cells name one.
    for row in body:
        for name in ("Grant price", "Value in home currency"):
            cell = row[name]
            if cell.value is not None:
                assert any(code in cell.number_format for code in ("USD", "TWD")), name


def test_the_home_value_is_converted_when_home_differs_from_pay(alice, taipei_offer):
    """Home currency USD: the TWD-paid grant's home value is back in dollars, rate 1."""
    prefs = alice.preferences
    prefs.home_currency = "USD"
    prefs.save()
    comparison = comparison_build(user=alice)
    grant = next(v for v in comparison.vesting if v["kind"] == "grant")
    # USD 72,000 -> TWD 2,304,000 (x 32) -> USD 72,000 (x 1/32): the rate price->home is 1.
    assert grant["price_currency"] == "USD" and grant["home_currency"] == "USD"
    assert grant["fx_price_to_home"] == pytest.approx(1.0)
    assert grant["home_value"] == pytest.approx(72_000)


def test_the_reports_vesting_table_names_every_currency(client_alice_reauth, alice, taipei_offer):
    """The grant in its own currency, with home's beside it (issue 35: no bare 11,520,000)."""
    import re

    from django.urls import reverse

    page = client_alice_reauth.get(reverse("offers:export_report")).content.decode()
    cells = [
        " ".join(re.sub(r"<[^>]+>", " ", cell).split())
        for cell in re.findall(r"<td class=\"num\" data-vesting-value>(.*?)</td>", page)
    ]
    # 400 shares x USD 180 = USD 72,000 = TWD 2,304,000 at 32; the refresher USD 10,000 a year
    # = TWD 320,000.
    assert cells == ["USD 72,000 (TWD 2,304,000)", "USD 10,000 (TWD 320,000)"]
