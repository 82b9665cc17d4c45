"""A package's terms and the bridge from them to the engine's PackageSpec."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any, get_type_hints

from django.utils.translation import gettext as _

from compensation import engine
from compensation.engine.tax import tables as engine_tax
from compensation.models import BonusCycle, Company, Package, tax_regime_label
from compensation.package_parts import EquityGrant, Refresher, SignOn
from compensation.selectors.fx import FxTable, fx_rate_for_owner
from compensation.terms import (
    TERM_FIELDS,
    GrantTerms,
    PackageTerms,
    RefresherTerms,
    SignOnTerms,
    Vesting,
)


def tax_rate_pct(package: Package) -> Decimal:
    """Return the effective tax % of the package's location, or 0 without one."""
    if package.location_id is None or package.location is None:
        return Decimal(0)
    return package.location.effective_tax_pct


def tax_rule_words(spec: engine.PackageSpec, period: tuple[dt.date, dt.date] | None = None) -> str:
    """Return the tax rule of a spec in words: its regime and tax years, or the flat fallback.

    ``period`` (first and last day counted) says which tax years the words are for; None:
    the spec's own projected years.
    """
    if spec.tax_regime:
        regime = engine_tax.regime_get(spec.tax_regime)
        years = (
            spec.tax_years
            if period is None
            else (regime.tax_year_of(period[0]), regime.tax_year_of(period[1]))
        )
        return tax_regime_label(regime, years)
    if spec.tax_unknown:
        return _("tax unknown (no tax rule or rate: counted as 0%)")
    return _("flat %(rate)s%% (no tax table for this place)") % {"rate": f"{spec.tax_rate_pct:g}"}


def schedule_of(item: EquityGrant | Refresher | Vesting) -> engine.VestingSchedule:
    """Return the engine schedule of a grant or refresher (raises EngineInputError)."""
    weights = item.weights
    if not isinstance(weights, list | tuple) or not weights:
        raise engine.EngineInputError("weights", _("must be a list of yearly percentages"))
    freqs = item.year_frequencies
    dates = item.vest_dates
    if dates and not isinstance(dates, list | tuple):
        raise engine.EngineInputError("vest_dates", _("must be a list of [month, day] pairs"))
    return engine.VestingSchedule(
        total_months=12 * len(weights),
        cliff_months=int(item.cliff_months),
        frequency_months=int(item.frequency_months),
        year_weights=tuple(float(w) for w in weights),
        year_frequencies=tuple(int(f) for f in freqs) if freqs else None,
        vest_dates=tuple(tuple(pair) for pair in dates) if dates else None,
    )


def bonus_cycle_of(package: Package | PackageTerms) -> engine.BonusCycle | None:
    """Return the engine bonus cycle of a package (None: each year from its start date).

    Raises EngineInputError for a cut-off day its month lacks, whatever the cycle.
    """
    cutoff = None
    if package.bonus_cutoff_month and package.bonus_cutoff_day:
        cutoff = (int(package.bonus_cutoff_month), int(package.bonus_cutoff_day))
        engine.check_calendar_dates("cutoff", [cutoff])
    if package.bonus_cycle == BonusCycle.ANNIVERSARY:
        return None
    return engine.BonusCycle(
        start_month=1
        if package.bonus_cycle == BonusCycle.CALENDAR
        else int(package.bonus_fiscal_start_month),
        payout_month=int(package.bonus_payout_month),
        prorate_first_year=bool(package.bonus_prorate_first_year),
        cutoff=cutoff,
        paid_if_left=bool(package.bonus_paid_if_left),
    )


def sign_on_of(item: SignOn | SignOnTerms) -> engine.SignOn:
    """Return the engine sign-on of a row (raises EngineInputError)."""
    instalments = item.instalments
    if instalments and not isinstance(instalments, list | tuple):
        raise engine.EngineInputError("instalments", _("must be a list of [months, share] pairs"))
    return engine.SignOn(
        amount=float(item.amount),
        year=item.year,
        clawback_months=item.clawback_months,
        instalments=tuple(tuple(p) for p in instalments) if instalments else ((0, 1.0),),
        clawback_kind=item.clawback_kind,
    )


EVEN_QUARTERLY = engine.VESTING_PRESETS["even_4y_quarterly"]


def _f(value: Decimal | float | int | None, default: float = 0.0) -> float:
    return default if value is None else float(value)


def stock_currency(package: Package) -> str:
    """Return the currency the package's stock is priced in: the company's, else the package's."""
    company = package.company
    return company.currency if company is not None else package.currency


def grant_price_currency(grant: EquityGrant, package: Package) -> str:
    """Return the currency of a grant's price and value (blank: the stock's currency)."""
    return grant.price_currency or stock_currency(package)


Rate = Callable[[str, str], float]


def package_rate(package: Package, fx: FxTable | None = None) -> Rate:
    """Return `terms_rate`'s rates as floats, for the engine."""
    exact = terms_rate(package, fx)
    return lambda currency, to_currency: float(exact(currency, to_currency))


def preset_vesting(name: str) -> Vesting:
    """Return a named vesting preset (even quarterly over 4 years for an unknown name)."""
    schedule = engine.VESTING_PRESETS.get(name) or EVEN_QUARTERLY
    return Vesting(
        weights=tuple(float(w) for w in schedule.year_weights),
        cliff_months=schedule.cliff_months,
        frequency_months=schedule.frequency_months,
        year_frequencies=tuple(schedule.year_frequencies) if schedule.year_frequencies else None,
        vest_dates=tuple(tuple(p) for p in schedule.vest_dates) if schedule.vest_dates else None,
    )


def package_terms(package: Package) -> PackageTerms:
    """Return the terms of a package: the one reader (no query when prefetched).

    Reads the prefetched sign-ons, grants and refreshers, as `package_list` loads them.
    """
    return rows_terms(
        package, package.sign_ons.all(), package.grants.all(), package.refreshers.all()
    )


def rows_terms(
    package: Package,
    sign_ons: Iterable[SignOn],
    grants: Iterable[EquityGrant],
    refreshers: Iterable[Refresher],
) -> PackageTerms:
    """Return the terms of a package row and its children rows (saved or not: no query).

    `package_terms` reads a stored package through it; a restore reads the rows of a backup
    through it before they are written.
    """
    company = package.company
    return PackageTerms(
        **{name: getattr(package, name) for name in TERM_FIELDS},
        sign_ons=tuple(SignOnTerms.of(s) for s in sign_ons),
        grants=tuple(GrantTerms.of(g) for g in grants),
        refreshers=tuple(RefresherTerms.of(r) for r in refreshers),
        stock_currency=stock_currency(package),
        share_price=company.share_price if company is not None else Decimal(0),
        usual_vesting=preset_vesting(company.vesting_preset if company is not None else ""),
    )


def terms_rate(package: Package, fx: FxTable | None = None) -> Callable[[str, str], Decimal]:
    """Return the exact rate function of the package's owner, which a change's amounts convert
    with: ``fx`` when given, else a query per pair (none for a currency into itself)."""

    def rate(currency: str, to_currency: str) -> Decimal:
        if fx is not None:
            return fx.decimal_rate(currency, to_currency)
        return fx_rate_for_owner(
            owner_id=package.owner_id, currency=currency, to_currency=to_currency
        )

    return rate


def _price_of(terms: PackageTerms, rate: Rate) -> float:
    """Return today's share price in the stock's currency (see `stock_currency`).

    Without a company price, the first grant's price (converted into the stock's
    currency) stands in; without either, 1.
    """
    price = float(terms.share_price)
    if price <= 0 and terms.grants:
        first = terms.grants[0]
        price = float(first.grant_price) * rate(
            terms.grant_currency(first), terms.stock_currency or terms.currency
        )
    return price if price > 0 else 1.0


def package_to_spec(
    package: Package,
    *,
    horizon_years: int,
    terms: PackageTerms | None = None,
    fx_to_home: float = 1.0,
    tax_rate_pct: float | None = None,
    start: dt.date | None = None,
    growth_pct: float | Decimal | None = None,
    volatility_pct: float | Decimal | None = None,
    fx: FxTable | None = None,
) -> engine.PackageSpec:
    """Return the engine's PackageSpec of a package's terms: the one bridge to the engine.

    ``terms`` are the package's (`package_terms`, read from the prefetched sign-ons, grants
    and refreshers) unless given, e.g. with a scenario's change applied (`apply_change`);
    the company's stock assumptions come from the package's company. The stock is priced in
    the company's currency (`stock_currency`); grant values and prices are converted from
    each grant's price currency into it (the share count, value / price, does not change)
    and vests are converted into the package currency at the FX rate. Rates come from ``fx``
    (an `FxTable`), or are queried for the package's owner without one; a missing rate
    raises LookupError naming the pair. ``start`` moves the grants' vesting starts by the
    same number of days. A package with a ``tax_regime`` is taxed by that regime's brackets
    in its currency (``fx_to_tax`` from the FX table); without one, by its location's regime
    where the location has one, else by the location's flat rate; with no location either the
    spec says ``tax_unknown`` (taxed at 0 %, flagged wherever it is shown). Raises
    EngineInputError for inconsistent data.
    """
    terms = terms if terms is not None else package_terms(package)
    start = start or terms.start_date
    rate = package_rate(package, fx)
    stock = _stock(terms, package.company, rate, growth_pct, volatility_pct)
    grants = _grants(terms, rate, stock.currency or terms.currency, start - terms.start_date)
    refreshers = tuple(
        engine.Refresher(
            yearly_value=float(r.yearly_value),
            schedule=schedule_of(r.vesting),
            first_year=r.first_year,
        )
        for r in terms.refreshers
    )
    spec_fields = {
        # A term that is a spec field of the same name, converted to its type, unless set below.
        **{
            name: _CASTS.get(_SPEC_TYPES[name], lambda value: value)(getattr(terms, name))
            for name in TERM_FIELDS
            if name in _SPEC_TYPES
        },
        "bonus_cycle": bonus_cycle_of(terms),
        "sign_on": tuple(sign_on_of(s) for s in terms.sign_ons),
        "fx_to_home": float(fx_to_home),
        **_tax(terms, rate, tax_rate_pct),
    }
    return engine.PackageSpec(
        name=package.name,
        start=start,
        horizon_years=horizon_years,
        grants=grants,
        refreshers=refreshers,
        stock=stock,
        **spec_fields,
    )


# The engine spec's fields by type: the terms of the same name are converted to it.
_SPEC_TYPES = get_type_hints(engine.PackageSpec)
_CASTS: dict[Any, Callable[[Any], Any]] = {float: float, bool: bool}


def _stock(
    terms: PackageTerms,
    company: Company | None,
    rate: Rate,
    growth_pct: float | Decimal | None,
    volatility_pct: float | Decimal | None,
) -> engine.Stock:
    """Return the stock the grants vest in: the company's assumptions unless overridden.

    Its currency is None when it is the package's (always so without grants or refreshers:
    nothing vests, so no rate is needed).
    """
    has_stock = bool(terms.grants or terms.refreshers)
    currency = (terms.stock_currency or terms.currency) if has_stock else terms.currency
    own = currency == terms.currency
    fx_to_package = 1.0 if own else rate(currency, terms.currency)
    return engine.Stock(
        price=_price_of(terms, rate) if has_stock else 1.0,
        growth_pct=_f(
            growth_pct if growth_pct is not None else (company.growth_pct if company else None)
        ),
        volatility_pct=_f(
            volatility_pct
            if volatility_pct is not None
            else (company.volatility_pct if company else None)
        ),
        liquidity_discount_pct=_f(company.liquidity_discount_pct if company else None),
        ticker=(company.ticker or None) if company else None,
        currency=None if own else currency,
        fx_to_package=fx_to_package,
    )


def _grants(
    terms: PackageTerms, rate: Rate, currency: str, shift: dt.timedelta
) -> tuple[engine.Grant, ...]:
    """Return the grants in the stock's ``currency``, their vesting starts moved by ``shift``."""
    grants = []
    for g in terms.grants:
        # Value and price move together into the stock's currency: the shares stay put.
        k = rate(terms.grant_currency(g), currency)
        grants.append(
            engine.Grant(
                value=_f(g.value) * k if g.value is not None else None,
                shares=_f(g.shares) if g.value is None else None,
                grant_price=float(g.grant_price) * k,
                schedule=schedule_of(g.vesting),
                vest_start=g.vest_start + shift,
            )
        )
    return tuple(grants)


def _tax(terms: PackageTerms, rate: Rate, tax_rate_pct: float | None) -> dict[str, Any]:
    """Return the spec's tax fields: the package's rule, else its place's, else a flat rate."""
    location = terms.location
    # Its own rule, else its place's tables; with neither and no place, the tax is unknown.
    regime = terms.tax_regime or (location.tax_regime if location is not None else "") or None
    fx_to_tax = 1.0
    if regime is not None:
        regime_currency = engine_tax.regime_get(regime).currency
        if regime_currency != terms.currency:
            fx_to_tax = rate(terms.currency, regime_currency)
    flat = location.effective_tax_pct if location is not None else Decimal(0)
    return {
        "tax_rate_pct": _f(tax_rate_pct if tax_rate_pct is not None else flat),
        "tax_regime": regime,
        "fx_to_tax": fx_to_tax,
        "tax_unknown": regime is None and location is None and tax_rate_pct is None,
    }
