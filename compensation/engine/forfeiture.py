"""What leaving on a given date costs: unvested equity, unpaid bonus, sign-on clawback."""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pandas as pd

from .dates import add_months, package_month, whole_months_between
from .errors import EngineInputError, check_number
from .spec import PackageSpec
from .vesting import vesting_fractions

DAYS_PER_MONTH = 365.25 / 12


def vest_events(spec: PackageSpec) -> pd.DataFrame:
    """Return every vest event (date, granted_on, shares, source) of grants and refreshers."""
    rows: list[tuple[datetime.date, datetime.date, float, str]] = []
    for i, grant in enumerate(spec.grants):
        vest_start = grant.vest_start or spec.start
        shares = grant.share_count(spec.stock.price)
        fractions = vesting_fractions(grant.schedule)
        for n in np.flatnonzero(fractions) + 1:
            rows.append(
                (
                    add_months(vest_start, int(n)),
                    vest_start,
                    shares * fractions[n - 1],
                    f"grant_{i}",
                )
            )
    for i, refresher in enumerate(spec.refreshers):
        fractions = vesting_fractions(refresher.schedule)
        for year in range(refresher.first_year, spec.horizon_years + 1):
            granted = add_months(spec.start, 12 * (year - 1))
            shares = refresher.yearly_value / spec.stock.price_at_month(12 * (year - 1))
            for n in np.flatnonzero(fractions) + 1:
                rows.append(
                    (
                        add_months(granted, int(n)),
                        granted,
                        shares * fractions[n - 1],
                        f"refresher_{i}_year_{year}",
                    )
                )
    frame = pd.DataFrame(rows, columns=["date", "granted_on", "shares", "source"])
    return frame.sort_values(["date", "source"], kind="stable").reset_index(drop=True)


def _check_day(field: str, value: object) -> datetime.date:
    if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
        raise EngineInputError(field, f"must be a date (got {value!r})")
    return value


def projected_price_on(spec: PackageSpec, day: datetime.date) -> float:
    """Return the deterministic projected share price on ``day`` (stock's currency)."""
    return spec.stock.price_at_month((day - spec.start).days / DAYS_PER_MONTH)


def unvested_schedule(
    spec: PackageSpec, after: datetime.date, price: float | None = None
) -> pd.DataFrame:
    """Return shares granted by ``after`` still to vest after it, by vest date, with their value.

    Value is shares x ``price`` (in the stock's currency; default: projected price on
    ``after``) less the liquidity discount, converted into the package currency.
    """
    _check_day("after", after)
    if price is None:
        price = projected_price_on(spec, after)
    price = check_number("price", price, minimum=0.0)
    events = vest_events(spec)
    mask = (events["granted_on"] <= after) & (events["date"] > after)
    pending = events.loc[mask].groupby("date", sort=True)["shares"].sum()
    keep = (1.0 - spec.stock.liquidity_discount_pct / 100.0) * spec.stock.fx_to_package
    return pd.DataFrame(
        {
            "date": list(pending.index),
            "shares": pending.to_numpy(dtype=np.float64),
            "value": pending.to_numpy(dtype=np.float64) * price * keep,
        }
    )


def next_vest_date(spec: PackageSpec, after: datetime.date) -> datetime.date | None:
    """Return the first vest date strictly after ``after``, or None if nothing is left."""
    _check_day("after", after)
    events = vest_events(spec)
    later = events.loc[events["date"] > after, "date"]
    return None if later.empty else later.iloc[0]


def forfeited_on_leave(
    spec: PackageSpec, leave_date: datetime.date, price: float | None = None
) -> dict[str, Any]:
    """Return what leaving on ``leave_date`` forfeits or repays, in package currency.

    ``price`` (default: the projected price then) is in the stock's currency.
    """
    _check_day("leave_date", leave_date)
    if price is None:
        price = projected_price_on(spec, leave_date)
    price = check_number("price", price, minimum=0.0)
    pending = unvested_schedule(spec, leave_date, price)
    calendar_year = pd.Series([d.year for d in pending["date"]], dtype="int64")
    by_year = pending[["shares", "value"]].groupby(calendar_year.to_numpy()).sum()
    unvested_by_year = [
        {"year": int(year), "shares": float(shares), "value": float(value)}
        for year, shares, value in zip(
            by_year.index.to_numpy(),
            by_year["shares"].to_numpy(),
            by_year["value"].to_numpy(),
            strict=True,
        )
    ]

    bonus_unpaid = 0.0
    month = package_month(spec.start, leave_date)
    if month >= 1:
        year = (month - 1) // 12 + 1
        year_start = add_months(spec.start, 12 * (year - 1))
        year_end = add_months(spec.start, 12 * year)
        if leave_date < year_end:
            served = (leave_date - year_start).days / (year_end - year_start).days
            base = spec.base * (1.0 + spec.raise_pct / 100.0) ** (year - 1)
            bonus = base * spec.bonus_target_pct / 100.0 * spec.bonus_multiplier
            bonus_unpaid = bonus * served

    clawback = 0.0
    for item in spec.sign_on:
        paid = add_months(spec.start, 12 * (item.year - 1))
        if paid > leave_date or item.clawback_months == 0:
            continue
        served_months = whole_months_between(paid, leave_date)
        if served_months < item.clawback_months:
            unserved = item.clawback_months - served_months
            clawback += item.amount * unserved / item.clawback_months

    unvested_value = float(pending["value"].sum())
    total = unvested_value + bonus_unpaid + clawback
    return {
        "leave_date": leave_date.isoformat(),
        "price": price,
        "price_currency": spec.stock_currency,
        "unvested_shares": float(pending["shares"].sum()),
        "unvested_value": unvested_value,
        "unvested_by_year": unvested_by_year,
        "bonus_unpaid": bonus_unpaid,
        "sign_on_clawback": clawback,
        "total": total,
        "total_home": total * spec.fx_to_home,
        "currency": spec.currency,
    }
