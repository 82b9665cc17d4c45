"""The shared reference data of a new install: places, companies with their ladders, FX rates.

`manage.py load_reference` loads it (README, "Production"); `seed_demo` loads it too, then adds
the demo's own shared part (compensation/demo.py). None of it belongs to a user (owner=None):
every account sees it and none can edit it; a user's own rows take precedence over it.

Loading again refreshes each row to the values below and creates nothing twice: its natural keys
(a company's name, a level's company and code, a place's name, an FX pair and day) are unique.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction

from compensation.models import Company, Equivalence, FxRate, Level, LocationPreset

ILLUSTRATIVE = "illustrative (public reports, approximate; verify against a real offer)"

# The FX rates' day and where they come from (FxRate has no column for a source: it is here,
# and load_reference prints it). A user adds their own, dated, rates; the latest one wins.
FX_AS_OF = dt.date(2026, 11, 1)
FX_SOURCE = "approximate mid-market rates, rounded; illustrative: add your own dated rates"

# name: (ticker, currency, price, growth %, volatility %, liquidity %, private, preset, note)
CompanyRow = tuple[str, str, str, str, str, str, bool, str, str]
COMPANIES: dict[str, CompanyRow] = {
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
}

# company: [(code, title, stage)], lowest first. The stage (Equivalence) is the cross-company
# mapping: Google L5, Meta E5, Amazon L6, Apple ICT4 and TikTok 2-2 are each "senior".
LadderRow = tuple[str, str, int]
LADDERS: dict[str, list[LadderRow]] = {
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
}

# 1 currency = rate to_currency, as of FX_AS_OF
FX_RATES: list[tuple[str, str, str]] = [
    ("USD", "TWD", "32.0"),
    ("SGD", "USD", "0.74"),
    ("CNY", "USD", "0.14"),
    ("SGD", "TWD", "23.68"),
    ("CNY", "TWD", "4.48"),
]

# name: (currency, effective tax %, time zone, tax rule: the engine's
# tables for the place, which a package there with no rule of its own is taxed by)
LOCATIONS: dict[str, tuple[str, str, str, str]] = {
    "Taipei": ("TWD", "20", "Asia/Taipei", "tw"),
    "Singapore": ("SGD", "15", "Asia/Singapore", "sg"),
    "Shanghai": ("CNY", "30", "Asia/Shanghai", "cn-sh"),
    "San Francisco Bay Area": ("USD", "38", "America/Los_Angeles", "us-ca"),
    "Seattle": ("USD", "30", "America/Los_Angeles", "us-wa"),
    "Remote from Taipei": ("USD", "20", "Asia/Taipei", "tw"),
}


def companies_load(
    companies: dict[str, CompanyRow], ladders: dict[str, list[LadderRow]]
) -> tuple[dict[str, Company], dict[str, Level]]:
    """Create or refresh shared companies and their ladders; levels by "Company CODE"."""
    loaded: dict[str, Company] = {}
    for name, (ticker, cur, price, growth, vol, liq, private, preset, note) in companies.items():
        loaded[name], _ = Company.objects.update_or_create(
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
                "notes": f"{note} Figures {ILLUSTRATIVE}.".strip(),
            },
        )
    levels: dict[str, Level] = {}
    for name, ladder in ladders.items():
        for order, (code, title, stage) in enumerate(ladder, start=1):
            levels[f"{name} {code}"], _ = Level.objects.update_or_create(
                company=loaded[name],
                code=code,
                defaults={"order": order, "title": title, "equivalence": int(stage)},
            )
    return loaded, levels


@transaction.atomic
def load_reference() -> dict[str, Any]:
    """Create or refresh the shared reference data; safe to run again. Creates no user.

    Returns ``companies`` (by name), ``levels`` (by "Company CODE"), ``locations`` (by name)
    and ``fx_rates`` (a list).
    """
    companies, levels = companies_load(COMPANIES, LADDERS)
    fx_rates = [
        FxRate.objects.update_or_create(
            owner=None,
            currency=cur,
            to_currency=to_cur,
            as_of=FX_AS_OF,
            defaults={"rate": Decimal(rate)},
        )[0]
        for cur, to_cur, rate in FX_RATES
    ]
    locations: dict[str, LocationPreset] = {}
    for name, (cur, tax, tz, regime) in LOCATIONS.items():
        locations[name], _ = LocationPreset.objects.update_or_create(
            owner=None,
            name=name,
            defaults={
                "currency": cur,
                "effective_tax_pct": Decimal(tax),
                "time_zone": tz,
                "tax_regime": regime,
            },
        )
    return {"companies": companies, "levels": levels, "locations": locations, "fx_rates": fx_rates}
