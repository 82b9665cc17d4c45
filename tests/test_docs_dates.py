"""The docs name the date range the code takes (accounts.dates), not an older one (issue 37)."""

from __future__ import annotations

import re
from pathlib import Path

from accounts.dates import DATE_MAX, DATE_MIN

ROOT = Path(__file__).resolve().parent.parent
# "outside 1970-2100", "outside 1970 to 2100", "outside 1900-01-01 to 2200-12-31"
RANGE = re.compile(r"outside (?:the years )?(\d{4})(?:-\d\d-\d\d)?(?:-| to )(\d{4})")


def test_every_date_range_the_docs_name_is_the_code_s():
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for low, high in RANGE.findall(path.read_text("utf-8")):
            found.append((path.name, int(low), int(high)))
    assert found, "the docs name no date range"
    assert all((low, high) == (DATE_MIN.year, DATE_MAX.year) for _, low, high in found), found
