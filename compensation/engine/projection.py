"""Deterministic monthly and yearly cash-flow projection of a package."""

from __future__ import annotations

import calendar
import datetime
import math
from typing import Any

import numpy as np
import pandas as pd

from .components import COMPONENTS, DATED_COMPONENTS
from .dates import add_months
from .errors import EngineInputError, check_int
from .events import (
    ONE_DAY,
    cash_month,
    cash_payments,
    grant_tranches,
    refresher_grant_days,
    refresher_tranches,
    vest_month,
)
from .segments import liquidity_keep, package_segment
from .spec import Grant, PackageSpec, Refresher, Stock, monthly_base
from .vesting import describe_schedule, tranche_dates
from .window import window_yearly

MONTHLY_COLUMNS = ("base", *DATED_COMPONENTS, "equity_grants", "refreshers", "total")
YEARLY_COLUMNS = (
    *COMPONENTS,
    "total",
    "cumulative",
    "total_home",
    "cumulative_home",
    "tax",
    "contributions",
    "total_net",
    "total_net_home",
)


def fixed_components(spec: PackageSpec, months: int) -> dict[str, np.ndarray]:
    """Return the monthly base, bonus, sign-on and relocation cash of ``spec``.

    Each payment is in the month holding its day (`events.cash_month`).
    """
    out = {"base": monthly_base(spec, months)}
    for name in DATED_COMPONENTS:
        out[name] = np.zeros(months)
    until = add_months(spec.start, months) - ONE_DAY
    for payment in cash_payments(spec, until):
        m = cash_month(spec.start, payment.day)
        if 1 <= m <= months:
            out[payment.kind][m - 1] += payment.amount
    return out


def grant_shares(spec: PackageSpec, grant: Grant, months: int) -> np.ndarray:
    """Return the shares of ``grant`` vesting in each package month 1..months.

    A tranche is in the month holding its real vest day (`events.vest_month`); one vesting
    on the package start or before is already vested and not counted.
    """
    out = np.zeros(months)
    for day, shares in grant_tranches(spec, grant):
        m = vest_month(spec.start, day)
        if 1 <= m <= months:
            out[m - 1] += shares
    return out


def refresher_values(
    refresher: Refresher, months: int, start: datetime.date, since: datetime.date | None = None
) -> np.ndarray:
    """Return the (years, months) grant-price value of each yearly refresher grant vesting.

    Row g is the refresher granted on the package's g-th anniversary (``start`` + 12 g months);
    none before ``since`` (the spec's ``as_of``: `events.refresher_grant_days`).
    """
    years = math.ceil(months / 12)
    out = np.zeros((years, months))
    end = add_months(start, months)
    for g, granted in refresher_grant_days(start, refresher, end - ONE_DAY, since):
        if g >= years:
            break
        for day, value in refresher_tranches(refresher, granted):
            m = vest_month(start, day)
            if 1 <= m <= months:
                out[g, m - 1] += value
    return out


def assumed_prices(stock: Stock, months: int) -> np.ndarray:
    """Return the month-end share price the user assumed, months 1..months.

    Today's price grown at the stock's growth rate, ``P0 (1 + growth)^t`` with no volatility
    drag, so that shares x this price x the rate rebuilds a vest's value by hand (growth 0:
    the price stays at ``P0``). It is the simulated prices' mean, above their median
    (`window.percentile_prices`) when the stock is volatile.
    """
    months = check_int("months", months, minimum=0)
    t = np.arange(1, months + 1, dtype=np.float64) / 12.0
    return np.asarray(stock.price * (1.0 + stock.growth_pct / 100.0) ** t)


def _prices(spec: PackageSpec, price_path: np.ndarray | None) -> np.ndarray:
    if price_path is None:
        return assumed_prices(spec.stock, spec.months)
    path = np.asarray(price_path, dtype=np.float64)
    if path.ndim != 1 or path.shape[0] < spec.months:
        raise EngineInputError(
            "price_path", f"needs one price per month: {spec.months} (got shape {path.shape})"
        )
    if not np.all(np.isfinite(path[: spec.months])) or np.any(path[: spec.months] <= 0):
        raise EngineInputError("price_path", "prices must be positive and finite")
    return path[: spec.months]


def refresher_vest_value(
    values: np.ndarray, prices: np.ndarray, price0: float | np.ndarray
) -> np.ndarray:
    """Return refresher value at vest: grant-price value times price at vest over price at grant.

    ``values`` is (..., years, months) and ``prices`` (..., months); the grant
    price of year g is ``prices[12 g - 1]`` (``price0`` for g = 0).
    """
    years = values.shape[-2]
    at_grant = prices[..., 11 : 12 * years - 1 : 12]
    p0 = np.broadcast_to(np.asarray(price0, dtype=np.float64), prices.shape[:-1])[..., None]
    at_grant = np.concatenate([p0, at_grant], axis=-1)
    ratio = prices[..., None, :] / at_grant[..., :, None]
    return np.asarray((values * ratio).sum(axis=-2))


def _refresher_vests(spec: PackageSpec, months: int, prices: np.ndarray) -> np.ndarray:
    """Return the value at vest of the refresher tranches of each month (stock's currency)."""
    refreshers = np.zeros(months)
    for item in spec.refreshers:
        refreshers += refresher_vest_value(
            refresher_values(item, months, spec.start, spec.as_of), prices, spec.stock.price
        )
    return refreshers


def project(spec: PackageSpec, price_path: np.ndarray | None = None) -> pd.DataFrame:
    """Return monthly gross cash flows in package currency, indexed by month 1..12*horizon.

    ``price_path`` (one price per month) is in the stock's currency.
    """
    monthly = _monthly_arrays(spec, price_path)
    index = pd.RangeIndex(1, spec.months + 1, name="month")
    frame = pd.DataFrame({c: monthly[c] for c in MONTHLY_COLUMNS[:-1]}, index=index)
    frame["total"] = frame.sum(axis=1)
    for i in range(len(spec.grants)):
        frame[f"grant_{i}"] = monthly[f"grant_{i}"]
    return frame


def _monthly_arrays(spec: PackageSpec, price_path: np.ndarray | None) -> dict[str, np.ndarray]:
    """Return the monthly cash flows of ``spec`` as plain arrays (no DataFrame overhead), each
    grant's vests too (``grant_<i>``)."""
    months = spec.months
    prices = _prices(spec, price_path)
    keep = liquidity_keep(spec) * spec.stock.fx_to_package  # a vested unit, package currency
    out = fixed_components(spec, months)
    equity = np.zeros(months)
    for i, g in enumerate(spec.grants):
        vests = grant_shares(spec, g, months) * prices
        out[f"grant_{i}"] = vests * keep
        equity += vests
    out["equity_grants"] = equity * keep
    refreshers = _refresher_vests(spec, months, prices)
    out["refreshers"] = refreshers * keep
    return out


def project_yearly(spec: PackageSpec, price_path: np.ndarray | None = None) -> pd.DataFrame:
    """Return yearly totals (gross, home currency, tax, contributions and net), by year 1..horizon.

    The window's own valuation (`window.window_yearly`) of the package from its start, on the
    same share prices, so a projection and the board value a package alike (its tax: the
    months after the horizon set the rate, and those before the start too for the job held on
    it, ``spec.current_job``), in the package currency: the window's home figures over
    ``fx_to_home``. ``total_net`` is take-home: ``total - tax - contributions``.
    """
    window = window_yearly(
        [package_segment(spec)],
        window_start=spec.start,
        years=spec.horizon_years,
        prices=[_prices(spec, price_path)],
    )
    columns = {c: window[c] / spec.fx_to_home for c in (*COMPONENTS, "total", "tax")}
    columns["cumulative"] = np.cumsum(columns["total"])
    columns["total_home"] = window["total"]
    columns["cumulative_home"] = np.cumsum(window["total"])
    columns["contributions"] = window["contributions"] / spec.fx_to_home
    columns["total_net"] = window["net"] / spec.fx_to_home
    columns["total_net_home"] = window["net"]
    frame = pd.DataFrame(columns, index=pd.RangeIndex(1, spec.horizon_years + 1, name="year"))
    return frame[list(YEARLY_COLUMNS)]


def annualized(spec: PackageSpec, yearly: pd.DataFrame | None = None) -> dict[str, float]:
    """Return first-year and average yearly totals (averaged over the initial grants' vesting).

    ``yearly`` is ``project_yearly(spec)`` when the caller has it already.
    """
    yearly = project_yearly(spec) if yearly is None else yearly
    years = spec.horizon_years
    if spec.grants:
        years = min(years, max(g.schedule.years for g in spec.grants))
    head = yearly.iloc[:years]
    return {
        "first_year_total": float(yearly["total"].iloc[0]),
        "average_yearly_total": float(head["total"].mean()),
        "years_averaged": float(years),
        "first_year_total_home": float(yearly["total_home"].iloc[0]),
        "average_yearly_total_home": float(head["total_home"].mean()),
        "average_yearly_total_net_home": float(head["total_net_home"].mean()),
    }


def bonus_words(spec: PackageSpec) -> str:
    """Return when the bonus is paid, in words."""
    cycle = spec.bonus_cycle
    if cycle is None:
        return "once a year on the last day of each package year (months 12, 24, ...)"
    words = (
        f"for the bonus year starting on 1 {calendar.month_abbr[cycle.start_month]}, "
        f"paid on {cycle.payout_day} {calendar.month_abbr[cycle.payout_month]}"
    )
    if cycle.prorate_first_year:
        words += "; the first year pro-rated by days worked"
    if cycle.cutoff is not None:
        words += (
            f"; nothing for the first year if starting after "
            f"{cycle.cutoff[1]} {calendar.month_abbr[cycle.cutoff[0]]}"
        )
    words += (
        "; the share worked is paid after leaving"
        if cycle.paid_if_left
        else "; only if still employed on the payout day"
    )
    return words


def assumptions(spec: PackageSpec, yearly: pd.DataFrame | None = None) -> dict[str, Any]:
    """Return every assumption behind the figures, for display next to them.

    :func:`assumption_terms` and the equity the projection vests each year (``yearly`` is
    ``project_yearly(spec)`` when the caller has it already).
    """
    yearly = project_yearly(spec) if yearly is None else yearly
    equity_by_year = yearly["equity"].tolist()
    return {
        **assumption_terms(spec),
        "equity_by_year": equity_by_year,
        "equity_total": float(sum(equity_by_year)),
    }


NOTES = (
    "Figures are gross in package currency unless marked home or net.",
    "Equity is valued at the projected share price at each vest, less the "
    "liquidity discount; growth compounds yearly, applied monthly. It is taxed at "
    "its full value at vest: the discount lowers the value, not the tax.",
    "Net figures apply the package's tax regime per tax year (or one flat rate when it "
    "has none), equity taxed as income at vest.",
    "Home-currency figures use one fixed exchange rate.",
    "Share prices and grant prices are in the stock's currency; grant values "
    "and vest values are converted into the package currency at one fixed rate.",
    "Illustrative projection, not a forecast; check against the offer letter.",
)


def assumption_terms(spec: PackageSpec) -> dict[str, Any]:
    """Return the package's terms and assumptions as stated, without projecting anything."""
    stock = spec.stock
    grants = [_grant_terms(spec, i, grant) for i, grant in enumerate(spec.grants)]
    return {
        "name": spec.name,
        "currency": spec.currency,
        "start": spec.start.isoformat(),
        "horizon_years": spec.horizon_years,
        "base": spec.base,
        "raise_pct": spec.raise_pct,
        "bonus": {
            "target_pct": spec.bonus_target_pct,
            "multiplier": spec.bonus_multiplier,
            "paid": bonus_words(spec),
        },
        "sign_on": [
            {
                "amount": s.amount,
                "year": s.year,
                "clawback_months": s.clawback_months,
                "clawback_kind": s.clawback_kind,
                "instalments": [
                    {"paid": day.isoformat(), "amount": amount}
                    for day, amount in s.payments(spec.start)
                ],
            }
            for s in spec.sign_on
        ],
        "relocation": spec.relocation,
        "grants": grants,
        "refreshers": [
            {
                "yearly_value": r.yearly_value,
                "first_year": r.first_year,
                "schedule": describe_schedule(r.schedule),
                "granted_on": "each package anniversary from year "
                f"{r.first_year}, at the then-projected price",
            }
            for r in spec.refreshers
        ],
        "stock": {
            "price": stock.price,
            "currency": spec.stock_currency,
            "fx_to_package": stock.fx_to_package,
            "ticker": stock.ticker,
            "growth_pct": stock.growth_pct,
            "volatility_pct": stock.volatility_pct,
            "liquidity_discount_pct": stock.liquidity_discount_pct,
            "projected_price_by_year": [
                stock.price_at_month(12 * y) for y in range(1, spec.horizon_years + 1)
            ],
        },
        "grant_value_total": sum((g["value_at_grant"] for g in grants), 0.0),
        "fx_to_home": spec.fx_to_home,
        "tax_rate_pct": spec.tax_rate_pct,
        "tax_regime": spec.tax_regime,
        "tax": spec.tax_words,
        "notes": list(NOTES),
    }


def _grant_terms(spec: PackageSpec, i: int, grant: Grant) -> dict[str, Any]:
    """Return grant ``i``'s terms: its shares, price, value at grant and vesting."""
    stock = spec.stock
    shares = grant.share_count(stock.price)
    price = grant.grant_price if grant.grant_price is not None else stock.price
    in_stock_currency = grant.value if grant.value is not None else shares * price
    total = in_stock_currency * stock.fx_to_package
    vest_start = grant.vest_start or spec.start
    return {
        "label": f"grant_{i}",
        "shares": shares,
        "grant_price": price,
        "price_currency": spec.stock_currency,
        "value_at_grant_stock_currency": in_stock_currency,
        "value_at_grant": total,
        "value_per_year_at_grant": total / grant.schedule.years,
        "schedule": describe_schedule(grant.schedule),
        "vest_start": vest_start.isoformat(),
        "vest_end": tranche_dates(grant.schedule, vest_start)[-1][0].isoformat(),
    }
