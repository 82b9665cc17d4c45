"""Exchange rates: the best rate of a pair (the user's own, then by date), direct or via USD."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.translation import gettext as _

from compensation.models import FxRate
from compensation.selectors.queries import fx_list

PIVOT_CURRENCY = "USD"


def _best_rate(
    rows: Iterable[FxRate], owner_id: Any, a: str, b: str, on: dt.date | None
) -> Decimal | None:
    """Return the best direct or inverse a->b rate among ``rows``, or None."""
    best: tuple[tuple[int, int, int, int], Decimal] | None = None
    for row in rows:
        if (row.currency, row.to_currency) == (a, b):
            rate, direct = row.rate, 1
        elif (row.currency, row.to_currency) == (b, a):
            rate, direct = Decimal(1) / row.rate, 0
        else:
            continue
        mine = 1 if row.owner_id is not None and row.owner_id == owner_id else 0
        if on is None or row.as_of <= on:
            when = (1, row.as_of.toordinal())  # the latest rate known on that day
        else:
            when = (0, -row.as_of.toordinal())  # else the earliest rate after it
        key = (mine, *when, direct)
        if best is None or key > best[0]:
            best = (key, rate)
    return None if best is None else best[1]


class FxTable:
    """Exchange rates already loaded: direct, inverse, or one step through USD."""

    def __init__(self, rows: Iterable[FxRate], owner_id: Any, on: dt.date | None = None) -> None:
        self.rows = list(rows)
        self.owner_id = owner_id
        self.on = on

    def decimal_rate(self, currency: str, to_currency: str) -> Decimal:
        """Return units of ``to_currency`` per ``currency``; LookupError naming the pair."""
        currency, to_currency = currency.upper(), to_currency.upper()
        if currency == to_currency:
            return Decimal(1)
        rate = _best_rate(self.rows, self.owner_id, currency, to_currency, self.on)
        if rate is not None:
            return rate
        if PIVOT_CURRENCY not in (currency, to_currency):
            first = _best_rate(self.rows, self.owner_id, currency, PIVOT_CURRENCY, self.on)
            second = _best_rate(self.rows, self.owner_id, PIVOT_CURRENCY, to_currency, self.on)
            if first is not None and second is not None:
                return first * second
        raise LookupError(
            _("No exchange rate from %(a)s to %(b)s: add one on the FX rates page.")
            % {"a": currency, "b": to_currency}
        )

    def rate(self, currency: str, to_currency: str) -> float:
        """Return units of ``to_currency`` per ``currency`` as a float for the engine."""
        return float(self.decimal_rate(currency, to_currency))


def fx_table(*, user: User, on: dt.date | None = None) -> FxTable:
    """Load every exchange rate the user can see, in one query."""
    return FxTable(fx_list(user=user), user.pk, on)


def fx_rate_for_owner(
    *, owner_id: Any, currency: str, to_currency: str, on: dt.date | None = None
) -> Decimal:
    """Return how many ``to_currency`` one ``currency`` buys for the user ``owner_id``: direct,
    inverse or via USD.

    The user's own rates win over shared ones; then the latest on or before ``on``.
    Raises LookupError naming the pair when no rate connects them.
    """
    if currency.upper() == to_currency.upper():
        return Decimal(1)
    wanted = {currency.upper(), to_currency.upper(), PIVOT_CURRENCY}
    rows = FxRate.objects.filter(
        Q(owner__isnull=True) | Q(owner_id=owner_id),
        currency__in=wanted,
        to_currency__in=wanted,
    )
    return FxTable(rows, owner_id, on).decimal_rate(currency, to_currency)
