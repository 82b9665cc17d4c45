"""Input dataclasses describing an offer package."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .currencies import check_currency
from .dates import add_months, whole_months_between
from .errors import EngineInputError, check_date, check_int, check_kind, check_number
from .tax.tables import regime_get, tax_year_of
from .vesting import VestingSchedule, check_calendar_dates

MAX_HORIZON_YEARS = 10


def _check_field(
    obj: object, name: str, check: Callable[..., Any] = check_number, **limits: Any
) -> None:
    """Check the field ``name`` of frozen ``obj`` with ``check`` and keep what it returns."""
    object.__setattr__(obj, name, check(name, getattr(obj, name), **limits))


CLAWBACK_KINDS = ("prorated", "full")
FRACTION_TOLERANCE = 1e-6


def check_instalments(field: str, value: Any) -> tuple[tuple[int, float], ...]:
    """Return ``(months after the year's start, fraction)`` pairs in date order, or raise.

    Fractions are of the sign-on's amount, each above 0, summing to 1.
    """
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise EngineInputError(field, f"must be a list of (months, fraction) pairs (got {value!r})")
    pairs: list[tuple[int, float]] = []
    for i, item in enumerate(value):
        if isinstance(item, str | bytes) or not hasattr(item, "__iter__") or len(item) != 2:
            raise EngineInputError(
                f"{field}[{i}]", f"must be a (months, fraction) pair (got {item!r})"
            )
        months = check_int(f"{field}[{i}].months", item[0], minimum=0, maximum=120)
        fraction = check_number(
            f"{field}[{i}].fraction", item[1], minimum=0.0, exclusive_minimum=True, maximum=1.0
        )
        pairs.append((months, fraction))
    if not pairs:
        raise EngineInputError(field, "needs at least one instalment")
    if len({m for m, _ in pairs}) != len(pairs):
        raise EngineInputError(field, "lists the same month twice")
    total = sum(f for _, f in pairs)
    if abs(total - 1.0) > FRACTION_TOLERANCE:
        raise EngineInputError(field, f"fractions must sum to 1 (got {total:g})")
    return tuple(sorted(pairs))


@dataclass(frozen=True)
class SignOn:
    """A cash sign-on bonus of package year ``year``, paid at once or in instalments.

    ``instalments`` are ``(months, fraction)`` pairs: that fraction of ``amount`` is paid
    ``months`` after the first day of package year ``year`` (default: all of it on that day).
    Each instalment is clawed back if you leave within ``clawback_months`` of its payment:
    ``clawback_kind="prorated"`` repays it times the whole months not served over
    ``clawback_months``, ``"full"`` all of it.
    """

    amount: float
    year: int = 1
    clawback_months: int = 12
    instalments: tuple[tuple[int, float], ...] = ((0, 1.0),)
    clawback_kind: str = "prorated"

    def __post_init__(self) -> None:
        _check_field(self, "amount", minimum=0.0)
        _check_field(self, "year", check_int, minimum=1)
        _check_field(self, "clawback_months", check_int, minimum=0)
        _check_field(self, "instalments", check_instalments)
        if self.clawback_kind not in CLAWBACK_KINDS:
            raise EngineInputError(
                "clawback_kind", f"must be 'prorated' or 'full' (got {self.clawback_kind!r})"
            )

    def payments(self, start: datetime.date) -> list[tuple[datetime.date, float]]:
        """Return each instalment's payment date and amount for a package starting on ``start``."""
        return [
            (add_months(start, 12 * (self.year - 1) + months), self.amount * fraction)
            for months, fraction in self.instalments
        ]


@dataclass(frozen=True, kw_only=True)
class Grant:
    """An equity grant given as a value or a share count.

    ``value`` and ``grant_price`` are in the stock's currency (``Stock.currency``). A
    ``value`` becomes shares at ``grant_price`` (or at the stock price today when
    ``grant_price`` is None). ``vest_start`` None means the package start.
    """

    value: float | None = None
    shares: float | None = None
    grant_price: float | None = None
    schedule: VestingSchedule = field(default_factory=VestingSchedule)
    vest_start: datetime.date | None = None

    def __post_init__(self) -> None:
        if (self.value is None) == (self.shares is None):
            raise EngineInputError("value", "give exactly one of value or shares")
        for name in ("value", "shares"):
            if getattr(self, name) is not None:
                _check_field(self, name, minimum=0.0)
        if self.grant_price is not None:
            _check_field(self, "grant_price", minimum=0.0, exclusive_minimum=True)
        check_kind("schedule", self.schedule, VestingSchedule)
        if self.vest_start is not None:
            check_date("vest_start", self.vest_start)

    def share_count(self, stock_price: float) -> float:
        """Return the number of shares, converting a dollar value at the grant price."""
        if self.shares is not None:
            return self.shares
        assert self.value is not None
        price = self.grant_price if self.grant_price is not None else stock_price
        return self.value / price


@dataclass(frozen=True)
class Refresher:
    """A yearly refresher: a new grant of ``yearly_value`` each year from ``first_year`` on.

    ``yearly_value`` is in the stock's currency, like a grant's value.
    """

    yearly_value: float
    schedule: VestingSchedule = field(default_factory=VestingSchedule)
    first_year: int = 2

    def __post_init__(self) -> None:
        _check_field(self, "yearly_value", minimum=0.0)
        check_kind("schedule", self.schedule, VestingSchedule)
        _check_field(self, "first_year", check_int, minimum=1)


@dataclass(frozen=True)
class Stock:
    """The share price today and its assumed annual growth, volatility and liquidity haircut.

    ``price`` is in ``currency`` (None: the package's currency); grant values, grant prices
    and refresher values are in that currency too. ``fx_to_package`` is how many units of the
    package currency one unit of ``currency`` buys: vest values are converted into the
    package currency at that rate (1 when the currencies agree).
    """

    price: float
    growth_pct: float = 0.0
    volatility_pct: float = 0.0
    liquidity_discount_pct: float = 0.0
    ticker: str | None = None
    currency: str | None = None
    fx_to_package: float = 1.0

    def __post_init__(self) -> None:
        if self.currency is not None:
            check_currency("currency", self.currency)
        _check_field(self, "fx_to_package", minimum=0.0, exclusive_minimum=True)
        _check_field(self, "price", minimum=0.0, exclusive_minimum=True)
        _check_field(self, "growth_pct", minimum=-100.0, exclusive_minimum=True, maximum=1000.0)
        _check_field(self, "volatility_pct", minimum=0.0, maximum=500.0)
        _check_field(self, "liquidity_discount_pct", minimum=0.0, maximum=100.0)
        if self.ticker is not None and (not isinstance(self.ticker, str) or not self.ticker):
            raise EngineInputError("ticker", f"must be a non-empty string (got {self.ticker!r})")

    def price_at_month(self, month: float) -> float:
        """Return the deterministic projected price ``month`` months after package start."""
        return float(self.price * (1.0 + self.growth_pct / 100.0) ** (month / 12.0))


@dataclass(frozen=True)
class BonusCycle:
    """When the yearly bonus is earned and paid, if not on each package anniversary.

    The bonus year starts on the 1st of ``start_month`` (1: the calendar year; 7: a July to
    June fiscal year) and its bonus is paid on ``payout_day`` of ``payout_month``, the first
    such day on or after the 1st of the bonus year's last month (calendar year, payout in
    March: 15 Mar of the next year). The first bonus year of a mid-year start pays the
    share of it you work (by days) if ``prorate_first_year``, else all of it; a start after
    ``cutoff`` (``(month, day)`` in the first bonus year) pays nothing for that year.
    The bonus is paid only if you still work there on its payout day, unless
    ``paid_if_left``: then leaving pays the share of each bonus year you worked.
    """

    start_month: int = 1
    payout_month: int = 3
    payout_day: int = 15
    prorate_first_year: bool = True
    cutoff: tuple[int, int] | None = None
    paid_if_left: bool = False

    def __post_init__(self) -> None:
        _check_field(self, "start_month", check_int, minimum=1, maximum=12)
        _check_field(self, "payout_month", check_int, minimum=1, maximum=12)
        (pair,) = check_calendar_dates("payout", ((self.payout_month, self.payout_day),))
        object.__setattr__(self, "payout_day", pair[1])
        if self.cutoff is not None:
            (cut,) = check_calendar_dates("cutoff", (self.cutoff,))
            object.__setattr__(self, "cutoff", cut)
        for name in ("prorate_first_year", "paid_if_left"):
            if not isinstance(getattr(self, name), bool):
                raise EngineInputError(name, f"must be true or false (got {getattr(self, name)!r})")


@dataclass(frozen=True, kw_only=True)
class PackageSpec:
    """One offer (or the current job) over a projection horizon of whole years."""

    name: str
    start: datetime.date
    horizon_years: int = 4
    currency: str = "USD"
    base: float
    raise_pct: float = 0.0
    bonus_target_pct: float = 0.0
    bonus_multiplier: float = 1.0
    bonus_cycle: BonusCycle | None = None
    sign_on: tuple[SignOn, ...] = ()
    grants: tuple[Grant, ...] = ()
    refreshers: tuple[Refresher, ...] = ()
    stock: Stock = field(default_factory=lambda: Stock(price=1.0))
    relocation: float = 0.0
    fx_to_home: float = 1.0
    tax_rate_pct: float = 0.0
    tax_regime: str | None = None
    fx_to_tax: float | None = None
    # No tax rule and no rate was given: ``tax_rate_pct`` (0) is a placeholder, not the place's
    # rate. The engine taxes nothing; its caller flags every after-tax figure as "tax unknown".
    tax_unknown: bool = False
    # The job held on ``start`` (the decision date): a projection taxes the first tax year's
    # months before ``start`` at its pay too, as the board does for the current job
    # (`segments.Segment.current`); a new job says nothing of what was earned before it.
    current_job: bool = False
    # The day the terms are stated on: the decision date (None: the start). A package started
    # before it is a job held on it: ``base`` is its base on that day, raised on each
    # anniversary of ``start`` after it only (the raises of the years already past are in
    # it), and its refreshers are modelled from that day on: the ones granted before are
    # grants of their own, each with its date and price (`raises_held`, `events`).
    as_of: datetime.date | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise EngineInputError("name", f"must be a string (got {self.name!r})")
        if not isinstance(self.current_job, bool):
            raise EngineInputError(
                "current_job", f"must be true or false (got {self.current_job!r})"
            )
        check_date("start", self.start)
        if self.as_of is not None:
            check_date("as_of", self.as_of)
        _check_field(self, "horizon_years", check_int, minimum=1, maximum=MAX_HORIZON_YEARS)
        check_currency("currency", self.currency)
        _check_field(self, "base", minimum=0.0)
        _check_field(self, "raise_pct", minimum=-100.0, exclusive_minimum=True)
        for name in ("bonus_target_pct", "bonus_multiplier", "relocation"):
            _check_field(self, name, minimum=0.0)
        _check_field(self, "fx_to_home", minimum=0.0, exclusive_minimum=True)
        _check_field(self, "tax_rate_pct", minimum=0.0, maximum=100.0)
        if self.tax_regime is not None:
            self._check_tax_regime()
        if self.fx_to_tax is not None:
            _check_field(self, "fx_to_tax", minimum=0.0, exclusive_minimum=True)
        self._check_parts()

    def _check_tax_regime(self) -> None:
        """Raise unless ``tax_regime`` is a known regime and ``fx_to_tax`` fits its currency."""
        if not isinstance(self.tax_regime, str):
            raise EngineInputError(
                "tax_regime", f"must be a tax regime key or None (got {self.tax_regime!r})"
            )
        regime = regime_get(self.tax_regime)
        if regime.currency == self.currency and self.fx_to_tax not in (None, 1.0):
            raise EngineInputError(
                "fx_to_tax",
                f"must be 1 when the tax is in the package currency (got {self.fx_to_tax!r})",
            )
        # Taxing USD pay as if it were SGD is a silent error: the rate must be given.
        if regime.currency != self.currency and self.fx_to_tax is None:
            raise EngineInputError(
                "fx_to_tax",
                f"is required: the {regime.key} tax is in {regime.currency} and the package "
                f"in {self.currency}; give how many {regime.currency} one {self.currency} buys",
            )

    def _check_parts(self) -> None:
        """Raise unless the sign-ons, grants, refreshers, bonus cycle and stock are of their
        kinds (keeping the sequences as tuples) and the stock's rate fits its currency."""
        for name, kind in (("sign_on", SignOn), ("grants", Grant), ("refreshers", Refresher)):
            items = tuple(getattr(self, name))
            for i, item in enumerate(items):
                check_kind(f"{name}[{i}]", item, kind)
            object.__setattr__(self, name, items)
        if self.bonus_cycle is not None:
            check_kind("bonus_cycle", self.bonus_cycle, BonusCycle)
        check_kind("stock", self.stock, Stock)
        if self.stock.currency in (None, self.currency) and self.stock.fx_to_package != 1.0:
            raise EngineInputError(
                "stock.fx_to_package",
                "must be 1 when the stock is priced in the package currency "
                f"(got {self.stock.fx_to_package!r})",
            )

    @property
    def stock_currency(self) -> str:
        """Return the currency of the share price, grant values and refresher values."""
        return self.stock.currency or self.currency

    @property
    def to_tax_currency(self) -> float:
        """Return how many units of the tax regime's currency one unit of the package currency
        buys (``fx_to_tax``; 1 when it is left out, which it may be only when they agree)."""
        return 1.0 if self.fx_to_tax is None else self.fx_to_tax

    @property
    def tax_words(self) -> str:
        """Return the tax rule in words: the regime and the tables taxing the projected years
        (`TaxRegime.label_for`), or the flat rate as a fallback."""
        if self.tax_regime is not None:
            regime = regime_get(self.tax_regime)
            return regime.label_for(*self.tax_years)
        if self.tax_unknown:
            return "tax unknown (no tax rule or rate: counted as 0%)"
        return f"flat {self.tax_rate_pct:g}% (no tax table for this place)"

    @property
    def tax_years(self) -> tuple[int, int]:
        """Return the first and last tax year of the projected months (calendar years without a
        regime)."""
        starts = 1 if self.tax_regime is None else regime_get(self.tax_regime).year_starts_month
        last = add_months(self.start, self.months) - datetime.timedelta(days=1)
        return tax_year_of(self.start, starts), tax_year_of(last, starts)

    @property
    def raises_held(self) -> int:
        """Return the yearly raises ``base`` already holds: the anniversaries of ``start`` on or
        before ``as_of`` (0 for a package starting on or after it)."""
        if self.as_of is None or self.as_of <= self.start:
            return 0
        return whole_months_between(self.start, self.as_of) // 12

    def base_of_year(self, year: int | np.ndarray) -> Any:
        """Return the base of 1-based package year ``year`` (scalar or array).

        Raised on each anniversary after ``as_of``; the years up to it are at ``base``.
        """
        raises = np.maximum(np.asarray(year) - 1 - self.raises_held, 0)
        out = self.base * (1.0 + self.raise_pct / 100.0) ** raises
        return float(out) if np.ndim(out) == 0 else out

    @property
    def months(self) -> int:
        """Return the number of projected months."""
        return 12 * self.horizon_years

    def letter(self) -> PackageSpec:
        """Return the terms an offer letter states, without what the valuation assumes.

        Today's base with no raise to come, the bonus at its target (multiplier 1), sign-ons and
        relocation as written, the grants at today's share price (no growth, no spread) and no
        refreshers: a letter names none as granted. A promotion is never in it.
        """
        stock = replace(self.stock, growth_pct=0.0, volatility_pct=0.0)
        return replace(self, raise_pct=0.0, bonus_multiplier=1.0, refreshers=(), stock=stock)


def monthly_base(spec: PackageSpec, months: int) -> np.ndarray:
    """Return the monthly base of package months 1..months (`PackageSpec.base_of_year`)."""
    year = (np.arange(1, months + 1) - 1) // 12 + 1
    return np.asarray(spec.base_of_year(year) / 12.0)
