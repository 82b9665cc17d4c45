"""docs/valuation.md's worked example is the demo's board: rebuilt here, figure by figure.

The section "A worked example from the demo" states the board of the demo valued from a
decision date of 1 Dec 2026 on the default basis. These tests seed the demo on that day, build
the board (`offers.board.board_build`) and read the figures back out of the markdown: each line
of the year-1 table (its amount, and its working multiplied out on a calculator), the brackets
of the Taiwan tax year, every option's yearly headline and the figures in bold. A change to the
engine that moves a figure fails here until the docs say the new one.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from pathlib import Path

import pytest

from offers.board import board_build
from offers.ledger import ledger_view
from offers.models import Offer
from tests.offers.scenario_demo import seed_demo_user

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[1] / "docs" / "valuation.md"
TODAY = dt.date(2026, 12, 1)
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
# Who each segment of the internal transfer is, and the place each tax rule taxes, as the
# example's line labels name them.
SEGMENT_NAMES = {0: "the current job", 1: "Taipei"}
PLACES = {"us-ca": "US", "tw": "Taiwan"}


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## A worked example from the demo")
    return text[start : text.index("\n## ", start + 1)]


def tables(text: str) -> list[list[list[str]]]:
    """Return the markdown tables of ``text``: rows of stripped cells, without the rule."""
    out: list[list[list[str]]] = []
    current: list[list[str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= {"-", ":"} for c in cells):
                current.append(cells)
        elif current:
            out.append(current[1:])  # without the heading
            current = []
    if current:
        out.append(current[1:])
    return out


def number(text: str) -> float:
    """Return the first number of ``text`` (thousands separated by commas)."""
    found = NUMBER.search(text.replace("*", ""))
    assert found, text
    return float(found.group().replace(",", ""))


def product(working: str) -> float:
    """Return a working multiplied out: the first number of each "×" term (a % one over 100)."""
    value = 1.0
    for term in working.split("×"):
        term = term.split("(")[0]  # an aside in brackets is not a factor
        factor = number(term)
        value *= factor / 100.0 if "%" in term else factor
    return value


@pytest.fixture
def board(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a, **k: TODAY)
    user = seed_demo_user()
    board = board_build(user=user, today=TODAY, mc_paths=0)
    assert board.evaluations and not board.failed
    return board


def transfer(board):
    (ev,) = [e for e in board.evaluations if e.offer.kind == Offer.Kind.INTERNAL]
    return ev


def label(ev, line) -> str:
    """Return the example's label of a ledger line (lines with one label add up)."""
    if line.item == "base":
        where = SEGMENT_NAMES[line.segment]
        return f"Base at {where}" if line.segment == 0 else f"Base in {where}"
    if line.item in ("grant_vest", "refresher_vest"):
        return f"Vests on {line.day.day} {line.day:%b %Y}"
    if line.item == "tax":  # by the place taxing it: a kept grant's share earned before the move
        where = line.segment if line.place is None else line.place
        place = PLACES[ev.segments[where].spec.tax_regime]
        return f"Tax, {place} {line.tax_year}"
    if line.item == "contribution":
        return line.name.capitalize()
    raise AssertionError(f"the example has no line for {line.item}")


def test_each_year_one_line_is_the_ledger_s_and_its_working_multiplies_out(board):
    ev = transfer(board)
    view = ledger_view(ev)
    year = view.years[0]
    expected: dict[str, float] = {}
    for row in year.rows:
        key = label(ev, row.line)
        expected[key] = expected.get(key, 0.0) + row.line.amount
    expected["Year 1"] = year.subtotal
    rows = tables(section())[0]
    documented = {cells[0]: cells for cells in rows}
    assert set(documented) == set(expected)
    for key, cells in documented.items():
        amount = number(cells[-1])
        assert amount == pytest.approx(expected[key], abs=0.006), key
        if cells[1]:
            # A reader with a calculator gets the line back (to the rounding of the factors).
            assert abs(product(cells[1])) == pytest.approx(abs(amount), rel=2e-5, abs=0.01), key


def test_the_tax_year_s_brackets_are_the_working_s(board):
    ev = transfer(board)
    (working,) = [
        w
        for w in ledger_view(ev).tax_years
        if w.working.tax_year == 2027 and w.working.currency == "TWD"
    ]
    (part,) = working.parts
    slices = [s for s in part.brackets.slices if s.tax]
    rows = tables(section())[1]
    assert len(rows) == len(slices) + 1
    for cells, piece in zip(rows, slices, strict=False):
        assert number(cells[0]) / 100.0 == pytest.approx(piece.rate)
        low, high = (float(x.replace(",", "")) for x in NUMBER.findall(cells[1]))
        assert (low, high) == pytest.approx((piece.low, piece.high), abs=0.006)
        assert number(cells[2]) == pytest.approx(piece.tax, abs=0.006)
    assert number(rows[-1][-1]) == pytest.approx(part.tax, abs=0.006)
    text = section()
    w = working.working
    for figure in (w.cash, w.equity, w.cash + w.equity, part.brackets.taxable):
        assert f"{figure:,.2f}".removesuffix(".00") in text


def test_every_option_s_years_and_headline(board):
    rows = {cells[0]: cells[1:] for cells in tables(section())[2]}
    assert set(rows) == {ev.offer.name for ev in board.evaluations}
    for ev in board.evaluations:
        figures = [number(c) for c in rows[ev.offer.name]]
        assert figures == [round(v) for v in ev.values] + [round(ev.value)], ev.offer.name


def test_the_figures_in_bold_are_the_board_s(board):
    ev = transfer(board)
    meta = next(e for e in board.evaluations if e.offer.name.startswith("Meta"))
    ledger = ledger_view(meta)
    (joint,) = [w.working for w in ledger.tax_years if len(w.working.segments) > 1]
    expected = {
        f"{ev.component('total')[0]:,.2f}",  # year 1 before tax
        f"{ev.values[0]:,.2f}",  # year 1 after tax
        f"USD {round(ev.value):,}",  # the headline
        f"{transfer_tax(ev):,.2f}",  # the Taiwan tax year's tax
        f"{joint.cash + joint.equity:,.2f}",  # Meta's 2027, both jobs together
        f"{joint.tax:,.2f}",
    }
    # The figures in bold (the labels of the bullets are bold words).
    bold = {
        b for b in re.findall(r"\*\*([^*]+)\*\*", section()) if re.fullmatch(r"(USD )?[\d,.]+", b)
    }
    assert bold == expected
    # Each job's share of Meta's joint 2027 by window year, as the text gives it (7 decimals):
    # the current job's January and Meta's February to November in year 1, Meta's December
    # in year 2; together the whole year.
    text = section()
    shares: dict[tuple[int, int], float] = {}
    for line in ledger.ledger.lines:
        if line.item == "tax" and line.tax_year == joint.tax_year:
            shares[line.segment, line.year] = line.share
    assert sorted(shares) == [(0, 1), (1, 1), (1, 2)]
    for share in shares.values():
        assert f"{share:.7f}" in text
    assert math.isclose(sum(shares.values()), 1.0)


def transfer_tax(ev) -> float:
    (working,) = [
        w.working
        for w in ledger_view(ev).tax_years
        if w.working.tax_year == 2027 and w.working.currency == "TWD"
    ]
    return working.tax


def test_the_current_job_s_first_tax_year_is_the_board_s(board):
    ev = transfer(board)
    (working,) = [
        w.working
        for w in ledger_view(ev).tax_years
        if w.working.tax_year == 2026 and w.working.currency == "USD"
    ]
    text = section()
    # Its parts, its whole year's vests and income, as the bullet "Tax, US 2026" gives them.
    for part in working.parts:
        assert f"{part.tax:,.2f}" in text, part.name
    for figure in (working.tax, working.equity, working.cash + working.equity):
        assert f"{figure:,.2f}" in text


def test_the_demo_s_chances_are_the_board_s(monkeypatch):
    """The table of "The demo's decision": each option's chance of being the best choice,
    its simulated mean value and certainty equivalent, as the dashboard computes them."""
    from offers.choice import board_choice

    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a, **k: TODAY)
    user = seed_demo_user()
    choice = board_choice(board_build(user=user, today=TODAY))
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### The demo's decision")
    (table,) = tables(text[start : text.index("\n## ", start)])
    by_name = {o.name: o for o in choice.options}
    assert {row[0] for row in table} == set(by_name)
    for name, best, _offer, value, certainty, _stock in table:
        option = by_name[name]
        assert round(100 * option.chance.value) == number(best.split("%")[0]), name
        assert round(option.value.value) == number(value.split("±")[0]), name
        assert round(option.certainty.value) == number(certainty), name
