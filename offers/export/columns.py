"""The exports' columns: what a value is (`Unit`) and the terms an option is valued with (`TERMS`).

A unit decides how the exports show a value (the XLSX width and number format, a model field's
JSON value, the report's alignment): package terms and scenario adjustments have one. `TERMS` is
the one list of the terms: the comparison's assumption rows, the XLSX Assumptions sheet and the
JSON schema (a test compares them) follow it, so adding a term to the exports is a row here and
its value in `offers.export.comparison`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from collections.abc import Callable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The XLSX number format of money: its currency's (`offers.export.xlsx.money_format`).
MONEY = "money"


def iso(value: dt.date | dt.datetime | None) -> str | None:
    """Return a date or a time as ISO 8601 text (None stays None)."""
    return value.isoformat() if value is not None else None


def _number(value: Any) -> float | None:
    return float(value) if value is not None else None


def _code(level: Any) -> str:
    return level.code if level else ""


def _as_is(value: Any) -> Any:
    return value


class Unit(enum.Enum):
    """What a value is: its XLSX width (characters; money as wide as "USD 1,235,864") and number
    format, whether it is a number, and a model field's value as the JSON document says it."""

    PAY = "pay", 14, MONEY, True, _number  # money in the offer's pay currency
    STOCK = "stock", 14, MONEY, True, _number  # money in the stock (a grant's price) currency
    PCT = "pct", 11, '0.0"%"', True, _number
    WEEKS = "weeks", 10, None, True, _as_is
    DATE = "date", 12, None, False, iso
    LEVEL = "level", 8, None, False, _code  # a level, by its code
    TEXT = "text", 10, None, False, _as_is
    COUNT = "count", 9, None, True, _as_is  # a whole number (years)
    RATE = "rate", 15, "0.0000", True, _as_is  # an exchange rate
    FACTOR = "factor", 9, "0.00", True, _as_is
    PRICE = "price", 12, "#,##0.00", True, _as_is  # a share price (its currency said apart)
    PRICES = "prices", 30, None, False, _as_is  # a share price a year: the XLSX says them in text

    def __init__(
        self, code: str, width: int, number_format: str | None, numeric: bool, to_json: Callable
    ) -> None:
        self.code, self.width, self.number_format = code, width, number_format
        self.numeric, self.to_json = numeric, to_json
        self.money = number_format == MONEY  # shown with its currency


@dataclasses.dataclass(frozen=True)
class Column:
    """One column of an export: the row's key, the heading (None: the JSON's only), the unit."""

    key: str
    heading: Promise | None
    unit: Unit
    width: int = 0  # the XLSX column's; 0: the unit's

    @property
    def xlsx_width(self) -> int:
        return self.width or self.unit.width


# The terms an option is valued with, in the order of the JSON rows and the XLSX columns.
TERMS: tuple[Column, ...] = (
    Column("option_key", None, Unit.TEXT),
    Column("option", _("Option"), Unit.TEXT, 34),
    Column("currency", _("Currency"), Unit.TEXT),
    Column("home_currency", _("Home currency"), Unit.TEXT),
    Column("fx_to_home", _("FX to home"), Unit.RATE),
    # The XLSX says the tax rule instead where a progressive table applies.
    Column("tax_rate_pct", _("Tax % (or tax rule)"), Unit.PCT, 9),
    Column("tax_rule", None, Unit.TEXT),
    Column("location", _("Location"), Unit.TEXT, 22),
    Column("start", _("Start"), Unit.DATE),
    Column("horizon_years", _("Horizon (years)"), Unit.COUNT),
    Column("base", _("Base"), Unit.PAY, 15),
    Column("raise_pct", _("Raise %"), Unit.PCT, 9),
    Column("bonus_target_pct", _("Bonus target %"), Unit.PCT, 9),
    Column("bonus_multiplier", _("Bonus multiplier"), Unit.FACTOR),
    Column("sign_on_total", _("Sign-on total"), Unit.PAY, 15),
    Column("relocation", _("Relocation"), Unit.PAY, 15),
    Column("ticker", _("Ticker"), Unit.TEXT, 9),
    Column("share_price", _("Share price"), Unit.PRICE),
    Column("stock_currency", _("Stock currency"), Unit.TEXT),
    # The XLSX leaves it blank without stock (the JSON says 0).
    Column("stock_fx_to_home", _("Stock FX to home"), Unit.RATE),
    Column("growth_pct", _("Growth %"), Unit.PCT, 9),
    Column("volatility_pct", _("Volatility %"), Unit.PCT, 9),
    Column("liquidity_discount_pct", _("Liquidity discount %"), Unit.PCT, 9),
    Column("projected_price_by_year", _("Projected price by year"), Unit.PRICES),
    Column("grant_value_total", _("Initial grants value"), Unit.PAY, 15),
)
