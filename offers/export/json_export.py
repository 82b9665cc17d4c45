"""The comparison as a versioned JSON document (schema: offers/export/schema/comparison-v2.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from offers.export import utf8
from offers.export.comparison import Comparison

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


@lru_cache(maxsize=4)
def load_schema(name: str) -> dict[str, Any]:
    """Return one of the JSON Schemas shipped with the export package."""
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def json_bytes(comparison: Comparison) -> bytes:
    """Return the comparison as UTF-8 JSON."""
    return utf8(json.dumps(comparison.as_json(), ensure_ascii=False, indent=1, allow_nan=False))
