"""The valuation basis: what every figure of a board means, and its words.

A window of whole years from the decision date (today on the user's own clock by default), the
home currency, gross or after tax, and the share price: the one the user assumed (today's grown
at the growth rate), or a percentile of its simulated outcomes (median, cautious P10,
optimistic P90). Stored as a short key (a negotiation entry's), read back in the reader's
language.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import zoneinfo
from collections.abc import Sequence
from decimal import Decimal

import numpy as np
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from compensation.engine import Stock
from compensation.engine.components import COMPONENTS
from compensation.engine.dates import add_months
from compensation.engine.projection import assumed_prices
from compensation.engine.segments import Segment
from compensation.engine.window import percentile_prices
from offers.models import Preferences


@dataclasses.dataclass(frozen=True)
class ValuationBasis:
    """What every figure of a board means: window, currency, tax and stock price."""

    start: dt.date
    years: int
    currency: str
    after_tax: bool
    # `Preferences.StockPrice`: the percentile of the simulated price, 0 for the assumed price.
    percentile: int
    # `Preferences.discount_rate_pct`: each window year's figures worth today (`present`).
    discount_pct: float = 0.0

    @property
    def column(self) -> str:
        """Return the yearly column holding the headline figures (``net`` or ``total``)."""
        return "net" if self.after_tax else "total"

    @property
    def end(self) -> dt.date:
        """Return the first day after the window."""
        return add_months(self.start, 12 * self.years)

    @property
    def assumed(self) -> bool:
        """Return whether stock is valued at the assumed price rather than a percentile."""
        return self.percentile == Preferences.StockPrice.ASSUMED

    def prices(self, stock: Stock) -> np.ndarray:
        """Return the month-end share price of each window month on this basis."""
        months = 12 * self.years
        if self.assumed:
            return assumed_prices(stock, months)
        return percentile_prices(stock, months, self.percentile)

    @property
    def year_factors(self) -> np.ndarray:
        """Return what a unit of each window year is worth today: 1 / (1 + rate)^(y - 1/2),
        the years from the decision date to the year's middle (its pay comes through it)."""
        years = np.arange(1, self.years + 1) - 0.5
        return np.asarray((1.0 + self.discount_pct / 100.0) ** -years)

    def present(self, yearly: np.ndarray) -> np.ndarray:
        """Return window-year figures (last axis: years) worth today (`year_factors`); at a
        0 % rate the figures themselves."""
        return np.asarray(yearly * self.year_factors) if self.discount_pct else yearly

    def segment_prices(self, segments: Sequence[Segment]) -> list[np.ndarray]:
        """Return the share-price path of each segment's stock on this basis."""
        return [self.prices(s.spec.stock) for s in segments]

    def prices_by_year(self, stock: Stock) -> list[float]:
        """Return the share price at the end of each window year on this basis."""
        return [float(p) for p in self.prices(stock)[11::12]]

    def stock_words(self) -> str:
        """Return how the stock is priced, in words."""
        if self.assumed:
            return _(
                "stock at the assumed share price (the current price grown at its growth rate)"
            )
        if self.percentile == 50:
            return _("stock at the median share price")
        if self.percentile < 50:
            return _("stock at a cautious share price (P%(p)s)") % {"p": self.percentile}
        return _("stock at an optimistic share price (P%(p)s)") % {"p": self.percentile}

    def tax_words(self) -> str:
        """Return 'after tax' or 'gross'."""
        return _("after tax") if self.after_tax else _("gross")

    # A basis as stored text (a negotiation entry's value_basis), read back at display time so
    # its words follow the reader's language: "v1;2026-12-01;4;USD;net;50" (";5" after it at
    # a 5 % discount rate).
    KEY_PREFIX = "v1"

    @property
    def key(self) -> str:
        """Return the basis as a short text to store, read back by ``from_key``."""
        tax = "net" if self.after_tax else "gross"
        parts = [self.start.isoformat(), str(self.years), self.currency, tax, str(self.percentile)]
        discount = [f"{self.discount_pct:g}"] if self.discount_pct else []
        return ";".join([self.KEY_PREFIX, *parts, *discount])

    @classmethod
    def from_key(cls, text: str) -> ValuationBasis | None:
        """Return the basis stored by ``key``, or None for any other text (an older entry's words)."""
        parts = text.split(";")
        if (
            len(parts) not in (6, 7)
            or parts[0] != cls.KEY_PREFIX
            or parts[4] not in ("net", "gross")
        ):
            return None
        try:
            return cls(
                start=dt.date.fromisoformat(parts[1]),
                years=int(parts[2]),
                currency=parts[3],
                after_tax=parts[4] == "net",
                percentile=int(parts[5]),
                discount_pct=float(parts[6]) if len(parts) == 7 else 0.0,
            )
        except ValueError:
            return None

    @staticmethod
    def day(value: dt.date) -> str:
        """Return a date as the basis writes it, e.g. '1 Dec 2026'."""
        return formats.date_format(value, "DATE_FORMAT")

    @property
    def label(self) -> str:
        """Return the basis in one line, e.g. '4-year value from 1 Dec 2026 · USD · after tax'."""
        return self._label(self.stock_words())

    @property
    def simulated_label(self) -> str:
        """Return the basis of simulated figures: the same window, currency and tax, the stock
        on each simulated share-price path instead of the basis's one price."""
        return self._label(_("stock on each simulated share-price path"))

    def _label(self, stock: str) -> str:
        window = _("%(n)s-year value from %(d)s") % {"n": self.years, "d": self.day(self.start)}
        words = [window, self.currency, self.tax_words(), stock]
        if self.discount_pct:
            rate = formats.number_format(Decimal(f"{self.discount_pct:g}"))
            words.append(_("worth today at %(rate)s %% a year") % {"rate": rate})
        return " · ".join(words)

    def columns(self, contributions: bool = False) -> tuple[str, ...]:
        """Return the yearly columns a table shows; after tax, with ``contributions`` (an
        option shown pays employee contributions, such as Singapore's CPF) a Contributions
        column after Tax, so that after tax = total - tax - contributions can be checked."""
        if not self.after_tax:
            return (*COMPONENTS, "total")
        levied = ("contributions",) if contributions else ()
        return (*COMPONENTS, "total", "tax", *levied, "net")

    @property
    def short(self) -> str:
        """Return the basis for a column header, e.g. 'USD, after tax'."""
        return pgettext("between clauses", ", ").join((self.currency, self.tax_words()))


def home_today(prefs: Preferences) -> dt.date:
    """Return today on the user's own clock: the day their pages call today.

    Pages run in the saved home time zone (offers.middleware), Celery workers and commands in
    the server's: without this a worker's export, or a board built outside a request, would
    value from another decision date for part of every day.
    """
    # Unsaved preferences: the pages run in the server's zone too.
    return home_date(prefs.home_timezone if prefs.pk is not None else "")


def home_date(zone: str) -> dt.date:
    """Return today in the saved home time zone ``zone`` ("" or unknown: the server's)."""
    if not zone:
        return timezone.localdate()
    try:
        return timezone.localdate(timezone=zoneinfo.ZoneInfo(zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.localdate()
