"""Calendar helpers: month arithmetic on ``datetime.date``."""

from __future__ import annotations

import calendar
import datetime
from functools import lru_cache


# Every event of every option is placed by month arithmetic on a few dates: remembered, the
# valuation of a board asks the calendar a few hundred times instead of tens of thousands.
@lru_cache(maxsize=65536)
def add_months(day: datetime.date, months: int) -> datetime.date:
    """Return ``day`` shifted by whole months, clamped to the end of shorter months."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return datetime.date(year, month + 1, min(day.day, last))


def whole_months_between(earlier: datetime.date, later: datetime.date) -> int:
    """Return the number of whole months from ``earlier`` to ``later`` (negative if reversed)."""
    months = (later.year - earlier.year) * 12 + (later.month - earlier.month)
    if months > 0 and add_months(earlier, months) > later:
        months -= 1
    elif months < 0 and add_months(earlier, months) < later:
        months += 1
    return months
