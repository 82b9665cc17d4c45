"""The pay components are one registry: nothing keeps a list of its own."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import numpy as np

from compensation.engine import components, segments
from compensation.engine.components import COMPONENTS, EQUITY_COMPONENTS, PAY_COMPONENTS
from compensation.engine.projection import YEARLY_COLUMNS
from compensation.engine.spec import PackageSpec, Stock
from compensation.engine.tax.tables import APPLIES_TO

ROOT = Path(__file__).resolve().parents[3]


def test_every_component_has_a_label_colour_and_a_tax_kind():
    assert len(set(COMPONENTS)) == len(COMPONENTS)
    for c in PAY_COMPONENTS:
        assert c.label and re.fullmatch(r"#[0-9a-f]{6}", c.colour)
        assert c.taxed_as in APPLIES_TO and c.taxed_as != "all"
    # Stock is taxed at vest; a component taxed like it (an ESPP's gain) joins it.
    assert "equity" in EQUITY_COMPONENTS


def test_the_engines_columns_start_with_the_registry():
    assert YEARLY_COLUMNS[: len(COMPONENTS)] == COMPONENTS


def test_the_json_schemas_components_are_the_registrys():
    schema = json.loads((ROOT / "offers/export/schema/comparison-v2.json").read_text())
    enums = []

    def walk(node):
        if isinstance(node, dict):
            if "component" in node and "enum" in node["component"]:
                enums.append(node["component"]["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    # An added value ("contributions") keeps version 2 readable by what read it before.
    assert enums == [[*COMPONENTS, "total", "tax", "contributions"]]


def test_no_module_lists_the_components_itself():
    """A tuple or dict naming two components outside the registry is a copy of it."""
    pattern = re.compile(r'"sign_on",\s*\n?\s*"relocation"|"relocation":\s*"#')
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("compensation", "offers")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
        and path.name != "components.py"
        and pattern.search(path.read_text())
    ]
    assert offenders == []


def test_only_what_vests_takes_a_private_stock_s_liquidity_discount(monkeypatch):
    # A gain taxed as stock but paid on its day (an ESPP's, sold at once) keeps its value: the
    # haircut is for shares one cannot sell. Stock 1,000 at a 20 % discount is 800.
    # "gain" registered as taxed like stock and paid on its day: equity, not vesting.
    monkeypatch.setattr(segments, "EQUITY_COMPONENTS", EQUITY_COMPONENTS | {"gain"})
    assert {"equity"} == components.VESTING_COMPONENTS
    spec = PackageSpec(
        name="Private", start=dt.date(2027, 1, 4), base=1.0,
        stock=Stock(price=10.0, liquidity_discount_pct=20.0),
    )  # fmt: skip
    values = {"equity": np.array([1000.0]), "gain": np.array([1000.0]), "base": np.array([5.0])}
    kept = segments.decision_values(spec, values)
    assert [float(kept[k][0]) for k in ("equity", "gain", "base")] == [800.0, 1000.0, 5.0]
