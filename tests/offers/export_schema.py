"""The JSON Schemas of the export package, for the tests that validate documents against them."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "offers" / "export" / "schema"


@lru_cache(maxsize=4)
def load_schema(name: str) -> dict[str, Any]:
    """Return one of the JSON Schemas shipped with the export package."""
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
