"""`make schemas`: the export's JSON Schema files, written from what they describe.

- `offers/export/schema/backup-v1.json`: the backup's schema, all of it derived from the models
  (`offers.export.backup.backup_schema`).
- `offers/export/schema/comparison-v2.json`: the comparison's schema, written by hand but for its
  registry-made parts, rebuilt here: the assumption rows' keys from the exports' `TERMS` (in its
  order; a key new to the file is typed by its unit and left out of `required`, so what version 2
  wrote before still validates) and the yearly rows' components from the pay components
  (`offers.export.comparison.YEARLY_COMPONENTS`).

- `docs/engine.md`: its parts marked `<!-- make schemas: ... -->`, from the engine itself: the
  inputs (`PackageSpec` and every dataclass its terms hold, with their defaults), the pay
  components (`components.PAY_COMPONENTS`: column, tax kind, timing and how each is valued) and
  the projection's columns. A term or a component added to the engine is documented by the
  command alone; the page's prose explains, it does not list.

`tests/offers/test_schemas.py` fails when a file differs from what this writes.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import re
import sys
import typing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "offers" / "export" / "schema"
ENGINE_DOC = ROOT / "docs" / "engine.md"
# A generated part of a page: from its opening marker to the closing one.
PART = re.compile(r"(<!-- make schemas: (\w+) -->\n).*?(<!-- /make schemas -->)", re.S)
# A unit's JSON Schema beyond its type: dates are ISO dates, a price a year is a list of numbers.
UNIT_EXTRAS: dict[str, dict[str, Any]] = {
    "date": {"format": "date"},
    "prices": {"items": {"type": "number"}},
}


def comparison_schema(current: dict[str, Any]) -> dict[str, Any]:
    """Return ``current`` (the comparison's schema) with its registry-made parts rebuilt."""
    from offers.export.columns import TERMS
    from offers.export.comparison import YEARLY_COMPONENTS

    schema = copy.deepcopy(current)
    props = schema["properties"]
    item = props["assumptions"]["items"]
    known = item["properties"]
    item["properties"] = {
        t.key: known.get(t.key) or {"type": t.unit.json_type, **UNIT_EXTRAS.get(t.unit.code, {})}
        for t in TERMS
    }
    item["required"] = [k for k in item["required"] if k in item["properties"]]
    props["yearly"]["items"]["properties"]["component"]["enum"] = list(YEARLY_COMPONENTS)
    return schema


def schemas() -> dict[Path, dict[str, Any]]:
    """Return each schema file's path and the schema it should hold."""
    from offers.export.backup import backup_schema

    comparison = SCHEMA_DIR / "comparison-v2.json"
    current = json.loads(comparison.read_text(encoding="utf-8"))
    return {
        SCHEMA_DIR / "backup-v1.json": backup_schema(),
        comparison: comparison_schema(current),
    }


def _dataclasses_in(hint: Any) -> list[type]:
    """Return the dataclasses a type hint names, at any depth (``tuple[SignOn, ...]``)."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return [hint]
    return [k for arg in typing.get_args(hint) for k in _dataclasses_in(arg)]


def _default(f: dataclasses.Field[Any]) -> Any:
    """Return a field's default (a factory's product), or MISSING when it has none."""
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def _value(value: Any) -> str:
    """Return a default as the page shows it: a dataclass by the fields it sets apart."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return repr(value)
    shown = [f"{f.name}={_value(getattr(value, f.name))}" for f in dataclasses.fields(value)
             if f.init and getattr(value, f.name) != _default(f)]  # fmt: skip
    return f"{type(value).__name__}({', '.join(shown)})"


def _signature(kind: type) -> str:
    """Return ``Kind(a, b=1, ...)`` as the engine's constructor takes it, wrapped at 92."""
    fields = [f for f in dataclasses.fields(kind) if f.init]
    parts = ["*"] if fields and all(f.kw_only for f in fields) else []
    for f in fields:
        default = _default(f)
        parts.append(f.name if default is dataclasses.MISSING else f"{f.name}={_value(default)}")
    head = f"{kind.__name__}("
    if not parts:
        return head + ")"
    lines = [""]
    for i, part in enumerate(parts):
        part += ")" if i == len(parts) - 1 else ","
        if lines[-1] and len(head) + len(lines[-1]) + 1 + len(part) > 92:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + part
    return head + ("\n" + " " * len(head)).join(lines)


def _inputs() -> str:
    """The engine's inputs: every dataclass `PackageSpec` holds, then `PackageSpec`."""
    from compensation.engine.spec import PackageSpec

    order: list[type] = []

    def visit(kind: type) -> None:
        for hint in typing.get_type_hints(kind).values():
            for inner in _dataclasses_in(hint):
                if inner not in order and inner is not kind:
                    visit(inner)
        if kind not in order:
            order.append(kind)

    visit(PackageSpec)
    return "```python\n" + "\n".join(_signature(k) for k in order) + "\n```\n"


def _components() -> str:
    """The pay components' table: one row per entry of the registry, in its order."""
    from compensation.engine.components import PAY_COMPONENTS

    rows = [
        f"| `{c.key}` | {c.label} | {c.taxed_as} | {c.paid} | {c.doc} |" for c in PAY_COMPONENTS
    ]
    head = "| Column | Label | Taxed as | Paid | Valued as |\n| --- | --- | --- | --- | --- |\n"
    return head + "\n".join(rows) + "\n"


def _columns() -> str:
    """The projection's columns, monthly and yearly, as the engine's frames hold them."""
    from compensation.engine.projection import MONTHLY_COLUMNS, YEARLY_COLUMNS

    monthly = ", ".join((*MONTHLY_COLUMNS, "grant_0", "grant_1", "..."))
    return (
        f"`project(spec, price_path=None)` gives monthly columns `{monthly}` indexed by month.\n"
        "`price_path` (length >= 12H, price at the end of months 1..12H) replaces the\n"
        "deterministic price.\n\n"
        f"`project_yearly(spec, price_path=None)` gives `{', '.join(YEARLY_COLUMNS)}` by year\n"
        "1..H (`tax` and `contributions` in the package currency).\n"
    )


def engine_doc(page: str) -> str:
    """Return docs/engine.md's text with each marked part rebuilt from the engine."""
    parts = {"inputs": _inputs, "components": _components, "columns": _columns}
    return PART.sub(lambda m: m[1] + parts[m[2]]() + m[3], page)


def text(schema: dict[str, Any]) -> str:
    """Return a schema as the files hold it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    import django

    django.setup()
    for path, schema in schemas().items():
        path.write_text(text(schema), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    ENGINE_DOC.write_text(engine_doc(ENGINE_DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {ENGINE_DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
