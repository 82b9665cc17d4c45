"""Employee contributions are shown next to tax: pages, charts and exports.

Two options over 2026, home currency SGD, the same pay: SGD 120,000 of salary and a 15 % bonus
(18,000, paid on 31 Dec 2026). A citizen (`sg-cpf`) pays CPF, an Employment Pass holder
(`sg`) does not (hand computations in tests/compensation/engine/test_engine_contributions.py):

    citizen:          total 138,000 - tax 7,559 - CPF 20,400 (19,200 + 1,200) = 110,041
    Employment Pass:  total 138,000 - tax 10,500                             = 127,500

Every view and export shows the citizen's 20,400 in a Contributions line beside Tax, so that
after tax = total - tax - contributions can be checked; an option without any shows none.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal

import jsonschema
import pandas as pd
import pytest
from django.urls import reverse
from openpyxl import load_workbook

from offers import charts
from offers.board import board_build
from offers.export.comparison import comparison_build
from offers.export.csv_export import csv_bytes
from offers.export.json_export import json_bytes
from offers.export.xlsx import xlsx_bytes
from tests.factories import OfferFactory, PreferencesFactory
from tests.offers.export_schema import load_schema
from tests.offers.test_charts import page_figure
from tests.offers.test_valuation_consistency import amount

pytestmark = pytest.mark.django_db

CPF = 20_400.0
CITIZEN = {"total": 138_000.0, "tax": 7_559.0, "contributions": CPF, "net": 110_041.0}
EMPLOYMENT_PASS = {"total": 138_000.0, "tax": 10_500.0, "net": 127_500.0}


@pytest.fixture
def singapore(alice):
    PreferencesFactory(
        owner=alice, home_currency="SGD", horizon_years=1, decision_date=dt.date(2026, 1, 1)
    )
    options = {}
    for name, regime in (("Citizen", "sg-cpf"), ("Employment Pass", "sg")):
        options[name] = OfferFactory(
            owner=alice,
            name=name,
            start_date=dt.date(2026, 1, 1),
            package__currency="SGD",
            package__base=Decimal("120000"),
            package__raise_pct=Decimal("0"),
            package__bonus_target_pct=Decimal("15"),
            package__start_date=dt.date(2026, 1, 1),
            package__tax_regime=regime,
        )
    return {"user": alice, **options}


def test_the_board_carries_the_hand_computed_figures(singapore):
    board = board_build(user=singapore["user"], mc_paths=0)
    citizen = board.evaluation(str(singapore["Citizen"].pk))
    ep = board.evaluation(str(singapore["Employment Pass"].pk))
    for column, value in CITIZEN.items():
        assert citizen.component(column)[0] == pytest.approx(value, abs=1), column
    for column, value in EMPLOYMENT_PASS.items():
        assert ep.component(column)[0] == pytest.approx(value, abs=1), column
    assert citizen.has_contributions and not ep.has_contributions
    assert citizen.shown_columns[-3:] == ("tax", "contributions", "net")
    assert ep.shown_columns[-2:] == ("tax", "net")


def table_of(client, offer) -> dict[str, float]:
    html = client.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    table = pd.read_html(io.StringIO(html), attrs={"class": "valuation"})[0]
    return {str(header): amount(str(value)) for header, value in table.iloc[0].items()}


def test_the_option_page_shows_contributions_beside_tax(client_alice, singapore):
    row = table_of(client_alice, singapore["Citizen"])
    headers = list(row)
    assert headers[headers.index("Tax") + 1] == "Contributions"
    assert row["Total before tax"] == pytest.approx(138_000, abs=1)
    assert row["Tax"] == pytest.approx(7_559, abs=1)
    assert row["Contributions"] == pytest.approx(CPF, abs=1)
    assert row["After tax"] == pytest.approx(110_041, abs=1)
    # On an Employment Pass there is nothing to show.
    assert "Contributions" not in table_of(client_alice, singapore["Employment Pass"])


def test_compare_shows_the_difference_in_contributions(client_alice, singapore):
    a, b = singapore["Citizen"], singapore["Employment Pass"]
    response = client_alice.get(reverse("offers:offer_compare"), {"a": a.pk, "b": b.pk})
    html = response.content.decode()
    assert ("contributions", "Contributions") in response.context["components"]
    cells = {comp: diff for comp, _va, _vb, diff in response.context["rows"][0]["cells"]}
    assert cells["contributions"] == pytest.approx(CPF, abs=1)
    assert cells["tax"] == pytest.approx(7_559 - 10_500, abs=1)
    assert cells["net"] == pytest.approx(110_041 - 127_500, abs=1)
    diff = page_figure(html, "fig-diff")
    bars = {trace["name"]: trace["y"] for trace in diff["data"]}
    assert bars["Contributions"] == [-round(CPF)]  # counted against A, like tax


def test_the_yearly_chart_draws_contributions_below_zero(singapore):
    board = board_build(user=singapore["user"], mc_paths=0)
    figure = charts.yearly_by_component(board)
    levied = [t for t in figure.data if t.name == "Contributions"]
    assert len(levied) == 2  # one trace per option panel (the legend shows it once)
    by_axis = {t.xaxis: list(t.y) for t in levied}
    citizen_panel = next(
        f"x{'' if i == 0 else i + 1}"
        for i, (_r, ev) in enumerate(board.ranked)
        if ev.offer.name == "Citizen"
    )
    assert by_axis[citizen_panel] == [-round(CPF)]


def test_json_and_csv_carry_a_contributions_row_for_the_option_that_pays_them(singapore):
    comparison = comparison_build(user=singapore["user"])
    doc = json.loads(json_bytes(comparison))
    jsonschema.validate(doc, load_schema("comparison-v2.json"))
    keys = {str(singapore[name].pk): name for name in ("Citizen", "Employment Pass")}
    levied = {
        keys[row["option_key"]]: row["amount"]
        for row in doc["yearly"]
        if row["component"] == "contributions"
    }
    assert levied == {"Citizen": pytest.approx(CPF, abs=0.01)}
    # After tax = total - tax - contributions, on the rows themselves.
    rows = {(keys[r["option_key"]], r["component"], r["basis"]): r["amount"] for r in doc["yearly"]}
    for name in keys.values():
        paid = rows.get((name, "contributions", "gross"), 0.0)
        assert rows[(name, "total", "net")] == pytest.approx(
            rows[(name, "total", "gross")] - rows[(name, "tax", "gross")] - paid
        )
    frame = pd.read_csv(io.BytesIO(csv_bytes(comparison)))
    row = frame[frame["component"] == "contributions"]
    assert list(row["component_label"]) == ["Contributions"]
    assert list(row["basis_label"]) == ["Gross (before tax)"]
    assert row["amount"].item() == pytest.approx(CPF, abs=0.01)


def test_the_xlsx_year_by_year_sheet_has_a_contributions_column(singapore):
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison_build(user=singapore["user"]))))
    sheet = wb["Year by year"]
    header = [c.value for c in sheet[1]]
    assert header[header.index("Tax") + 1] == "Contributions"
    column = header.index("Contributions")
    values = {
        (r[0].value, r[2].value): r[column].value for r in sheet.iter_rows(min_row=2) if r[0].value
    }
    assert values[("Citizen", "Gross (before tax)")] == pytest.approx(CPF, abs=0.01)
    assert values[("Employment Pass", "Gross (before tax)")] is None


def test_without_contributions_the_exports_keep_their_columns(alice):
    # No option pays any: no Contributions column in the sheet, no row in the tidy data.
    PreferencesFactory(owner=alice, home_currency="USD", horizon_years=1)
    OfferFactory(owner=alice, name="Acme", package__tax_regime="us-ca")
    comparison = comparison_build(user=alice)
    assert not [r for r in comparison.yearly if r["component"] == "contributions"]
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    assert "Contributions" not in [c.value for c in wb["Year by year"][1]]
