"""The demo's data: its shared part (what load_reference loads, plus a fictional employer and
illustrative pay bands) and the demo user's own."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from compensation.models import Band, Equivalence
from compensation.reference import (
    ILLUSTRATIVE,
    CompanyRow,
    LadderRow,
    companies_load,
    load_reference,
)

BAND_AS_OF = dt.date(2026, 10, 1)
K = Decimal(1000)

# The demo user's current employer, fictional: shared only where the demo is seeded.
COMPANIES: dict[str, CompanyRow] = {
    "Northwind AI": (
        "NWND",
        "USD",
        "180",
        "8",
        "30",
        "0",
        False,
        "even_4y_quarterly",
        "The current employer: a big-tech-like public company.",
    ),
}
LADDERS: dict[str, list[LadderRow]] = {
    "Northwind AI": [
        ("E3", "ML Engineer", Equivalence.ENTRY),
        ("E4", "ML Engineer", Equivalence.MID),
        ("E5", "Senior ML Engineer", Equivalence.SENIOR),
        ("E6", "Staff ML Engineer", Equivalence.STAFF),
        ("E7", "Senior Staff ML Engineer", Equivalence.SENIOR_STAFF),
    ],
}

# (company, level, currency, location, base min/mid/max, stock min/mid/max in thousands, bonus %)
Thousands = tuple[int, int, int]
BANDS: list[tuple[str, str, str, str, Thousands, Thousands, str]] = [
    ("Google", "L5", "USD", "", (185, 208, 232), (90, 120, 160), "15"),
    ("Google", "L6", "USD", "", (232, 260, 290), (170, 230, 300), "20"),
    ("Meta", "E5", "USD", "", (196, 218, 240), (80, 115, 150), "15"),
    ("Meta", "E6", "USD", "", (240, 265, 290), (180, 240, 300), "20"),
    ("Amazon", "L6", "USD", "", (170, 195, 220), (100, 140, 180), "0"),
    ("Amazon", "L7", "USD", "", (200, 225, 250), (200, 275, 350), "0"),
    ("Apple", "ICT4", "USD", "", (180, 205, 230), (70, 100, 130), "10"),
    ("Apple", "ICT5", "USD", "", (230, 260, 290), (140, 200, 260), "15"),
    ("TikTok", "2-2", "USD", "", (180, 205, 230), (60, 90, 120), "25"),
    ("TikTok", "3-1", "USD", "", (220, 250, 280), (120, 170, 220), "25"),
    ("TikTok", "2-2", "SGD", "Singapore", (180, 215, 250), (60, 90, 120), "25"),
    ("TikTok", "3-1", "SGD", "Singapore", (240, 280, 320), (120, 170, 220), "25"),
    ("Northwind AI", "E5", "USD", "", (175, 195, 215), (60, 85, 110), "15"),
    ("Northwind AI", "E6", "USD", "", (215, 238, 260), (120, 160, 200), "20"),
]


def _band_figures(base: Thousands, stock: Thousands, bonus: str, as_of: dt.date) -> dict[str, Any]:
    """Return a band's base and stock min, mid and max, its bonus target % and its date."""
    return {
        **{f"base_{k}": v * K for k, v in zip(("min", "mid", "max"), base, strict=True)},
        **{f"stock_{k}": v * K for k, v in zip(("min", "mid", "max"), stock, strict=True)},
        "bonus_target_pct": Decimal(bonus),
        "as_of": as_of,
    }


@transaction.atomic
def seed_reference() -> dict[str, Any]:
    """Load the reference data, then the demo's shared part (Northwind AI, bands); idempotent."""
    ref = load_reference()
    companies, levels = companies_load(COMPANIES, LADDERS)
    ref["companies"].update(companies)
    ref["levels"].update(levels)
    bands: dict[str, Band] = {}
    for name, code, cur, place, base, stock, bonus in BANDS:
        key = f"{name} {code} {cur}"
        bands[key], _ = Band.objects.update_or_create(
            owner=None,
            level=ref["levels"][f"{name} {code}"],
            currency=cur,
            location=place,
            source=ILLUSTRATIVE,
            defaults=_band_figures(base, stock, bonus, BAND_AS_OF),
        )
    return {**ref, "bands": bands}


@transaction.atomic
def seed_user(user: AbstractBaseUser) -> dict[str, Any]:
    """Create the user's private compensation data; return the named objects of the story.

    Returns ``companies`` (by name), ``levels`` (by "Company CODE"), ``locations`` (by name)
    and ``recruiter_band`` (the user's own Meta E5 band).
    """
    ref = seed_reference()
    band, _ = Band.objects.update_or_create(
        owner=user,
        level=ref["levels"]["Meta E5"],
        currency="USD",
        location="",
        source="Meta recruiter call (illustrative): recruiter said top of band is 240k",
        defaults=_band_figures((200, 220, 240), (90, 120, 150), "15", dt.date(2026, 10, 20)),
    )
    return {
        "companies": ref["companies"],
        "levels": ref["levels"],
        "locations": ref["locations"],
        "recruiter_band": band,
    }
