"""Comparison exports (CSV, XLSX, JSON, HTML) and the backup and restore of a user's data."""

from __future__ import annotations

import re
from typing import Any

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
# More than this many options or interview rounds: the export runs as a background job.
LARGE_OPTIONS = 50
LARGE_ROUNDS = 5000
# More records than this in a backup: the restore runs as a background job.
LARGE_RECORDS = 5000
# A lone surrogate has no UTF-8 (a string read from SQLite or a JSON escape may carry one).
SURROGATE = re.compile("[\ud800-\udfff]")


def neutralise(value: Any) -> Any:
    """Return text that a spreadsheet would run as a formula with a leading quote; else as is."""
    # Spreadsheets skip leading spaces and line breaks: " =1+1" and "\n=1+1" run too.
    if isinstance(value, str) and (
        value.startswith(FORMULA_PREFIXES) or value.lstrip(" \t\r\n").startswith(FORMULA_PREFIXES)
    ):
        return "'" + value
    return value


def utf8(text: str) -> bytes:
    """Return text as UTF-8, each lone surrogate (which UTF-8 cannot hold) as U+FFFD."""
    return SURROGATE.sub("\ufffd", text).encode("utf-8")
