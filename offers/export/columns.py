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
ToJson = Callable[[Any], Any]


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
    """What a value is: its XLSX width (a scenario adjustment's column; a term gives its own)
    and number format, a model field's value in the JSON document, and its JSON schema type."""

    PAY = "pay", 14, MONEY, _number, "number"  # money in the offer's pay currency
    STOCK = "stock", 14, MONEY, _number, "number"  # in the stock (a grant's price) currency
    PCT = "pct", 11, '0.0"%"', _number, "number"
    WEEKS = "weeks", 10, None, _as_is, "integer"
    DATE = "date", 12, None, iso, "string"
    LEVEL = "level", 8, None, _code, "string"  # a level, by its code
    TEXT = "text", 10, None, _as_is, "string"
    COUNT = "count", 9, None, _as_is, "integer"  # a whole number (years)
    RATE = "rate", 15, "0.0000", _as_is, "number"  # an exchange rate
    FACTOR = "factor", 9, "0.00", _as_is, "number"
    PRICE = "price", 12, "#,##0.00", _as_is, "number"  # a share price (its currency apart)
    PRICES = "prices", 30, None, _as_is, "array"  # a price a year: XLSX text

    def __init__(
        self, code: str, width: int, number_format: str | None, to_json: ToJson, json_type: str
    ) -> None:
        self.code, self.width, self.number_format = code, width, number_format
        self.to_json, self.json_type = to_json, json_type
        self.money = number_format == MONEY  # shown with its currency
        self.numeric = json_type in ("number", "integer")  # the report aligns it as one


@dataclasses.dataclass(frozen=True)
class Column:
    """One column of an export: the row's key, the heading (None: the JSON's only), the unit."""

    key: str
    heading: Promise | None
    unit: Unit
    width: int = 0  # the XLSX column's, in characters


# The terms an option is valued with, in the order of the JSON rows and the XLSX columns.
TERMS: tuple[Column, ...] = (
    Column("option_key", None, Unit.TEXT),
    Column("option", _("Option"), Unit.TEXT, 34),
    Column("currency", _("Currency"), Unit.TEXT, 10),
    Column("home_currency", _("Home currency"), Unit.TEXT, 10),
    Column("fx_to_home", _("FX to home"), Unit.RATE, 15),
    # The XLSX says the tax rule instead where a progressive table applies.
    Column("tax_rate_pct", _("Tax % (or tax rule)"), Unit.PCT, 9),
    Column("tax_rule", None, Unit.TEXT),
    Column("location", _("Location"), Unit.TEXT, 22),
    Column("start", _("Start"), Unit.DATE, 12),
    Column("horizon_years", _("Horizon (years)"), Unit.COUNT, 9),
    Column("base", _("Base"), Unit.PAY, 15),
    Column("raise_pct", _("Raise %"), Unit.PCT, 9),
    Column("bonus_target_pct", _("Bonus target %"), Unit.PCT, 9),
    Column("bonus_multiplier", _("Bonus multiplier"), Unit.FACTOR, 9),
    Column("sign_on_total", _("Sign-on total"), Unit.PAY, 15),
    Column("relocation", _("Relocation"), Unit.PAY, 15),
    Column("ticker", _("Ticker"), Unit.TEXT, 9),
    Column("share_price", _("Share price"), Unit.PRICE, 12),
    Column("stock_currency", _("Stock currency"), Unit.TEXT, 10),
    # The XLSX leaves it blank without stock (the JSON says 0).
    Column("stock_fx_to_home", _("Stock FX to home"), Unit.RATE, 15),
    Column("growth_pct", _("Growth %"), Unit.PCT, 9),
    Column("volatility_pct", _("Volatility %"), Unit.PCT, 9),
    Column("liquidity_discount_pct", _("Liquidity discount %"), Unit.PCT, 9),
    Column("projected_price_by_year", _("Projected price by year"), Unit.PRICES, 30),
    Column("grant_value_total", _("Initial grants value"), Unit.PAY, 15),
)
