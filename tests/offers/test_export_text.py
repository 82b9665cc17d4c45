"""Any text in an option's name gives a valid export: XLSX parses, CSV and JSON read back.

XML 1.0 cannot hold C0 controls (but tab, LF, CR), lone surrogates, U+FFFE and U+FFFF: the
workbook drops them. UTF-8 cannot hold a lone surrogate: CSV and JSON write it as U+FFFD.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from offers.export import neutralise
from offers.export.comparison import Comparison, comparison_build
from offers.export.csv_export import COLUMNS, csv_bytes
from offers.export.json_export import json_bytes
from offers.export.xlsx import Book, Sheet, xlsx_bytes
from tests.factories import OfferFactory, PreferencesFactory

NAME = "Acme option"
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
SURROGATE = re.compile("[\ud800-\udfff]")
# Every code point, surrogates included, with the ones XML and UTF-8 cannot hold drawn often.
ANY_CHAR = st.one_of(
    st.integers(min_value=0, max_value=0x10FFFF).map(chr),
    st.sampled_from("\x00\x01\x08\x0b\x0c\x1f\t\n\r\ud800\udbff\udc00\udfff\ufffe\uffff=<&\"'"),
)
NAMES = st.text(ANY_CHAR, min_size=1, max_size=60)
PROPERTY = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def in_xml(text: str) -> str:
    """Return what a workbook cell holds of ``text``: neutralised, without what XML cannot hold."""
    return NOT_XML.sub("", neutralise(text))


def in_utf8(text: Any) -> Any:
    return SURROGATE.sub("\ufffd", text) if isinstance(text, str) else text


def renamed(value: Any, new: str) -> Any:
    """Return a copy of a comparison's lists and dicts with every NAME replaced by ``new``."""
    if isinstance(value, dict):
        return {k: renamed(v, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, new) for v in value]
    return new if value == NAME else value


@pytest.fixture
def comparison(db, alice) -> Comparison:
    PreferencesFactory(owner=alice, home_currency="USD", horizon_years=2)
    OfferFactory(owner=alice, name=NAME)
    OfferFactory(owner=alice, name="Other option")
    return comparison_build(user=alice)


def with_name(comparison: Comparison, name: str) -> Comparison:
    c = copy.copy(comparison)
    for field in ("options", "yearly", "assumptions", "vesting", "negotiation", "scenarios"):
        setattr(c, field, renamed(getattr(comparison, field), name))
    return c


@PROPERTY
@given(name=NAMES)
def test_xlsx_with_any_option_name_parses(comparison, name):
    book = load_workbook(io.BytesIO(xlsx_bytes(with_name(comparison, name))))
    cells = {c.value for ws in book.worksheets for row in ws.iter_rows() for c in row}
    assert in_xml(name) in cells or not in_xml(name)


@PROPERTY
@given(name=NAMES)
def test_csv_with_any_option_name_reads_back(comparison, name):
    text = csv_bytes(with_name(comparison, name)).decode("utf-8")  # valid UTF-8
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:], newline="")))
    assert tuple(rows[0][: len(COLUMNS)]) == COLUMNS
    option = COLUMNS.index("option")
    names = {row[option] for row in rows[1:]}
    assert names == {in_utf8(neutralise(name)), "Other option"}
    assert len(rows) == len(comparison.yearly) + 1


@PROPERTY
@given(name=NAMES)
def test_json_with_any_option_name_reads_back(comparison, name):
    doc = json.loads(json_bytes(with_name(comparison, name)).decode("utf-8"))
    assert {o["name"] for o in doc["options"]} == {in_utf8(name), "Other option"}


@settings(max_examples=300, deadline=None)
@given(st.text(ANY_CHAR, max_size=80))
def test_a_cell_holds_any_text_but_what_xml_cannot(text):
    book = Book()
    sheet = Sheet(book, "Names", [20], "A1")
    sheet.append([text, 1])
    buffer = io.BytesIO()
    book.save(buffer)
    cell = load_workbook(io.BytesIO(buffer.getvalue()))["Names"]["A1"].value
    assert (cell or "") == in_xml(text)  # an empty string cell reads as "" or None


@pytest.mark.parametrize("char", ["\ufffe", "\uffff", "\ud800", "\x00", "\x0b", "\x1f"])
def test_an_option_name_with_a_character_xml_cannot_hold(comparison, char):
    book = load_workbook(io.BytesIO(xlsx_bytes(with_name(comparison, f"Acme{char} AI"))))
    ranking = [c.value for row in book.worksheets[0].iter_rows() for c in row]
    assert "Acme AI" in ranking
