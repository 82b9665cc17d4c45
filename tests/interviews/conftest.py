"""Fixtures of the interviews tests: shared companies with ladders, like compensation's demo."""

from __future__ import annotations

import pytest

from compensation.models import Company, Level
from offers.models import Preferences

LADDERS = {
    "Google": ["L3", "L4", "L5", "L6", "L7"],
    "Meta": ["E3", "E4", "E5", "E6", "E7"],
    "TikTok": ["1-2", "2-1", "2-2", "3-1", "3-2"],
    "Northwind AI": ["E3", "E4", "E5", "E6", "E7"],
}


@pytest.fixture
def reference(db):
    """Return {name: Company} of shared companies with their level ladders (created if missing)."""
    companies = {}
    for name, codes in LADDERS.items():
        company, _ = Company.objects.get_or_create(name=name, owner=None)
        for order, code in enumerate(codes, start=1):
            Level.objects.get_or_create(
                company=company, code=code, defaults={"order": order, "equivalence": order + 2}
            )
        companies[name] = company
    return companies


@pytest.fixture
def alice_taipei(alice):
    """Alice with Asia/Taipei as her home time zone."""
    Preferences.objects.update_or_create(owner=alice, defaults={"home_timezone": "Asia/Taipei"})
    return alice
