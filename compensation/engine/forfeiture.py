"""What leaving on a given date costs: unvested equity, unpaid bonus, sign-on clawback."""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pandas as pd

from .dates import add_months, whole_months_between
from .errors import check_date, check_number
from .events import (
    ONE_DAY,
    bonus_payments,
    grant_tranches,
    grant_vest_start,
    refresher_grant_days,
    refresher_tranches,
)
from .segments import liquidity_keep
from .spec import PackageSpec

DAYS_PER_MONTH = 365.25 / 12


def vest_events(spec: PackageSpec) -> pd.DataFrame:
    """Return every vest event (date, granted_on, shares, source) of grants and refreshers.

    Each tranche is on its real date (`vesting.tranche_dates`).
    """
    rows: list[tuple[datetime.date, datetime.date, float, str]] = []
    for i, grant in enumerate(spec.grants):
        vest_start = grant_vest_start(spec, grant)
        for day, shares in grant_tranches(spec, grant):
            rows.append((day, vest_start, shares, f"grant_{i}"))
    horizon_end = add_months(spec.start, spec.months) - ONE_DAY
    for i, refresher in enumerate(spec.refreshers):
        for g, granted in refresher_grant_days(spec.start, refresher, horizon_end, spec.as_of):
            price = spec.stock.price_at_month(whole_months_between(priced_on(spec), granted))
            for day, value in refresher_tranches(refresher, granted):
                rows.append((day, granted, value / price, f"refresher_{i}_year_{g + 1}"))
    frame = pd.DataFrame(rows, columns=["date", "granted_on", "shares", "source"])
    return frame.sort_values(["date", "source"], kind="stable").reset_index(drop=True)


def priced_on(spec: PackageSpec) -> datetime.date:
    """Return the day ``spec.stock.price`` is the price of: the start, or the decision date of
    a job held since before it (its price is today's, not the hire date's)."""
    return max(spec.start, spec.as_of or spec.start)


def projected_price_on(spec: PackageSpec, day: datetime.date) -> float:
    """Return the deterministic projected share price on ``day`` (stock's currency)."""
    return spec.stock.price_at_month((day - priced_on(spec)).days / DAYS_PER_MONTH)


def unvested_schedule(
    spec: PackageSpec, after: datetime.date, price: float | None = None
) -> pd.DataFrame:
    """Return shares granted by ``after`` still to vest after it, by vest date, with their value.

    Value is shares x ``price`` (in the stock's currency; default: projected price on
    ``after``) less the liquidity discount, converted into the package currency.
    """
    check_date("after", after)
    if price is None:
        price = projected_price_on(spec, after)
    price = check_number("price", price, minimum=0.0)
    events = vest_events(spec)
    mask = (events["granted_on"] <= after) & (events["date"] > after)
    pending = events.loc[mask].groupby("date", sort=True)["shares"].sum()
    keep = liquidity_keep(spec) * spec.stock.fx_to_package
    return pd.DataFrame(
        {
            "date": list(pending.index),
            "shares": pending.to_numpy(dtype=np.float64),
            "value": pending.to_numpy(dtype=np.float64) * price * keep,
        }
    )


def next_vest_date(spec: PackageSpec, after: datetime.date) -> datetime.date | None:
    """Return the first vest date strictly after ``after``, or None if nothing is left."""
    check_date("after", after)
    events = vest_events(spec)
    later = events.loc[events["date"] > after, "date"]
    return None if later.empty else later.iloc[0]


def sign_on_clawback(spec: PackageSpec, leave_date: datetime.date) -> float:
    """Return the sign-on repaid when ``leave_date`` is the first day no longer employed.

    Each instalment paid before ``leave_date`` is clawed back if you leave within its
    ``clawback_months``: pro-rated by the whole months not served, or in full.
    """
    clawback = 0.0
    for item in spec.sign_on:
        if item.clawback_months == 0:
            continue
        for paid, amount in item.payments(spec.start):
            if paid >= leave_date:
                continue  # not paid: you no longer work there
            served = whole_months_between(paid, leave_date)
            if served >= item.clawback_months:
                continue
            share = 1.0 if item.clawback_kind == "full" else 1 - served / item.clawback_months
            clawback += amount * share
    return clawback


def bonus_unpaid(spec: PackageSpec, leave_date: datetime.date) -> float:
    """Return the bonus earned before ``leave_date`` but lost because it is paid on or after it.

    A bonus whose cycle pays the share worked after leaving (``paid_if_left``) is not lost.
    """
    lost = 0.0
    horizon = add_months(max(spec.start, leave_date), 12 * 2)
    for payment in bonus_payments(spec, horizon):
        if payment.day >= leave_date and not payment.paid_if_left:
            lost += payment.amount * payment.earned_share_before(leave_date)
    return lost


def forfeited_on_leave(
    spec: PackageSpec, leave_date: datetime.date, price: float | None = None
) -> dict[str, Any]:
    """Return what leaving forfeits or repays, in package currency.

    ``leave_date`` is the first day you no longer work there (the new job's start): a
    tranche vesting that day or later is forfeited, as is a bonus paid that day or later;
    sign-on instalments paid before it may be clawed back. ``price`` (default: the
    projected price then) is in the stock's currency.
    """
    check_date("leave_date", leave_date)
    if price is None:
        price = projected_price_on(spec, leave_date)
    price = check_number("price", price, minimum=0.0)
    pending = unvested_schedule(spec, leave_date - ONE_DAY, price)
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
    bonus = bonus_unpaid(spec, leave_date)
    clawback = sign_on_clawback(spec, leave_date)
    unvested_value = float(pending["value"].sum())
    total = unvested_value + bonus + clawback
    return {
        "leave_date": leave_date.isoformat(),
        "price": price,
        "price_currency": spec.stock_currency,
        "unvested_shares": float(pending["shares"].sum()),
        "unvested_value": unvested_value,
        "unvested_by_year": unvested_by_year,
        "bonus_unpaid": bonus,
        "sign_on_clawback": clawback,
        "total": total,
        "total_home": total * spec.fx_to_home,
        "currency": spec.currency,
    }
