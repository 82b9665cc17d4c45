"""One valuation: every page and export of the demo shows each option's one headline value.

The board (offers.board) values each option once; the dashboard, the offer page, compare, the
negotiation page, the scenario page, the printable report, and the XLSX, CSV and JSON exports
must show that same headline and the same yearly figures, to the unit, and name the basis.
"""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser

import pandas as pd
import pytest
from django.urls import reverse
from openpyxl import load_workbook

from offers.board import board_build
from offers.models import Offer, Scenario

pytestmark = pytest.mark.django_db
NUMBER = re.compile(r"-?[\d,]+(?:\.\d+)?")


def amount(text: str) -> float:
    """Return the number in a displayed amount such as 'USD 1,234,567'."""
    match = NUMBER.search(text.replace("\u00a0", " "))
    assert match, text
    return float(match.group(0).replace(",", ""))


class Headlines(HTMLParser):
    """Collect (option key, text) of every [data-headline], the key from it or an ancestor."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str | None, bool]] = []
        self.found: list[tuple[str | None, str]] = []
        self.basis: list[str] = []
        self._text: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        key = a.get("data-option") or next((k for _t, k, _h in reversed(self.stack) if k), None)
        capture = "data-headline" in a or "data-basis" in a
        if tag in ("br", "input", "img", "meta", "link"):
            return
        self.stack.append((tag, key, capture))
        if capture:
            self._text.append(["headline" if "data-headline" in a else "basis"])

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            t, key, capture = self.stack.pop()
            if capture:
                parts = self._text.pop()
                text = " ".join("".join(parts[1:]).split())
                if parts[0] == "headline":
                    self.found.append((key, text))
                else:
                    self.basis.append(text)
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        for parts in self._text:
            parts.append(data)


def parse(content: bytes) -> Headlines:
    parser = Headlines()
    parser.feed(content.decode())
    return parser


@pytest.fixture
def demo(demo_user, client, reauth):
    user = demo_user
    client.force_login(user)
    reauth(client)  # the report and the exports ask for a recent password
    board = board_build(user=user)
    return {"user": user, "client": client, "board": board}


def expected_headlines(board) -> dict[str, int]:
    return {ev.key: round(ev.value) for _r, ev in board.ranked}


def check(found: list[tuple[str | None, str]], expected: dict[str, int], page: str) -> set[str]:
    seen = set()
    for key, text in found:
        assert key in expected, (page, key, text)
        assert round(amount(text)) == expected[key], (page, key, text, expected[key])
        seen.add(key)
    return seen


def test_every_page_shows_each_options_one_headline_value(demo):
    client, board = demo["client"], demo["board"]
    expected = expected_headlines(board)
    assert len(expected) >= 5
    label = board.basis.label
    assert "after tax" in label and "assumed share price" in label and "USD" in label

    dashboard = parse(client.get(reverse("offers:dashboard")).content)
    assert check(dashboard.found, expected, "dashboard") == set(expected)
    assert label in dashboard.basis

    for key in expected:
        page = parse(client.get(reverse("offers:offer_detail", args=[key])).content)
        assert check(page.found, expected, f"offer {key}") == {key}
        assert any(b.startswith(label) for b in page.basis)
        negotiation = parse(client.get(reverse("offers:negotiation", args=[key])).content)
        assert check(negotiation.found, expected, f"negotiation {key}") == {key}
        assert label in negotiation.basis

    keys = list(expected)
    compare = parse(
        client.get(reverse("offers:offer_compare"), {"a": keys[0], "b": keys[1]}).content
    )
    assert check(compare.found, expected, "compare") == {keys[0], keys[1]}

    report = parse(client.get(reverse("offers:export_report")).content)
    assert check(report.found, expected, "report") == set(expected)
    assert label in report.basis

    scenario = Scenario.objects.filter(owner=demo["user"]).first()
    assert scenario is not None
    page = parse(client.get(reverse("offers:scenario_detail", args=[scenario.pk])).content)
    others = check(page.found, expected, "scenario")
    assert others == set(expected)  # every option, the scenario's original included
    assert label in page.basis


def test_every_page_shows_the_same_yearly_figures(demo):
    client, board = demo["client"], demo["board"]
    levied = set()
    for _r, ev in board.ranked:
        html = client.get(reverse("offers:offer_detail", args=[ev.key])).content.decode()
        table = pd.read_html(io.StringIO(html), attrs={"class": "valuation"})[0]
        body = table.iloc[: len(ev.values)]
        # The headline column is the last shown, after Tax (and Contributions, when levied).
        shown = [amount(str(v)) for v in body.iloc[:, len(ev.shown_columns)]]
        assert [round(v) for v in shown] == [round(v) for v in ev.values], ev.offer.name
        running = [amount(str(v)) for v in body.iloc[:, -1]]
        assert round(running[-1]) == round(ev.value)
        if ev.has_contributions:
            # After tax = total - tax - contributions, each read off the page (to rounding).
            levied.add(ev.offer.name)
            column = {c: 1 + i for i, c in enumerate(ev.shown_columns)}
            for _i, row in body.iterrows():
                total, tax, paid, net = (
                    amount(str(row.iloc[column[c]]))
                    for c in ("total", "tax", "contributions", "net")
                )
                assert abs(total - tax - paid - net) <= 2, ev.offer.name
    # The demo's Taipei transfer pays Taiwan's labour and health insurance.
    assert "Internal transfer: Northwind Taipei" in levied


def test_every_export_shows_the_same_headline_and_yearly_figures(demo):
    client, board = demo["client"], demo["board"]
    expected = {ev.key: ev for _r, ev in board.ranked}
    names = {ev.offer.name: ev for ev in expected.values()}

    doc = json.loads(client.post(reverse("offers:export_start"), {"format": "json"}).content)
    assert doc["meta"]["basis_label"] == board.basis.label
    for option in doc["options"]:
        ev = expected[option["key"]]
        assert round(option["comp_value_home"]) == round(ev.value)
        assert round(option["first_year_home"]) == round(ev.first_year)
    column = "net" if board.basis.after_tax else "gross"
    for row in doc["yearly"]:
        if row["component"] == "total" and row["basis"] == column:
            ev = expected[row["option_key"]]
            assert round(row["amount"]) == round(ev.values[row["year"] - 1])

    csv = pd.read_csv(
        io.BytesIO(client.post(reverse("offers:export_start"), {"format": "csv"}).content)
    )
    totals = csv[(csv["component"] == "total") & (csv["basis"] == column)]
    for key, rows in totals.groupby("option_key"):
        ev = expected[str(key)]
        assert [round(v) for v in rows.sort_values("year")["amount"]] == [
            round(v) for v in ev.values
        ]

    wb = load_workbook(
        io.BytesIO(client.post(reverse("offers:export_start"), {"format": "xlsx"}).content)
    )
    summary = [[c.value for c in r] for r in wb["Summary"].iter_rows()]
    assert any(board.basis.label in str(r[0]) for r in summary if r and r[0])
    header = next(r for r in summary if r and r[0] == "Rank")
    value_col = next(i for i, h in enumerate(header) if h and "-year value" in str(h))
    checked = 0
    for r in summary:
        name = r[1] if len(r) > 1 else None
        if isinstance(name, str) and name in names and isinstance(r[value_col], float):
            assert round(r[value_col]) == round(names[name].value)
            checked += 1
    assert checked == len(expected)


def test_a_leaving_option_carries_the_current_job_until_it_starts(demo):
    board = demo["board"]
    leaving = [
        ev for _r, ev in board.ranked if ev.offer.kind != Offer.Kind.STAY and ev.offer.start_date
    ]
    assert leaving
    for ev in leaving:
        if ev.offer.start_date > board.basis.start:
            assert ev.bridge > 0, ev.offer.name
            assert len(ev.segments) == 2
    stay = next(ev for _r, ev in board.ranked if ev.offer.kind == Offer.Kind.STAY)
    assert stay.bridge == 0 and len(stay.segments) == 1
