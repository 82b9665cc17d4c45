"""The export's schema files are what `make schemas` writes: derived, never kept by hand apart.

A term added to the exports' table reaches the comparison's schema by the command alone (typed
by its unit, optional in version 2), and a term taken out leaves it.
"""

from __future__ import annotations

import dataclasses
import json

from offers.export import columns
from offers.export.columns import Column, Unit
from tools.schemas import ENGINE_DOC, comparison_schema, engine_doc, schemas, text


def test_each_schema_file_is_what_make_schemas_writes():
    for path, schema in schemas().items():
        assert path.read_text(encoding="utf-8") == text(schema), (
            f"{path.name} is stale: run `make schemas`"
        )


def _comparison() -> dict:
    return json.loads(next(p for p in schemas() if p.name == "comparison-v2.json").read_text())


def test_a_new_term_reaches_the_schema_typed_by_its_unit_and_optional(monkeypatch):
    extra = (Column("bonus_guaranteed", None, Unit.DATE), Column("signed", None, Unit.PRICES))
    monkeypatch.setattr(columns, "TERMS", (*columns.TERMS, *extra))
    item = comparison_schema(_comparison())["properties"]["assumptions"]["items"]
    assert list(item["properties"])[-2:] == ["bonus_guaranteed", "signed"]
    assert item["properties"]["bonus_guaranteed"] == {"type": "string", "format": "date"}
    assert item["properties"]["signed"] == {"type": "array", "items": {"type": "number"}}
    assert not {"bonus_guaranteed", "signed"} & set(item["required"])


def test_a_term_taken_out_leaves_the_schema(monkeypatch):
    monkeypatch.setattr(columns, "TERMS", tuple(t for t in columns.TERMS if t.key != "relocation"))
    item = comparison_schema(_comparison())["properties"]["assumptions"]["items"]
    assert "relocation" not in item["properties"] and "relocation" not in item["required"]


def test_the_yearly_components_follow_the_pay_components(monkeypatch):
    from offers.export import comparison

    monkeypatch.setattr(comparison, "YEARLY_COMPONENTS", (*comparison.YEARLY_COMPONENTS, "espp"))
    schema = comparison_schema(_comparison())
    assert schema["properties"]["yearly"]["items"]["properties"]["component"]["enum"][-1] == "espp"


# A throw-away term, as a pay component's terms would be added to the engine's input.
@dataclasses.dataclass(frozen=True)
class Espp:
    contribution_pct: float
    discount_pct: float = 15.0


@dataclasses.dataclass(frozen=True, kw_only=True)
class PackageSpec:
    base: float
    espp: Espp | None = None
    stock: Espp = dataclasses.field(default_factory=lambda: Espp(contribution_pct=10.0))


def test_the_engine_page_is_what_make_schemas_writes():
    page = ENGINE_DOC.read_text(encoding="utf-8")
    assert page == engine_doc(page), "docs/engine.md is stale: run `make schemas`"
    assert page.count("<!-- make schemas: ") == 3


def test_a_new_term_and_component_reach_the_engine_page(monkeypatch):
    from compensation.engine import components, spec

    monkeypatch.setattr(spec, "PackageSpec", PackageSpec)
    espp = components.PayComponent("espp", "ESPP", "#000", "equity", "dated", "the discount")
    monkeypatch.setattr(components, "PAY_COMPONENTS", (*components.PAY_COMPONENTS, espp))
    page = engine_doc(ENGINE_DOC.read_text(encoding="utf-8"))
    assert "Espp(contribution_pct, discount_pct=15.0)\nPackageSpec(*, base, espp=None," in page
    assert "stock=Espp(contribution_pct=10.0))" in page  # a default shows what it sets
    assert "| `espp` | ESPP | equity | dated | the discount |" in page
