"""Comparison exports: figures checked against the engine, formats read back, schema, formulas."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from decimal import Decimal

import jsonschema
import pandas as pd
import pytest
from django.core.management import call_command
from django.utils import translation
from openpyxl import load_workbook

from compensation.engine.components import PAY_COMPONENTS
from offers.board import board_build
from offers.export import neutralise
from offers.export.columns import TERMS
from offers.export.comparison import comparison_build
from offers.export.csv_export import csv_bytes
from offers.export.html import html_bytes
from offers.export.json_export import json_bytes
from offers.export.xlsx import xlsx_bytes
from tests.factories import (
    EquityGrantFactory,
    FxRateFactory,
    LocationPresetFactory,
    OfferFactory,
    PackageFactory,
    PreferencesFactory,
    RefresherFactory,
    SignOnFactory,
)
from tests.interviews.factories import QuestionFactory, RoundFactory
from tests.offers.export_schema import load_schema

pytestmark = pytest.mark.django_db
EVIL = '=HYPERLINK("http://evil.example","click")'
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@pytest.fixture
def board_user(alice):
    """Alice with a USD offer and an SGD offer taxed at 17 %, home currency USD."""
    PreferencesFactory(owner=alice, home_currency="USD", horizon_years=4)
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    usd = OfferFactory(owner=alice, name="Acme USD")
    SignOnFactory(package=usd.package)
    EquityGrantFactory(package=usd.package)
    RefresherFactory(package=usd.package)
    place = LocationPresetFactory(name="Singapore", currency="SGD", effective_tax_pct=Decimal("17"))
    sgd_pkg = PackageFactory(owner=alice, currency="SGD", base=Decimal("300000"), location=place)
    EquityGrantFactory(package=sgd_pkg, value=Decimal("200000"))
    sgd = OfferFactory(owner=alice, name=EVIL, package=sgd_pkg, notes="-1 and @me")
    RoundFactory(owner=alice, process__owner=alice, interviewer_name="+ascii", feedback="ok")
    QuestionFactory(round__owner=alice, round__process__owner=alice, text="@who =1+1")
    return {"user": alice, "usd": usd, "sgd": sgd}


def board_yearly(user, offer):
    """Return the board's own yearly figures of an option: the one valuation every page uses."""
    return board_build(user=user).evaluation(str(offer.pk)).yearly


def test_csv_reads_back_with_pandas_and_matches_the_board(board_user):
    comparison = comparison_build(user=board_user["user"])
    frame = pd.read_csv(io.BytesIO(csv_bytes(comparison)))
    assert list(frame.columns) == [
        "option_key",
        "option",
        "year",
        "component",
        "basis",
        "currency",
        "in_home_currency",
        "amount",
        "component_label",
        "basis_label",
        "warnings",
    ]
    assert frame["amount"].dtype == float
    labels = frame.drop_duplicates(["component", "basis"]).set_index(["component", "basis"])
    assert labels.at[("sign_on", "gross"), "component_label"] == "Sign-on"
    assert labels.at[("total", "net"), "component_label"] == "After tax"
    assert labels.at[("total", "net"), "basis_label"] == "After tax"
    assert labels.at[("total", "gross"), "basis_label"] == "Gross (before tax)"
    assert not frame.duplicated(["option_key", "year", "component", "basis", "currency"]).any()
    assert set(frame["currency"]) == {"USD"}
    for offer in (board_user["sgd"], board_user["usd"]):
        expected = board_yearly(board_user["user"], offer)
        rows = frame[frame["option_key"] == offer.pk]
        for year in expected.index:
            at = rows[rows["year"] == year]
            net = at[(at["component"] == "total") & (at["basis"] == "net")]["amount"].item()
            assert net == pytest.approx(expected.at[year, "net"], rel=1e-12)
            for comp in ("base", "bonus", "sign_on", "relocation", "equity", "total", "tax"):
                value = at[(at["component"] == comp) & (at["basis"] == "gross")]["amount"].item()
                assert value == pytest.approx(expected.at[year, comp], rel=1e-12)
    # The SGD option in home currency: the components add up to the total, tax is 17 %.
    y1 = frame[(frame["option_key"] == board_user["sgd"].pk) & (frame["year"] == 1)]
    gross = y1[y1["basis"] == "gross"].set_index("component")["amount"]
    parts = gross[["base", "bonus", "sign_on", "relocation", "equity"]].sum()
    assert parts == pytest.approx(gross["total"], rel=1e-9)
    assert gross["tax"] == pytest.approx(0.17 * gross["total"], rel=1e-9)


def test_csv_keeps_exact_floats(board_user):
    comparison = comparison_build(user=board_user["user"])
    frame = pd.read_csv(io.BytesIO(csv_bytes(comparison)))
    assert frame["amount"].tolist() == [r["amount"] for r in comparison.yearly]


def test_xlsx_sheets_figures_and_layout(board_user):
    comparison = comparison_build(user=board_user["user"])
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    assert wb.sheetnames == [
        "Summary",
        "Ranking",
        "Year by year",
        "Assumptions",
        "Negotiation points",
        "Scenarios",
        "Interviews",
    ]
    summary = wb["Ranking"]
    assert summary.freeze_panes == "C5"
    assert len(summary._charts) == 1
    names = [summary.cell(row=r, column=2).value for r in range(5, 7)]
    assert "'" + EVIL in names and "Acme USD" in names
    yby = wb["Year by year"]
    assert yby.freeze_panes == "B2"
    assert yby.column_dimensions["A"].width >= 30
    header = [c.value for c in yby[1]]
    # Every column has its heading: the pay components in the registry's order, the total once
    # (bold), then the tax it pays.
    last = PAY_COMPONENTS[-1].label
    assert header[-3:] == [last, "Total", "Tax"] and None not in header
    assert yby.max_column == len(header)
    expected = board_yearly(board_user["user"], board_user["sgd"])
    found = 0
    by_basis: dict[tuple[str, int, str], dict[str, object]] = {}
    for row in yby.iter_rows(min_row=2):
        values = dict(zip(header, row, strict=False))
        by_basis[(values["Option"].value, values["Year"].value, values["Basis"].value)] = values
        if values["Option"].value == "'" + EVIL and values["Basis"].value == "Gross (before tax)":
            year = values["Year"].value
            assert values["Currency"].value == "USD"
            assert values["Total"].value == pytest.approx(expected.at[year, "total"], rel=1e-12)
            assert values["Currency"].value in values["Total"].number_format
            assert values["Stock"].value == pytest.approx(expected.at[year, "equity"], rel=1e-12)
            found += 1
    assert found == 4  # 4 years, home currency
    for (option, year, basis), values in by_basis.items():
        if basis == "Gross (before tax)":  # gross total less its tax is the after-tax total
            net = by_basis[(option, year, "After tax")]
            assert values["Total"].font.bold and net["Tax"].value is None
            assert values["Total"].value - values["Tax"].value == pytest.approx(
                net["Total"].value, rel=1e-9
            )
    assumptions = wb["Assumptions"]
    rows = [[c.value for c in r] for r in assumptions.iter_rows()]
    assert any(r[0] == "'" + EVIL and r[4] == pytest.approx(17.0) for r in rows)
    assert any(r[0] == "Vesting schedules" for r in rows)
    assert any(r[:3] == ["SGD", "USD", pytest.approx(0.74)] for r in rows)


def test_formulas_are_neutralised_but_numbers_stay_numbers(board_user):
    comparison = comparison_build(user=board_user["user"])
    # A negative figure must stay a number in both formats.
    comparison.yearly[0]["amount"] = -1234.5
    text = csv_bytes(comparison).decode("utf-8-sig")
    assert "'" + EVIL.replace('"', '""') in text
    assert ",-1234.5," in text
    frame = pd.read_csv(io.StringIO(text))
    assert frame["amount"].iloc[0] == -1234.5
    assert not any(str(v).startswith(("=", "+", "-", "@")) for v in frame["option"])
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    assert not cell.value.startswith(("=", "+", "-", "@", "\t", "\r")), cell.value
    yby = wb["Year by year"]
    assert yby["F2"].value == -1234.5 or any(c.value == -1234.5 for r in yby.iter_rows() for c in r)
    interviews = [[c.value for c in r] for r in wb["Interviews"].iter_rows()]
    assert any("'+ascii" in r for r in interviews)
    assert neutralise("\tx") == "'\tx" and neutralise("\rx") == "'\rx"
    assert neutralise(-5) == -5 and neutralise("Plain") == "Plain"


def test_json_validates_against_its_schema(board_user):
    comparison = comparison_build(user=board_user["user"])
    doc = json.loads(json_bytes(comparison))
    assert doc["schema_version"] == 2
    jsonschema.validate(doc, load_schema("comparison-v2.json"))
    bad = {**doc, "yearly": [{**doc["yearly"][0], "amount": "12"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, load_schema("comparison-v2.json"))


def test_html_report_file_is_self_contained(board_user):
    comparison = comparison_build(user=board_user["user"])
    html = html_bytes(comparison).decode("utf-8")
    assert '<div class="chart" data-chart="fig-report-yearly"' in html
    assert "@media print" in html  # the app's print styles, inlined
    assert "Acme USD" in html and "&quot;click&quot;" in html
    assert 'src="http' not in html and "<script src" not in html


def test_failed_option_is_listed_with_its_error(alice):
    PreferencesFactory(owner=alice, home_currency="JPY")
    OfferFactory(owner=alice, name="No FX")
    comparison = comparison_build(user=alice)
    assert comparison.options[0]["error"] and comparison.options[0]["rank"] is None
    assert comparison.yearly == []
    load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    jsonschema.validate(json.loads(json_bytes(comparison)), load_schema("comparison-v2.json"))


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json", "html"])
def test_command_writes_every_format(board_user, tmp_path, fmt):
    out = tmp_path / f"c.{fmt}"
    call_command("export_comparison", user="alice", format=fmt, output=str(out))
    assert out.stat().st_size > 100


def test_demo_data_exports_with_negotiation_points(django_user_model, tmp_path):
    from compensation.demo import seed_reference

    seed_reference()
    call_command("seed_demo", force=True)
    demo = django_user_model.objects.get(username="demo")
    comparison = comparison_build(user=demo)
    assert len(comparison.options) >= 5 and comparison.rounds
    doc = json.loads(json_bytes(comparison))
    jsonschema.validate(doc, load_schema("comparison-v2.json"))
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    assert wb["Negotiation points"].max_row >= 2
    assert dt.date.fromisoformat(doc["assumptions"][0]["start"])


def test_negotiation_rows_are_each_options_points(board_user):
    from offers.board import board_build
    from offers.negotiation import negotiation_for_offer

    user = board_user["user"]
    comparison = comparison_build(user=user)
    board = board_build(user=user)
    expected = []
    for _ranked, ev in board.ranked:
        for p in negotiation_for_offer(user=user, offer=ev.offer, board=board):
            expected.append(
                {
                    "option_key": ev.key,
                    "option": ev.offer.name,
                    "priority": p.priority,
                    "title": p.title,
                    "ask_amount": p.said_amount,
                    "ask_currency": p.said_in or "",
                    "ask_term": p.ask_term or "",
                    "trigger": p.trigger,
                    "evidence": p.evidence,
                    "rule": p.rule,
                    "figures": p.figures,
                }
            )
    assert expected and comparison.negotiation == expected


def test_failing_negotiation_points_leave_the_section_empty(board_user, monkeypatch):
    from offers.export import comparison as module

    def broken(**_kwargs):
        raise RuntimeError("rule crashed")

    monkeypatch.setattr(module, "negotiation_for_offer", broken)
    comparison = comparison_build(user=board_user["user"])
    assert comparison.negotiation == [] and len(comparison.options) == 2
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    assert wb["Negotiation points"]["A2"].value == "No negotiation points available."


@pytest.mark.parametrize(
    ("percentile", "expected"),
    [
        # Assumed: today's price grown at 5 % a year, 100 x 1.05^y.
        (0, [105.0, 110.25, 115.7625, 121.550625]),
        # P10 of the simulated price, 100 exp((ln 1.05 - 0.3^2/2) y + 0.3 sqrt(y) z10) with
        # z10 = -1.2815516: year 1 exp(0.0037902 - 0.3844655) = 0.683400 -> 68.34.
        (10, [68.3400, 58.5004, 51.9679, 47.0589]),
    ],
)
def test_projected_prices_follow_the_stock_price_basis(alice, percentile, expected):
    # Acme: USD 100, growth 5 %, volatility 30 % (the factory's); four window years.
    PreferencesFactory(
        owner=alice, home_currency="USD", horizon_years=4, risk_percentile=percentile
    )
    offer = OfferFactory(owner=alice, name="Acme")
    EquityGrantFactory(package=offer.package)
    comparison = comparison_build(user=alice)
    (row,) = comparison.assumptions
    assert row["projected_price_by_year"] == pytest.approx(expected, abs=1e-3)


def test_the_terms_table_is_the_one_list_of_the_terms(board_user):
    """The rows, the Assumptions sheet and the JSON schema follow `TERMS`, in its order."""
    keys = [t.key for t in TERMS]
    item = load_schema("comparison-v2.json")["properties"]["assumptions"]["items"]
    assert list(item["properties"]) == keys
    for t in TERMS:
        assert item["properties"][t.key]["type"] == t.unit.json_type, t.key
    comparison = comparison_build(user=board_user["user"])
    assert all(list(row) == keys for row in comparison.assumptions)
    sheet = load_workbook(io.BytesIO(xlsx_bytes(comparison)))["Assumptions"]
    shown = [t for t in TERMS if t.heading is not None]
    assert [c.value for c in sheet[1]] == [str(t.heading) for t in shown]
    for t, cell in zip(shown, sheet[1], strict=True):
        assert sheet.column_dimensions[cell.column_letter].width == t.width, t.key
    with translation.override("zh-hant"):
        assert all(CJK.search(str(t.heading)) for t in shown), "a heading is untranslated"
