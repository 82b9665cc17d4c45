"""A package's terms as one value, and a change to them as another.

`compensation.selectors.package_terms` reads the terms of a package (the one reader),
`apply_change` applies a change in memory (a scenario, a negotiation answer: the one place a
grant is added "like the existing one"), `compensation.selectors.package_to_spec` values
terms, and `compensation.services.package_terms_write` writes them against the package's
version (the one writer). A scenario's value is therefore the value accepting it writes.

Every amount carries its currency: pay in the pay currency, a grant's value and price in the
grant's price currency, a refresher in the stock's currency. A change states the currency
of each amount it holds and is converted once, here, into the currency of the term it
changes. Pure: no Django.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from typing import Any

CENTS = Decimal("0.01")
PRICE_PLACES = Decimal("0.0001")

# Units of the second currency that one unit of the first buys (LookupError without a rate).
Rate = Callable[[str, str], Decimal]

# The label of the grant a negotiation adds to an option without a new-hire grant of its own
# (a transfer's or staying's retention grant); a later answer revises the same grant.
NEGOTIATED_GRANT = "Negotiated grant"


@dataclass(frozen=True)
class Money:
    """An amount in a named ISO 4217 currency."""

    amount: Decimal
    currency: str

    def to(self, currency: str, rate: Rate) -> Decimal:
        """Return the amount in ``currency`` (unchanged when it is already in it)."""
        if self.currency == currency:
            return self.amount
        return self.amount * rate(self.currency, currency)


def _seq(value: Any) -> Any:
    """Return a stored JSON list as a tuple (nested pairs too); anything else as it is."""
    if isinstance(value, list | tuple):
        return tuple(_seq(v) for v in value)
    return value


def _json(value: Any) -> Any:
    """Return a tuple as the JSON list the model stores (nested pairs too)."""
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


# The model fields of the rows a package holds, as the package service takes them.
VESTING_FIELDS = ("weights", "cliff_months", "frequency_months", "year_frequencies", "vest_dates")
SIGN_ON_FIELDS = ("amount", "year", "clawback_months", "clawback_kind", "instalments")
GRANT_OWN_FIELDS = ("label", "value", "shares", "grant_price", "price_currency", "vest_start")
GRANT_FIELDS = (*GRANT_OWN_FIELDS, *VESTING_FIELDS)
REFRESHER_OWN_FIELDS = ("yearly_value", "first_year")
REFRESHER_FIELDS = (*REFRESHER_OWN_FIELDS, *VESTING_FIELDS)


def _row_fields(item: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """Return a row's ``names`` as the package service takes them ("id" keeps a stored one)."""
    kept = {"id": item.id} if item.id is not None else {}
    return {**kept, **{name: _json(getattr(item, name)) for name in names}}


@dataclass(frozen=True)
class Vesting:
    """How a grant or refresher vests: yearly %, cliff, frequency, per-year frequencies, dates."""

    weights: Any = (25.0, 25.0, 25.0, 25.0)
    cliff_months: int = 0
    frequency_months: int = 3
    year_frequencies: Any = None
    vest_dates: Any = None

    @classmethod
    def of(cls, row: Any) -> Vesting:
        """Return the vesting of a grant or refresher row (or any object with the five fields)."""
        return cls(**{name: _seq(getattr(row, name)) for name in VESTING_FIELDS})

    def fields(self) -> dict[str, Any]:
        """Return the five model fields, JSON lists as the model stores them."""
        return {name: _json(getattr(self, name)) for name in VESTING_FIELDS}

    @property
    def years(self) -> int:
        """Return the number of vesting years (4 when the weights are unreadable)."""
        return len(self.weights) if isinstance(self.weights, tuple) and self.weights else 4


@dataclass(frozen=True)
class SignOnTerms:
    """A sign-on in the pay currency, paid in a package year, clawed back if leaving early."""

    amount: Decimal
    year: int = 1
    clawback_months: int = 12
    clawback_kind: str = "prorated"
    instalments: Any = None
    id: int | None = None

    @classmethod
    def of(cls, row: Any) -> SignOnTerms:
        """Return the terms of a sign-on row (saved or not)."""
        return cls(**{name: getattr(row, name) for name in SIGN_ON_FIELDS}, id=row.pk)

    def fields(self) -> dict[str, Any]:
        """Return the row as the package service takes it ("id" keeps a stored one)."""
        return _row_fields(self, SIGN_ON_FIELDS)


@dataclass(frozen=True)
class GrantTerms:
    """An RSU grant: a value or a share count, at a grant price, both in ``price_currency``.

    A blank ``price_currency`` is the stock's currency (`PackageTerms.grant_currency`).
    """

    grant_price: Decimal
    vest_start: dt.date
    value: Decimal | None = None
    shares: Decimal | None = None
    price_currency: str = ""
    label: str = ""
    vesting: Vesting = Vesting()
    id: int | None = None

    @classmethod
    def of(cls, row: Any) -> GrantTerms:
        """Return the terms of a grant row (saved or not)."""
        own = {name: getattr(row, name) for name in GRANT_OWN_FIELDS}
        return cls(**own, vesting=Vesting.of(row), id=row.pk)

    def fields(self) -> dict[str, Any]:
        """Return the row as the package service takes it ("id" keeps a stored one)."""
        return {**_row_fields(self, GRANT_OWN_FIELDS), **self.vesting.fields()}


@dataclass(frozen=True)
class RefresherTerms:
    """Yearly refresher grants worth ``yearly_value`` in the stock's currency."""

    yearly_value: Decimal
    first_year: int = 2
    vesting: Vesting = Vesting()
    id: int | None = None

    @classmethod
    def of(cls, row: Any) -> RefresherTerms:
        """Return the terms of a refresher row (saved or not)."""
        own = {name: getattr(row, name) for name in REFRESHER_OWN_FIELDS}
        return cls(**own, vesting=Vesting.of(row), id=row.pk)

    def fields(self) -> dict[str, Any]:
        """Return the row as the package service takes it ("id" keeps a stored one)."""
        return {**_row_fields(self, REFRESHER_OWN_FIELDS), **self.vesting.fields()}


@dataclass(frozen=True, kw_only=True)
class PackageTerms:
    """Every term of a package, each amount in its own currency.

    Its fields up to ``tax_regime`` are the package's own, `TERM_FIELDS` (the model's names,
    in the package page's order); then its rows. The last three describe the company's stock,
    read with the terms but never written through them: the stock's currency (the company's
    share-price currency, else the pay currency), today's share price in it (0: unknown) and
    its usual vesting.
    """

    currency: str
    base: Decimal
    raise_pct: Decimal = Decimal("3")
    bonus_target_pct: Decimal = Decimal("0")
    bonus_multiplier: Decimal = Decimal("1")
    bonus_cycle: str = "anniversary"
    bonus_fiscal_start_month: int = 1
    bonus_payout_month: int = 3
    bonus_prorate_first_year: bool = True
    bonus_cutoff_month: int | None = None
    bonus_cutoff_day: int | None = None
    bonus_paid_if_left: bool = False
    relocation: Decimal = Decimal("0")
    start_date: dt.date
    level: Any = None
    location: Any = None
    tax_regime: str = ""
    sign_ons: tuple[SignOnTerms, ...] = ()
    grants: tuple[GrantTerms, ...] = ()
    refreshers: tuple[RefresherTerms, ...] = ()
    stock_currency: str = ""
    share_price: Decimal = Decimal("0")
    usual_vesting: Vesting = Vesting()

    def fields(self) -> dict[str, Any]:
        """Return the package's own term fields in the model's names."""
        return {name: getattr(self, name) for name in TERM_FIELDS}

    def grant_currency(self, grant: GrantTerms | None = None) -> str:
        """Return the currency of a grant's price and value (of a new grant without one).

        A new grant takes the first grant's currency, else the stock's.
        """
        grant = grant or (self.grants[0] if self.grants else None)
        if grant is not None and grant.price_currency:
            return grant.price_currency
        return self.stock_currency or self.currency


# The package's own fields that are its terms, in the model's names (`PackageTerms.fields`).
_NOT_OWN = ("sign_ons", "grants", "refreshers", "stock_currency", "share_price", "usual_vesting")
TERM_FIELDS = tuple(f.name for f in fields(PackageTerms) if f.name not in _NOT_OWN)


@dataclass(frozen=True)
class TermsChange:
    """A proposed change to a package's terms: a scenario's, an answer's, an import's.

    Each amount states its currency. ``extra_stock_yearly`` adds a grant worth that much
    per vesting year like the first grant (its schedule and currency), at today's share
    price, vesting from the later of the start and ``granted_on`` (the day it is made: a job
    held since 2023 does not vest a grant made today from 2023); ``stock_grant`` makes the new-hire grant worth that in total
    (``revise_first_grant``) or sets the negotiated grant (an option that keeps the grants
    it holds); ``refresher_yearly`` replaces the refreshers (0 removes them). A new start
    date moves the grants with it when ``move_grants`` (a new job's grants start with it).
    """

    base: Money | None = None
    raise_pct: Decimal | None = None
    level: Any = None
    start_date: dt.date | None = None
    move_grants: bool = False
    extra_sign_on: Money | None = None
    sign_on_year1: Money | None = None
    sign_on_year2: Money | None = None
    # The clawback of the sign-ons the change adds (None: the house default, 12 months).
    clawback_months: int | None = None
    extra_stock_yearly: Money | None = None
    stock_grant: Money | None = None
    revise_first_grant: bool = True
    grant_label: str = ""
    refresher_yearly: Money | None = None
    # How a new grant vests when the package has none to copy (None: the company's usual).
    vesting: Vesting | None = None
    granted_on: dt.date | None = None


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENTS)


def today_grant_price(terms: PackageTerms, currency: str, rate: Rate) -> Decimal:
    """Return the price a grant made today takes, in ``currency`` (the grant's).

    Today's share price (the company's, in the stock's currency: the price on the decision
    date the engine values from) converted into the grant's currency; without one, the first
    grant's price stands in, as it does for the engine's price (`selectors.spec._price_of`);
    without either, 1.
    """
    if terms.share_price > 0:
        return Money(terms.share_price, terms.stock_currency or terms.currency).to(currency, rate)
    if terms.grants:
        first = terms.grants[0]
        return Money(first.grant_price, terms.grant_currency(first)).to(currency, rate)
    return Decimal(1)


def _grant_like(
    terms: PackageTerms, *, label: str, value: Money, rate: Rate, on: dt.date | None
) -> GrantTerms:
    """Return a new grant like the first one (schedule, currency), from the start or the day
    it is made (``on``), whichever is later, priced at today's share price
    (`today_grant_price`): a grant made now is not priced at the price of a grant made years
    ago. Without a first grant it is in the currency it is stated in."""
    first = terms.grants[0] if terms.grants else None
    currency = terms.grant_currency(first) if first is not None else value.currency
    price = today_grant_price(terms, currency, rate)
    vesting = first.vesting if first is not None else terms.usual_vesting
    return GrantTerms(
        label=label[:80],
        value=_cents(value.to(currency, rate)),
        grant_price=max(price.quantize(PRICE_PLACES), PRICE_PLACES),
        price_currency=currency,
        vest_start=max(terms.start_date, on) if on is not None else terms.start_date,
        vesting=vesting,
    )


def _sign_ons(terms: PackageTerms, change: TermsChange, rate: Rate) -> tuple[SignOnTerms, ...]:
    rows = list(terms.sign_ons)
    stated = change.clawback_months
    clawback: dict[str, Any] = {} if stated is None else {"clawback_months": stated}
    for year, money in ((1, change.sign_on_year1), (2, change.sign_on_year2)):
        if money is None:
            continue
        amount = _cents(money.to(terms.currency, rate))
        index = next((i for i, s in enumerate(rows) if s.year == year), None)
        if index is None:
            rows.append(SignOnTerms(amount=amount, year=year, **clawback))
        else:
            rows[index] = replace(rows[index], amount=amount)
    if change.extra_sign_on is not None and change.extra_sign_on.amount:
        amount = _cents(change.extra_sign_on.to(terms.currency, rate))
        rows.append(SignOnTerms(amount=amount, **clawback))
    return tuple(rows)


def stock_grant_target(terms: PackageTerms, *, revise_first_grant: bool) -> int | None:
    """Return the index of the grant a revised stock grant revises (None: it adds one).

    A new job's revised grant is its new-hire grant, the first; an option that keeps the
    grants it holds revises the negotiated grant an earlier answer added.
    """
    if revise_first_grant:
        return 0 if terms.grants else None
    return next((i for i, g in enumerate(terms.grants) if g.label == NEGOTIATED_GRANT), None)


def stock_grant_currency(terms: PackageTerms, *, revise_first_grant: bool) -> str:
    """Return the currency a revised stock grant is stated in: the grant's own."""
    index = stock_grant_target(terms, revise_first_grant=revise_first_grant)
    return terms.grant_currency(terms.grants[index] if index is not None else None)


def _grants(terms: PackageTerms, change: TermsChange, rate: Rate) -> tuple[GrantTerms, ...]:
    rows = list(terms.grants)
    if change.stock_grant is not None:
        index = stock_grant_target(terms, revise_first_grant=change.revise_first_grant)
        if index is not None:
            target = rows[index]
            value = change.stock_grant.to(terms.grant_currency(target), rate)
            # The grant is now stated by its value.
            rows[index] = replace(target, value=_cents(value), shares=None)
        else:
            label = change.grant_label or (
                "New-hire grant" if change.revise_first_grant else NEGOTIATED_GRANT
            )
            grant = _grant_like(
                terms, label=label, value=change.stock_grant, rate=rate, on=change.granted_on
            )
            rows.append(grant)
    if change.extra_stock_yearly is not None and change.extra_stock_yearly.amount:
        first = terms.grants[0] if terms.grants else None
        years = first.vesting.years if first is not None else terms.usual_vesting.years
        extra = change.extra_stock_yearly
        total = Money(extra.amount * years, extra.currency)
        label = change.grant_label or "Negotiated grant"
        rows.append(_grant_like(terms, label=label, value=total, rate=rate, on=change.granted_on))
    return tuple(rows)


def _refreshers(terms: PackageTerms, change: TermsChange, rate: Rate) -> tuple[RefresherTerms, ...]:
    if change.refresher_yearly is None:
        return terms.refreshers
    if not change.refresher_yearly.amount:
        return ()
    template = terms.refreshers[0] if terms.refreshers else None
    if template is not None:
        vesting, first_year = template.vesting, template.first_year
    else:
        vesting = terms.grants[0].vesting if terms.grants else terms.usual_vesting
        first_year = 2
    stock = terms.stock_currency or terms.currency
    value = _cents(change.refresher_yearly.to(stock, rate))
    return (RefresherTerms(yearly_value=value, first_year=first_year, vesting=vesting),)


def apply_change(terms: PackageTerms, change: TermsChange, rate: Rate) -> PackageTerms:
    """Return the terms with the change applied (``rate`` converts a change's amounts).

    Raises LookupError (from ``rate``) naming a currency pair without an exchange rate.
    """
    if change.vesting is not None:
        terms = replace(terms, usual_vesting=change.vesting)
    if change.start_date is not None and change.start_date != terms.start_date:
        moved = terms.grants
        if change.move_grants:
            shift = change.start_date - terms.start_date
            moved = tuple(replace(g, vest_start=g.vest_start + shift) for g in terms.grants)
        terms = replace(terms, start_date=change.start_date, grants=moved)
    updates: dict[str, Any] = {}
    if change.base is not None:
        updates["base"] = _cents(change.base.to(terms.currency, rate))
    if change.raise_pct is not None:
        updates["raise_pct"] = change.raise_pct
    if change.level is not None:
        updates["level"] = change.level
    return replace(
        terms,
        **updates,
        sign_ons=_sign_ons(terms, change, rate),
        grants=_grants(terms, change, rate),
        refreshers=_refreshers(terms, change, rate),
    )
