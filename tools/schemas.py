"""`make schemas`: the export's JSON Schema files, written from what they describe.

- `offers/export/schema/backup-v1.json`: the backup's schema, all of it derived from the models
  (`offers.export.backup.backup_schema`).
- `offers/export/schema/comparison-v2.json`: the comparison's schema, written by hand but for its
  registry-made parts, rebuilt here: the assumption rows' keys from the exports' `TERMS` (in its
  order; a key new to the file is typed by its unit and left out of `required`, so what version 2
  wrote before still validates) and the yearly rows' components from the pay components
  (`offers.export.comparison.YEARLY_COMPONENTS`).

`tests/offers/test_schemas.py` fails when a file differs from what this writes.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "offers" / "export" / "schema"
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
