"""The ledger of an option: every dated event of its window, adding up to its headline."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from compensation.engine.ledger import LedgerLine
from offers.board import board_build
from offers.ledger import ledger_view, working
from offers.models import Offer, Preferences
from tests.factories import CompanyFactory, FxRateFactory, PreferencesFactory
from tests.offers.scenario_demo import seed_demo_user
from tests.offers.test_views_offers import offer_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def sgd_offer(client_alice, alice):
    """SGD pay, 4,000 USD-priced shares at USD 100, home TWD: 1 SGD = 24 TWD, 1 SGD = 0.75
    USD (so 1 USD = 4/3 SGD and the stock converts at 4/3 x 24 = 32 TWD), Singapore tax."""
    FxRateFactory(owner=None, currency="SGD", to_currency="TWD", rate=Decimal("24"))
    FxRateFactory(owner=None, currency="SGD", to_currency="USD", rate=Decimal("0.75"))
    FxRateFactory(owner=None, currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(
        owner=alice, share_price=Decimal("100"), growth_pct=Decimal("0"), currency="USD"
    )
    PreferencesFactory(
        owner=alice,
        home_currency="TWD",
        decision_date="2027-02-01",
        horizon_years=4,
        basis=Preferences.Basis.NET,
    )
    data = offer_post(
        company=company.pk,
        currency="SGD",
        base="240000",
        raise_pct="0",
        bonus_target_pct="15",
        sign_on_year1="30000",
        stock_grant="400000",
        stock_currency="usd",
        tax_regime="sg",
        start_date="2027-02-01",
    )
    response = client_alice.post(reverse("offers:offer_create"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Offer.objects.get(owner=alice)


def _evaluation(user, offer):
    board = board_build(user=user)
    return board, board.evaluation(str(offer.pk))


def test_the_lines_add_up_to_the_headline_after_tax_and_gross(alice, sgd_offer):
    board, ev = _evaluation(alice, sgd_offer)
    assert not ev.error
    view = ledger_view(ev)
    assert view is not None
    assert round(view.total) == round(ev.value)
    assert view.total == pytest.approx(ev.value, abs=1e-4)
    # Each window year's subtotal is that year's figure in the table.
    assert [y.subtotal for y in view.years] == pytest.approx(ev.values, abs=1e-4)
    assert {row.line.component for row in view.rows} >= {"base", "bonus", "sign_on", "equity"}
    assert any(row.line.component == "tax" for row in view.rows)
    prefs = Preferences.objects.get(owner=alice)
    prefs.basis = Preferences.Basis.GROSS
    prefs.save()
    _, gross = _evaluation(alice, sgd_offer)
    gross_view = ledger_view(gross)
    assert not any(row.line.component == "tax" for row in gross_view.rows)
    assert gross_view.total == pytest.approx(gross.value, abs=1e-4)
    assert gross.value > ev.value


def test_each_line_is_its_working(alice, sgd_offer):
    _, ev = _evaluation(alice, sgd_offer)
    view = ledger_view(ev)
    prices = ev.basis.segment_prices(ev.segments)  # the prices the board values with
    vests = [r.line for r in view.rows if r.line.item == "grant_vest"]
    # 4,000 shares on an even quarterly 4-year schedule: 250 a quarter, 16 in the window.
    assert len(vests) == 16
    for line in vests:
        assert line.quantity == pytest.approx(250.0)
        # A vest on 1 May 2027 is in window month 3 (from 1 Feb), price index 2.
        month = (line.day.year - 2027) * 12 + line.day.month - 3
        assert line.unit_price == pytest.approx(prices[0][month])
        assert line.fx == pytest.approx(32.0)  # 4/3 SGD a USD x 24 TWD an SGD
        # 250 shares x price x 32 TWD, no liquidity discount.
        assert line.amount == pytest.approx(250 * line.unit_price * 32)
    base = [r.line for r in view.rows if r.line.item == "base"]
    # 12 months x SGD 20,000 x 24 = TWD 5,760,000 a year.
    assert [(b.quantity, b.unit_price, b.amount) for b in base] == [
        (12.0, pytest.approx(20_000.0), pytest.approx(5_760_000.0))
    ] * 4
    (sign_on,) = [r.line for r in view.rows if r.line.item == "sign_on"]
    assert sign_on.amount == pytest.approx(30_000 * 24)  # SGD 30,000 x 24
    for row in view.rows:
        line = row.line
        product = line.quantity * line.unit_price * line.share * line.fx
        assert abs(line.amount) == pytest.approx(product, rel=1e-9), row.description


def test_each_tax_year_s_brackets_add_up_to_its_tax(alice, sgd_offer):
    _, ev = _evaluation(alice, sgd_offer)
    view = ledger_view(ev)
    assert view.tax_years
    for tax_year in view.tax_years:
        for part in tax_year.parts:
            assert sum(s.tax for s in part.brackets.slices) == pytest.approx(part.tax)
            assert part.brackets.taxable == pytest.approx(
                max(part.brackets.income - part.brackets.deduction, 0.0)
            )
        lines = [
            r.line
            for r in view.rows
            if r.line.item == "tax" and r.line.tax_year == tax_year.working.tax_year
        ]
        # The tax year's tax in home currency, times the share of its income in the window.
        assert sum(line.unit_price for line in lines) / len(lines) == pytest.approx(
            tax_year.working.tax
        )
        assert sum(line.share for line in lines) <= 1.0 + 1e-9


def _csv_rows(response):
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    return list(csv.DictReader(io.StringIO(text.decode("utf-8-sig"))))


def test_the_csv_has_the_same_lines_and_sum(client_alice, alice, sgd_offer, reauth):
    _, ev = _evaluation(alice, sgd_offer)
    view = ledger_view(ev)
    response = reauth(client_alice).get(reverse("offers:offer_ledger_csv", args=[sgd_offer.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = _csv_rows(response)
    lines = [r for r in rows if r["in_sum"] == "1"]
    assert len(lines) == len(view.rows)
    assert {r["currency"] for r in lines} == {"TWD"}
    assert sum(float(r["amount"]) for r in lines) == pytest.approx(ev.value, abs=1e-4)
    for r in lines:
        product = float(r["quantity"]) * float(r["unit_price"]) * float(r["share"])
        assert abs(float(r["amount"])) == pytest.approx(product * float(r["fx_rate"]), rel=1e-9)
    brackets = [r for r in rows if r["item"] == "tax_bracket"]
    assert brackets and all(r["in_sum"] == "0" for r in brackets)
    for tax_year in view.tax_years:
        mine = [r for r in brackets if r["tax_year"] == str(tax_year.working.tax_year)]
        assert sum(float(r["amount"]) for r in mine) == pytest.approx(tax_year.working.tax)


def test_the_csv_neutralises_formulas(client_alice, alice, sgd_offer):
    # A refresher's description is ours; a tax part's name comes from the tables: the
    # text cells go through the export's formula guard all the same (source, description).
    from offers.export.ledger_csv import ledger_rows

    _, ev = _evaluation(alice, sgd_offer)
    view = ledger_view(ev)
    for row in ledger_rows(view):
        assert not any(isinstance(v, str) and v.startswith(("=", "+", "@")) for v in row)


def test_the_offer_page_shows_the_ledger(client_alice, alice, sgd_offer):
    response = client_alice.get(reverse("offers:offer_detail", args=[sgd_offer.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "data-ledger=" in html
    assert reverse("offers:offer_ledger_csv", args=[sgd_offer.pk]) in html
    _, ev = _evaluation(alice, sgd_offer)
    total = re.search(r"data-ledger-total>([^<]+)<", html).group(1)
    headline = re.search(r"data-headline>([^<]+)<", html).group(1)
    assert total == headline
    assert html.count("data-ledger-year=") == 4


def test_another_user_s_ledger_is_404(charlie, sgd_offer):
    other = Client()  # the fixture's client is Alice's
    other.force_login(charlie)
    url = reverse("offers:offer_ledger_csv", args=[sgd_offer.pk])
    assert other.get(url).status_code == 404
    assert other.post(url).status_code == 404


def test_every_demo_option_s_ledger_adds_up_to_its_headline():
    user = seed_demo_user()
    board = board_build(user=user)
    assert board.evaluations and not board.failed
    kinds = set()
    for ev in board.evaluations:
        view = ledger_view(ev)
        assert view is not None
        assert round(view.total) == round(ev.value), ev.offer.name
        assert view.total == pytest.approx(ev.value, abs=1e-3), ev.offer.name
        assert [y.subtotal for y in view.years] == pytest.approx(ev.values, abs=1e-3)
        kinds.add(ev.offer.kind)
        if len(ev.segments) > 1:
            assert any(row.source for row in view.rows)  # the current job's part
        # No tax year is worked out with nothing in it (a leaving option's current job after
        # its last day: every figure 0.00).
        assert all(t.working.cash + t.working.equity > 0 for t in view.tax_years), ev.offer.name
    assert {"stay", "external"} <= kinds


def _shown_product(working: str) -> float:
    """Rebuild a vest line from its working as shown, as a person with a calculator would:
    shares x price [x (1 - discount %)] [x days here / all its days] [x rate]."""
    import re

    factors = [f.strip() for f in working.split("×")]
    product = 1.0
    for factor in factors:
        number = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*%", factor) if "discount" in factor else None
        if number:  # (1 − 30% liquidity discount)
            product *= 1 - float(number.group(1).replace(",", "")) / 100
            continue
        days = re.match(r"(\d[\d,]*)/(\d[\d,]*)", factor)
        if days:  # a transfer's vest split by the days worked in each place: 15/1,095
            product *= float(days.group(1).replace(",", "")) / float(days.group(2).replace(",", ""))
            continue
        product *= float(re.search(r"\d[\d,]*(?:\.\d+)?", factor).group(0).replace(",", ""))
    return product


def test_every_demo_vest_is_rebuilt_to_the_unit_from_its_working_as_shown():
    user = seed_demo_user()
    board = board_build(user=user)
    checked = 0
    for ev in board.evaluations:
        for row in ledger_view(ev).rows:
            if row.line.item in ("grant_vest", "refresher_vest"):
                # The amount shown is rounded to the unit: the working as printed rebuilds it.
                assert abs(_shown_product(row.working) - row.line.amount) < 0.5, row.working
                checked += 1
    assert checked > 50


def test_a_contribution_s_float_residue_is_not_called_a_monthly_cap():
    # The demo's Taiwan employment insurance came out at a share of 0.9999999999 of
    # 0.2 % x TWD 458,000 and the page said "x 1 (the monthly cap)".
    def line(share: float) -> LedgerLine:
        return LedgerLine(
            year=1,
            day=dt.date(2027, 11, 30),
            segment=1,
            component="contributions",
            item="contribution",
            quantity=0.002,
            unit_price=458_000.0,
            unit_currency="TWD",
            share=share,
            fx=1.0,
            amount=-0.002 * 458_000.0 * share,
            name="employment insurance",
        )

    assert working(line(1.0 - 1e-12)) == "0.2% × TWD 458,000.00"
    assert "monthly cap" in working(line(0.5))


def test_the_tax_lines_and_brackets_read_in_traditional_chinese(alice, sgd_offer):
    from django.utils import translation

    with translation.override("zh-hant"):
        _, ev = _evaluation(alice, sgd_offer)
        view = ledger_view(ev)
    taxes = [r.description for r in view.rows if r.line.item == "tax"]
    assert taxes
    # Singapore's part is 'resident income tax' with its 'earned income relief'.
    assert all("居民所得稅" in d and "resident" not in d for d in taxes), taxes
    brackets = [p.brackets for y in view.tax_years for p in y.parts]
    assert {b.name for b in brackets} == {"居民所得稅"}
    assert {b.deduction_label for b in brackets} == {"勞動所得減免"}
    assert {p.name for y in view.tax_years for p in y.parts} == {"居民所得稅"}
