"""The default stock basis is the price the user assumed, so shares x price x rate rebuilds it.

A new user at home in TWD is offered a job paid in SGD with 1,000 shares of a USD-priced
stock at USD 100, growth 0 %, volatility 30 %, vesting over 4 years, a sixteenth every
quarter (25 % a year, no cliff), from the decision date. On the default basis the page's
stock is the hand figure to the unit; on the median it is less (the median of a volatile
price with no growth falls); the basis line names each choice and the stock's rate.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from accounts.wording import fit_percent, fit_words
from offers.board import board_build
from offers.export.comparison import comparison_build
from offers.export.html import html_bytes
from offers.export.xlsx import xlsx_bytes
from offers.ledger import ledger_view
from offers.models import Preferences
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    OfferFactory,
    PackageFactory,
)

pytestmark = pytest.mark.django_db

DECISION = dt.date(2027, 1, 1)
# The job starts, and its grant starts vesting, on the Monday after: 4 Jan 2027.
START = dt.date(2027, 1, 4)
# USD->TWD 32 and USD->SGD 1.25, so SGD->TWD is 32 / 1.25 = 25.6: the pay is converted at
# 25.6 and a vest at USD->SGD x SGD->TWD = 1.25 x 25.6 = 32.
RATES = (("USD", "TWD", "32"), ("USD", "SGD", "1.25"), ("SGD", "TWD", "25.6"))


def new_user_offer(django_user_model, *, percentile: int | None = None):
    """Return a new TWD user and their SGD offer (a percentile: the user chose that basis)."""
    user = django_user_model.objects.create_user("newcomer", password="a-long-test-password")
    prefs = Preferences(owner=user, home_currency="TWD", decision_date=DECISION)
    if percentile is not None:
        prefs.risk_percentile = percentile
    prefs.save()
    for currency, to_currency, rate in RATES:
        FxRateFactory(owner=user, currency=currency, to_currency=to_currency, rate=Decimal(rate))
    company = CompanyFactory(
        owner=user,
        currency="USD",
        share_price=Decimal("100"),
        growth_pct=Decimal("0"),
        volatility_pct=Decimal("30"),
    )
    package = PackageFactory(
        owner=user,
        company=company,
        currency="SGD",
        base=Decimal("240000"),
        raise_pct=Decimal("0"),
        bonus_target_pct=Decimal("0"),
        start_date=START,
    )
    # USD 100,000 at a grant price of USD 100: 1,000 shares.
    EquityGrantFactory(
        package=package,
        value=Decimal("100000"),
        grant_price=Decimal("100"),
        weights=[25.0, 25.0, 25.0, 25.0],
        cliff_months=0,
        frequency_months=3,
        vest_start=START,
    )
    offer = OfferFactory(owner=user, package=package, name="SGD offer")
    return user, offer


def stock_cells(content: bytes, key: str) -> tuple[list[int], int]:
    """Return the Stock column of an option's valuation table, by year, and its window total."""
    html = content.decode()
    table = html[html.index(f'<table class="valuation" data-option="{key}">') :]
    table = table[: table.index("</table>")]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", table[: table.index("</thead>")])
    col = heads.index("Stock") - 1  # the first heading is the year's

    def numbers(row: str) -> list[int]:
        cells = re.findall(r'<t[hd] class="num"[^>]*>(?:<strong>)?([^<]*)', row)
        return [int(c.replace(",", "").split()[-1]) for c in cells]

    body = table[table.index("<tbody>") : table.index("</tbody>")]
    years = [numbers(row)[col] for row in body.split("</tr>") if "<td" in row]
    foot = table[table.index("<tfoot>") :]
    return years, numbers(foot)[col]


def test_a_new_user_values_stock_at_the_price_they_assumed(django_user_model, client):
    user, offer = new_user_offer(django_user_model)
    assert Preferences.objects.get(owner=user).risk_percentile == Preferences.StockPrice.ASSUMED
    client.force_login(user)
    response = client.get(reverse("offers:offer_detail", args=[offer.pk]))
    assert response.status_code == 200
    years, window = stock_cells(response.content, str(offer.pk))
    # A sixteenth of 1,000 shares = 62.5 shares vests every quarter from the vesting start,
    # 4 Jan 2027: on 4 Apr 2027, 4 Jul, 4 Oct, 4 Jan 2028, ..., 4 Oct 2030, 4 Jan 2031.
    # The window runs from the decision date, 1 Jan 2027, for 4 years; window year n holds the
    # vests after 1 Jan of year n and on or before 1 Jan of the next (the engine's months end
    # on the day they start: `events.vest_month`). The 16th vest, 4 Jan 2031, is after the
    # window: 15 vests in it.
    # Each at the assumed price USD 100 (growth 0) and USD->TWD 32: 62.5 x 100 x 32 = 200,000.
    # Year 1: 4 Apr, 4 Jul, 4 Oct 2027 = 3 x 200,000 = 600,000.
    # Years 2-4: 4 Jan, 4 Apr, 4 Jul, 4 Oct = 4 x 200,000 = 800,000 each.
    # Window: 15 x 200,000 = 600,000 + 3 x 800,000 = 3,000,000.
    assert years == [600_000, 800_000, 800_000, 800_000]
    assert window == 3_000_000
    ev = board_build(user=user, mc_paths=0).evaluation(str(offer.pk))
    assert ev.component("equity") == pytest.approx([600_000, 800_000, 800_000, 800_000], abs=1e-6)
    # The same offer's ledger, on the same page: its 15 vests are each 62.5 shares x USD 100
    # x 32 = 200,000, and every line (pay, vests, tax) adds up to the headline to the unit.
    html = response.content.decode()
    ledger = html[html.index(f'data-ledger="{offer.pk}"') :]
    amounts = [float(a) for a in re.findall(r'data-amount="([-0-9.]+)"', ledger)]
    headline = re.search(r"data-headline>([^<]+)<", html).group(1)
    shown_total = re.search(r"data-ledger-total>([^<]+)<", ledger).group(1)
    assert shown_total == headline
    assert round(sum(amounts)) == int(re.sub(r"[^0-9-]", "", headline))
    assert round(sum(amounts)) == round(ev.value)
    vests = [row.line for row in ledger_view(ev).rows if row.line.item == "grant_vest"]
    assert len(vests) == 15
    for line in vests:
        assert (line.quantity, line.unit_price, line.share, line.fx) == pytest.approx(
            (62.5, 100.0, 1.0, 32.0)
        )
        assert line.amount == pytest.approx(200_000.0, abs=1e-6)
    assert round(sum(line.amount for line in vests)) == 3_000_000


def test_the_median_basis_gives_less(django_user_model, client):
    user, offer = new_user_offer(django_user_model, percentile=Preferences.StockPrice.MEDIAN)
    client.force_login(user)
    years, window = stock_cells(
        client.get(reverse("offers:offer_detail", args=[offer.pk])).content, str(offer.pk)
    )
    # The median price at t years with growth 0 and volatility 0.3 is
    # 100 exp(-0.3^2 / 2 t) = 100 exp(-0.045 t); a vest on the 1st of a month is priced at the
    # end of its window month: 4 Apr 2027 in month 4 (1 Apr to 1 May, t = 4/12), then every
    # 3 months to 4 Oct 2030 in month 46; month m is in window year (m - 1) // 12 + 1.
    months = [4 + 3 * k for k in range(15)]
    by_year = [0.0] * 4
    for m in months:
        by_year[(m - 1) // 12] += 62.5 * 100 * math.exp(-0.045 * m / 12) * 32
    assert years == [round(v) for v in by_year]
    assert abs(window - round(sum(by_year))) <= 1
    assert window < 3_000_000
    assert all(y < a for y, a in zip(years, [600_000, 800_000, 800_000, 800_000], strict=True))


@pytest.mark.parametrize(
    ("choice", "words"),
    [
        (Preferences.StockPrice.ASSUMED, "stock at the assumed share price"),
        (Preferences.StockPrice.CAUTIOUS, "stock at a cautious share price (P10)"),
        (Preferences.StockPrice.MEDIAN, "stock at the median share price"),
        (Preferences.StockPrice.OPTIMISTIC, "stock at an optimistic share price (P90)"),
    ],
)
def test_the_basis_line_names_the_basis_and_both_rates(django_user_model, client, choice, words):
    user, offer = new_user_offer(django_user_model, percentile=choice)
    client.force_login(user)
    html = client.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    basis = html[html.index("data-basis>") : html.index("</p>", html.index("data-basis>"))]
    assert words in basis
    others = {"assumed", "median", "cautious", "optimistic"} - {words.split()[3]}
    assert not any(other in basis for other in others)
    # The pay's rate and the stock's, each as used.
    assert "Pay in SGD converted at 1 SGD = 25.6000 TWD." in basis
    assert "Stock in USD converted at 1 USD = 32.0000 TWD." in basis
    dashboard = client.get(reverse("offers:dashboard")).content.decode()
    assert words in dashboard


def test_the_exports_name_the_basis_and_the_stock_rate(django_user_model):
    user, offer = new_user_offer(django_user_model)
    comparison = comparison_build(user=user)
    assert comparison.meta["risk_percentile"] == 0
    assert "stock at the assumed share price" in comparison.meta["basis_label"]
    (row,) = comparison.assumptions
    assert (row["stock_currency"], row["stock_fx_to_home"]) == ("USD", pytest.approx(32.0))
    rates = {(r["currency"], r["to_currency"]): r["rate"] for r in comparison.fx_rates}
    assert rates == {("SGD", "TWD"): pytest.approx(25.6), ("USD", "TWD"): pytest.approx(32.0)}
    assert "USD 32.0000" in html_bytes(comparison).decode()
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    sheet = [[c.value for c in r] for r in wb["Assumptions"].iter_rows()]
    header = next(r for r in sheet if r[0] == "Option")
    row = next(r for r in sheet if r[0] == offer.name)
    assert row[header.index("Stock currency")] == "USD"
    assert row[header.index("Stock FX to home")] == pytest.approx(32.0)


def test_a_fit_reads_the_same_everywhere(django_user_model, client, reauth):
    assert [fit_percent(s) for s in (0.845, 0.8449, 0.8451, 0.005, 0.0, 1.0)] == [
        85,
        84,
        85,
        1,
        0,
        100,
    ]
    user, offer = new_user_offer(django_user_model)
    OfferFactory(owner=user, name="Second offer")
    board = board_build(user=user, mc_paths=0)
    fits = {r.key: fit_words(r.total) for r in board.ranking}
    assert len(fits) == 2
    client.force_login(user)
    reauth(client)
    dashboard = client.get(reverse("offers:dashboard")).content.decode()
    for key, words in fits.items():
        assert f"<small data-fit>{words}</small>" in dashboard
        page = client.get(reverse("offers:offer_detail", args=[key])).content.decode()
        assert f"<td data-fit>{words}</td>" in page
    comparison = comparison_build(user=user)
    report = html_bytes(comparison).decode()
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    ranking = [[c.value for c in r] for r in wb["Ranking"].iter_rows()]
    header = ranking[3]
    for option in comparison.options:
        words = fits[option["key"]]
        assert words in report
        row = next(r for r in ranking if r[1] == option["name"])
        assert f"fit {row[header.index('Fit (%)')]}%" == words
