"""Facts shared by the negotiation and plan tests: one illustrative decision day and E5 band."""

from __future__ import annotations

from datetime import date

from offers.logic.rules.base import BandFacts

TODAY = date(2026, 1, 10)
# Illustrative band, not real data.
BAND = BandFacts(
    level_code="E5",
    base_mid=210_000,
    base_max=240_000,
    stock_mid=150_000,
    stock_max=200_000,
    next_level_code="E6",
    next_level_stock_mid=250_000,
    next_level_stock_max=320_000,
)
