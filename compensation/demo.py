"""Illustrative reference data (companies, ladders, bands, FX, places) and the demo user's own."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from compensation.models import Band, Company, Equivalence, FxRate, Level, LocationPreset

ILLUSTRATIVE = "illustrative (public reports, approximate; verify against a real offer)"
BAND_AS_OF = dt.date(2026, 10, 1)
FX_AS_OF = dt.date(2026, 11, 1)
K = Decimal(1000)

# name: (ticker, currency, price, growth %, volatility %, liquidity %, private, preset, note)
COMPANIES: dict[str, tuple[str, str, str, str, str, str, bool, str, str]] = {
    "Google": ("GOOGL", "USD", "300", "8", "30", "0", False, "google_33_33_22_12", ""),
    "Meta": ("META", "USD", "600", "8", "35", "0", False, "meta_quarterly", ""),
    "TikTok": (
        "",
        "USD",
        "200",
        "8",
        "45",
        "30",
        True,
        "bytedance_20_25_25_30",
        "Private ByteDance stock: liquidity only through buybacks twice a year.",
    ),
    "Amazon": ("AMZN", "USD", "220", "8", "32", "0", False, "amazon_5_15_40_40", ""),
    "Apple": ("AAPL", "USD", "230", "7", "28", "0", False, "apple_semiannual", ""),
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

# company: [(code, title, stage)], lowest first.
LADDERS: dict[str, list[tuple[str, str, int]]] = {
    "Google": [
        ("L3", "Software Engineer II", Equivalence.ENTRY),
        ("L4", "Software Engineer III", Equivalence.MID),
        ("L5", "Senior Software Engineer", Equivalence.SENIOR),
        ("L6", "Staff Software Engineer", Equivalence.STAFF),
        ("L7", "Senior Staff Software Engineer", Equivalence.SENIOR_STAFF),
    ],
    "Meta": [
        ("E3", "Software Engineer", Equivalence.ENTRY),
        ("E4", "Software Engineer", Equivalence.MID),
        ("E5", "Senior Software Engineer", Equivalence.SENIOR),
        ("E6", "Staff Software Engineer", Equivalence.STAFF),
        ("E7", "Senior Staff Software Engineer", Equivalence.SENIOR_STAFF),
    ],
    "Amazon": [
        ("L4", "SDE I", Equivalence.ENTRY),
        ("L5", "SDE II", Equivalence.MID),
        ("L6", "SDE III", Equivalence.SENIOR),
        ("L7", "Principal SDE", Equivalence.STAFF),
        ("L8", "Senior Principal SDE", Equivalence.SENIOR_STAFF),
    ],
    "Apple": [
        ("ICT2", "Software Engineer", Equivalence.ENTRY),
        ("ICT3", "Software Engineer", Equivalence.MID),
        ("ICT4", "Senior Software Engineer", Equivalence.SENIOR),
        ("ICT5", "Staff Software Engineer", Equivalence.STAFF),
        ("ICT6", "Principal Software Engineer", Equivalence.SENIOR_STAFF),
    ],
    "TikTok": [
        ("1-2", "Software Engineer", Equivalence.ENTRY),
        ("2-1", "Software Engineer", Equivalence.MID),
        ("2-2", "Senior Software Engineer (a guess: roughly senior)", Equivalence.SENIOR),
        ("3-1", "Tech Lead (a guess: roughly staff)", Equivalence.STAFF),
        ("3-2", "Senior Tech Lead", Equivalence.SENIOR_STAFF),
    ],
    "Northwind AI": [
        ("E3", "ML Engineer", Equivalence.ENTRY),
        ("E4", "ML Engineer", Equivalence.MID),
        ("E5", "Senior ML Engineer", Equivalence.SENIOR),
        ("E6", "Staff ML Engineer", Equivalence.STAFF),
        ("E7", "Senior Staff ML Engineer", Equivalence.SENIOR_STAFF),
    ],
}

# (company, level, currency, location, base min/mid/max, stock min/mid/max in thousands, bonus %)
BANDS: list[tuple[str, str, str, str, tuple[int, int, int], tuple[int, int, int], str]] = [
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

# 1 currency = rate to_currency
FX_RATES: list[tuple[str, str, str]] = [
    ("USD", "TWD", "32.0"),
    ("SGD", "USD", "0.74"),
    ("CNY", "USD", "0.14"),
    ("SGD", "TWD", "23.68"),
    ("CNY", "TWD", "4.48"),
]

# name: (currency, effective tax %, cost-of-living index, time zone, tax rule: the engine's
# tables for the place, which a package there with no rule of its own is taxed by)
LOCATIONS: dict[str, tuple[str, str, str, str, str]] = {
    "Taipei": ("TWD", "20", "70", "Asia/Taipei", "tw"),
    "Singapore": ("SGD", "15", "115", "Asia/Singapore", "sg"),
    "Shanghai": ("CNY", "30", "80", "Asia/Shanghai", "cn-sh"),
    "San Francisco Bay Area": ("USD", "38", "180", "America/Los_Angeles", "us-ca"),
    "Seattle": ("USD", "30", "150", "America/Los_Angeles", "us-wa"),
    "Remote from Taipei": ("USD", "20", "70", "Asia/Taipei", "tw"),
}


@transaction.atomic
def seed_reference() -> dict[str, Any]:
    """Create or refresh the shared illustrative reference data; safe to run again."""
    companies: dict[str, Company] = {}
    for name, (ticker, cur, price, growth, vol, liq, private, preset, note) in COMPANIES.items():
        notes = f"{note} Figures {ILLUSTRATIVE}.".strip()
        companies[name], _ = Company.objects.update_or_create(
            owner=None,
            name=name,
            defaults={
                "ticker": ticker,
                "currency": cur,
                "share_price": Decimal(price),
                "growth_pct": Decimal(growth),
                "volatility_pct": Decimal(vol),
                "liquidity_discount_pct": Decimal(liq),
                "is_private": private,
                "vesting_preset": preset,
                "notes": notes,
            },
        )
    levels: dict[str, Level] = {}
    for name, ladder in LADDERS.items():
        for order, (code, title, stage) in enumerate(ladder, start=1):
            levels[f"{name} {code}"], _ = Level.objects.update_or_create(
                company=companies[name],
                code=code,
                defaults={"order": order, "title": title, "equivalence": int(stage)},
            )
    bands: dict[str, Band] = {}
    for name, code, cur, place, base, stock, bonus in BANDS:
        key = f"{name} {code} {cur}"
        bands[key], _ = Band.objects.update_or_create(
            owner=None,
            level=levels[f"{name} {code}"],
            currency=cur,
            location=place,
            source=ILLUSTRATIVE,
            defaults={
                "base_min": base[0] * K,
                "base_mid": base[1] * K,
                "base_max": base[2] * K,
                "stock_min": stock[0] * K,
                "stock_mid": stock[1] * K,
                "stock_max": stock[2] * K,
                "bonus_target_pct": Decimal(bonus),
                "as_of": BAND_AS_OF,
            },
        )
    for cur, to_cur, rate in FX_RATES:
        FxRate.objects.update_or_create(
            owner=None,
            currency=cur,
            to_currency=to_cur,
            as_of=FX_AS_OF,
            defaults={"rate": Decimal(rate)},
        )
    locations: dict[str, LocationPreset] = {}
    for name, (cur, tax, col, tz, regime) in LOCATIONS.items():
        locations[name], _ = LocationPreset.objects.update_or_create(
            owner=None,
            name=name,
            defaults={
                "currency": cur,
                "effective_tax_pct": Decimal(tax),
                "cost_of_living_index": Decimal(col),
                "time_zone": tz,
                "tax_regime": regime,
            },
        )
    return {"companies": companies, "levels": levels, "bands": bands, "locations": locations}


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
        defaults={
            "base_min": Decimal("200000"),
            "base_mid": Decimal("220000"),
            "base_max": Decimal("240000"),
            "stock_min": Decimal("90000"),
            "stock_mid": Decimal("120000"),
            "stock_max": Decimal("150000"),
            "bonus_target_pct": Decimal("15"),
            "as_of": dt.date(2026, 10, 20),
        },
    )
    return {
        "companies": ref["companies"],
        "levels": ref["levels"],
        "locations": ref["locations"],
        "recruiter_band": band,
    }
