"""The comparison as a versioned JSON document (schema: offers/export/schema/comparison-v2.json)."""

from __future__ import annotations

import json

from offers.export import utf8
from offers.export.comparison import Comparison


def json_bytes(comparison: Comparison) -> bytes:
    """Return the comparison as UTF-8 JSON."""
    return utf8(json.dumps(comparison.as_json(), ensure_ascii=False, indent=1, allow_nan=False))
