"""An internal transfer keeps every grant held on the move date: they go on vesting."""

from __future__ import annotations

import dataclasses
import datetime

import numpy as np

from .events import ONE_DAY, grant_vest_start, refresher_grant_days, vest_month
from .spec import Grant, PackageSpec


def held_grants(
    current: PackageSpec,
    move: datetime.date,
    *,
    window_start: datetime.date,
    prices: np.ndarray,
) -> tuple[Grant, ...]:
    """Return the current job's grants made before ``move``, in its stock's currency.

    Each grant as it is, with its vesting start; each refresher grant made before the move as
    a grant of its value at the share price on its grant day, as the window values one:
    ``prices[m - 1]`` for a grant in window month m (``prices`` is the current job's price
    path from ``window_start``), today's price for one made on or before the window start.
    """
    held = [
        dataclasses.replace(g, vest_start=grant_vest_start(current, g))
        for g in current.grants
        if grant_vest_start(current, g) < move
    ]
    for refresher in current.refreshers:
        for _, granted in refresher_grant_days(
            current.start, refresher, move - ONE_DAY, current.as_of
        ):
            m = vest_month(window_start, granted)
            price = current.stock.price if m <= 0 else float(prices[min(m, len(prices)) - 1])
            held.append(
                Grant(
                    value=refresher.yearly_value,
                    grant_price=price,
                    schedule=refresher.schedule,
                    vest_start=granted,
                )
            )
    return tuple(held)


def keep_held_grants(
    spec: PackageSpec,
    current: PackageSpec,
    move: datetime.date,
    *,
    window_start: datetime.date,
    prices: np.ndarray,
) -> PackageSpec:
    """Return ``spec`` (an internal transfer from ``move``) with the grants held on the move.

    The held grants' values and prices are converted from the current job's stock currency
    into the transfer's (through the home currency both specs convert into); the share
    counts do not change. A transfer whose own terms hold no stock takes the current job's.
    """
    held = held_grants(current, move, window_start=window_start, prices=prices)
    if not held:
        return spec
    if not spec.grants and not spec.refreshers:
        # The transfer's own terms hold no stock: the held grants vest at the current job's.
        to_package = current.stock.fx_to_package * current.fx_to_home / spec.fx_to_home
        stock_currency = current.stock_currency
        spec = dataclasses.replace(
            spec,
            stock=dataclasses.replace(
                current.stock,
                currency=None if stock_currency == spec.currency else stock_currency,
                fx_to_package=1.0 if stock_currency == spec.currency else to_package,
            ),
        )
    k = (current.stock.fx_to_package * current.fx_to_home) / (
        spec.stock.fx_to_package * spec.fx_to_home
    )
    if k != 1.0:
        held = tuple(
            dataclasses.replace(
                g,
                value=g.value * k if g.value is not None else None,
                grant_price=g.grant_price * k if g.grant_price is not None else None,
            )
            for g in held
        )
    return dataclasses.replace(spec, grants=(*spec.grants, *held))
