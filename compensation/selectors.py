"""Reads of companies, bands, FX rates and packages, and the bridge from packages to the engine."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

import plotly.graph_objects as go
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Case, F, IntegerField, Prefetch, Q, QuerySet, Value, When
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from accounts.charts import INK, figure, phone_title
from compensation import engine
from compensation.engine import tax as engine_tax
from compensation.models import (
    Band,
    BonusCycle,
    Company,
    EquityGrant,
    FxRate,
    Level,
    LocationPreset,
    Package,
    Refresher,
    SignOn,
    tax_regime_label,
)
from compensation.terms import (
    TERM_FIELDS,
    GrantTerms,
    PackageTerms,
    RefresherTerms,
    SignOnTerms,
    Vesting,
)

PIVOT_CURRENCY = "USD"
TOP_OF_BAND_SHARE = Decimal("0.98")


def _visible(user: AbstractBaseUser, prefix: str = "") -> Q:
    """Return a filter for shared rows and the user's own rows."""
    return Q(**{f"{prefix}owner__isnull": True}) | Q(**{f"{prefix}owner": user})


# Companies and ladders -------------------------------------------------------------------


def company_list(*, user: AbstractBaseUser) -> QuerySet[Company]:
    """Return shared companies and the user's own, with their ladders."""
    return (
        Company.objects.filter(_visible(user))
        .prefetch_related(Prefetch("levels", queryset=Level.objects.order_by("order")))
        .order_by("name", "id")
    )


def companies_by_name(*, user: AbstractBaseUser) -> dict[str, Company]:
    """Return the companies the user sees by case-folded name (their own wins over a shared one).

    What an import matches a typed company name against.
    """
    found: dict[str, Company] = {}
    for company in Company.objects.filter(_visible(user)).order_by(
        F("owner").asc(nulls_first=True), "id"
    ):
        found[company.name.casefold()] = company
    return found


def levels_by_code(companies: Iterable[Company]) -> dict[tuple[int, str], Level]:
    """Return the companies' levels by (company id, case-folded code), each with its company."""
    return {
        (level.company_id, level.code.casefold()): level
        for level in Level.objects.filter(company__in=list(companies)).select_related("company")
    }


def company_get(*, user: AbstractBaseUser, pk: int) -> Company:
    """Return a shared or own company with its ladder and the bands the user may see."""
    bands = band_list(user=user).order_by("level__order", "currency", "location", "-as_of")
    levels = Level.objects.order_by("order").prefetch_related(Prefetch("bands", queryset=bands))
    qs = Company.objects.filter(_visible(user)).prefetch_related(
        Prefetch("levels", queryset=levels)
    )
    return get_object_or_404(qs, pk=pk)


def company_get_own(*, user: AbstractBaseUser, pk: int) -> Company:
    """Return one of the user's own companies (shared ones are read-only: 404)."""
    return get_object_or_404(Company, owner=user, pk=pk)


def level_list(*, user: AbstractBaseUser) -> QuerySet[Level]:
    """Return the levels of every company the user can see."""
    return Level.objects.filter(_visible(user, "company__")).select_related("company")


def next_level(level: Level) -> Level | None:
    """Return the next rung up the same company's ladder, or None at the top."""
    return (
        Level.objects.filter(company_id=level.company_id, order__gt=level.order)
        .order_by("order", "id")
        .first()
    )


# Bands -----------------------------------------------------------------------------------


def band_list(*, user: AbstractBaseUser, level: Level | None = None) -> QuerySet[Band]:
    """Return the shared and own bands of companies the user can see."""
    qs = Band.objects.filter(_visible(user), _visible(user, "level__company__")).select_related(
        "level__company"
    )
    if level is not None:
        qs = qs.filter(level=level)
    return qs


def band_get_own(*, user: AbstractBaseUser, pk: int) -> Band:
    """Return one of the user's own bands (shared bands are read-only: 404)."""
    return get_object_or_404(Band.objects.select_related("level__company"), owner=user, pk=pk)


def _ranked_bands(
    qs: QuerySet[Band],
    *,
    user: AbstractBaseUser,
    currency: str | None = None,
    location: str | None = None,
) -> QuerySet[Band]:
    """Return bands best first: in ``currency``, at ``location``, the user's own, the newest."""
    qs = qs.annotate(
        mine=Case(When(owner=user, then=Value(0)), default=Value(1), output_field=IntegerField()),
        cur_rank=Case(
            When(currency=currency or "", then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        ),
        loc_rank=Case(
            When(location__iexact=location or "", then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        ),
    )
    order: list[Any] = ["mine", F("as_of").desc(nulls_last=True), "-id"]
    if location:
        order.insert(0, "loc_rank")
    if currency:
        order.insert(0, "cur_rank")
    return qs.order_by(*order)


def band_for(
    *,
    user: AbstractBaseUser,
    level: Level | None,
    currency: str | None = None,
    location: str | None = None,
) -> Band | None:
    """Return the band to compare against: the user's own before shared, then the newest.

    With ``currency`` (and ``location``), bands in that currency (at that place) come first.
    """
    if level is None:
        return None
    qs = band_list(user=user, level=level)
    return _ranked_bands(qs, user=user, currency=currency, location=location).first()


def bands_for_levels(*, user: AbstractBaseUser, level_ids: Iterable[int]) -> dict[int, Band]:
    """Return each level's band as ``band_for`` picks it (no currency or place), in one query."""
    ids = set(level_ids)
    if not ids:
        return {}
    found: dict[int, Band] = {}
    for band in _ranked_bands(band_list(user=user).filter(level_id__in=ids), user=user):
        found.setdefault(band.level_id, band)
    return found


# FX and places ---------------------------------------------------------------------------


def fx_list(*, user: AbstractBaseUser) -> QuerySet[FxRate]:
    """Return the shared and own exchange rates."""
    return FxRate.objects.filter(_visible(user))


def fx_get_own(*, user: AbstractBaseUser, pk: int) -> FxRate:
    """Return one of the user's own exchange rates."""
    return get_object_or_404(FxRate, owner=user, pk=pk)


def location_list(*, user: AbstractBaseUser) -> QuerySet[LocationPreset]:
    """Return the shared and own location presets."""
    return LocationPreset.objects.filter(_visible(user)).order_by("name", "id")


def locations_by_name(*, user: AbstractBaseUser) -> dict[str, LocationPreset]:
    """Return the location presets the user sees by case-folded name (their own wins)."""
    found: dict[str, LocationPreset] = {}
    for location in LocationPreset.objects.filter(_visible(user)).order_by(
        F("owner").asc(nulls_first=True), "id"
    ):
        found[location.name.casefold()] = location
    return found


def location_get_own(*, user: AbstractBaseUser, pk: int) -> LocationPreset:
    """Return one of the user's own location presets."""
    return get_object_or_404(LocationPreset, owner=user, pk=pk)


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
        if on is None:
            when = (1, row.as_of.toordinal())
        elif row.as_of <= on:
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


def fx_table(*, user: AbstractBaseUser, on: dt.date | None = None) -> FxTable:
    """Load every exchange rate the user can see, in one query."""
    return FxTable(fx_list(user=user), user.pk, on)


def fx_rate_for_owner(
    *, owner_id: Any, currency: str, to_currency: str, on: dt.date | None = None
) -> Decimal:
    """Return units of ``to_currency`` per ``currency`` (see `fx_rate`) for a user id."""
    if currency.upper() == to_currency.upper():
        return Decimal(1)
    wanted = {currency.upper(), to_currency.upper(), PIVOT_CURRENCY}
    rows = FxRate.objects.filter(
        Q(owner__isnull=True) | Q(owner_id=owner_id),
        currency__in=wanted,
        to_currency__in=wanted,
    )
    return FxTable(rows, owner_id, on).decimal_rate(currency, to_currency)


def fx_rate(
    *, user: AbstractBaseUser, currency: str, to_currency: str, on: dt.date | None = None
) -> Decimal:
    """Return how many ``to_currency`` one ``currency`` buys: direct, inverse or via USD.

    The user's own rates win over shared ones; then the latest on or before ``on``.
    Raises LookupError naming the pair when no rate connects them.
    """
    return fx_rate_for_owner(owner_id=user.pk, currency=currency, to_currency=to_currency, on=on)


# Packages --------------------------------------------------------------------------------


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
    return _("flat %(rate)s%% (no tax table for this place)") % {"rate": f"{spec.tax_rate_pct:g}"}


def package_list(*, user: AbstractBaseUser) -> QuerySet[Package]:
    """Return the user's packages with everything `package_to_spec` reads."""
    return (
        Package.objects.filter(owner=user)
        .select_related("company", "level__company", "location")
        .prefetch_related("sign_ons", "grants", "refreshers")
        .order_by("name", "id")
    )


def package_get(*, user: AbstractBaseUser, pk: int) -> Package:
    """Return one of the user's packages with its sign-ons, grants and refreshers."""
    return get_object_or_404(package_list(user=user), pk=pk)


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
        vest_dates=tuple(tuple(pair) for pair in dates) if dates else None,  # type: ignore[misc]
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
        instalments=tuple(tuple(p) for p in instalments) if instalments else ((0, 1.0),),  # type: ignore[misc]
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
    """Return a rate function for the package's owner: ``fx`` when given, else a query per pair."""

    def rate(currency: str, to_currency: str) -> float:
        if currency.upper() == to_currency.upper():
            return 1.0
        if fx is not None:
            return fx.rate(currency, to_currency)
        return float(
            fx_rate_for_owner(owner_id=package.owner_id, currency=currency, to_currency=to_currency)
        )

    return rate


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


def usual_vesting(company: Company | None, preset: str = "") -> Vesting:
    """Return ``preset``, else the company's usual vesting, else even quarterly over 4 years."""
    return preset_vesting(preset or (company.vesting_preset if company is not None else ""))


def package_terms(package: Package) -> PackageTerms:
    """Return the terms of a package: the one reader (no query when prefetched).

    Reads the prefetched sign-ons, grants and refreshers, as `package_list` loads them.
    """
    company = package.company
    return PackageTerms(
        **{name: getattr(package, name) for name in TERM_FIELDS},
        sign_ons=tuple(
            SignOnTerms(
                amount=s.amount,
                year=s.year,
                clawback_months=s.clawback_months,
                clawback_kind=s.clawback_kind,
                instalments=s.instalments,
                id=s.pk,
            )
            for s in package.sign_ons.all()
        ),
        grants=tuple(
            GrantTerms(
                label=g.label,
                value=g.value,
                shares=g.shares,
                grant_price=g.grant_price,
                price_currency=g.price_currency,
                vest_start=g.vest_start,
                vesting=Vesting.of(g),
                id=g.pk,
            )
            for g in package.grants.all()
        ),
        refreshers=tuple(
            RefresherTerms(
                yearly_value=r.yearly_value, first_year=r.first_year, vesting=Vesting.of(r), id=r.pk
            )
            for r in package.refreshers.all()
        ),
        stock_currency=stock_currency(package),
        share_price=company.share_price if company is not None else Decimal(0),
        usual_vesting=usual_vesting(company),
    )


def terms_rate(package: Package, fx: FxTable | None = None) -> Callable[[str, str], Decimal]:
    """Return the exact rate function a change's amounts convert with (see `package_rate`)."""

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
    in its currency (``fx_to_tax`` from the FX table); without one, by the location's flat
    rate. Raises EngineInputError for inconsistent data.
    """
    terms = terms if terms is not None else package_terms(package)
    company = package.company
    start = start or terms.start_date
    shift = start - terms.start_date
    rate = package_rate(package, fx)
    has_stock = bool(terms.grants or terms.refreshers)
    currency = (terms.stock_currency or terms.currency) if has_stock else terms.currency
    # Nothing vests without grants or refreshers: no rate is needed then.
    stock_fx = rate(currency, terms.currency) if currency != terms.currency else 1.0
    stock = engine.Stock(
        price=_price_of(terms, rate) if has_stock else 1.0,
        growth_pct=_f(growth_pct if growth_pct is not None else company and company.growth_pct),
        volatility_pct=_f(
            volatility_pct if volatility_pct is not None else company and company.volatility_pct
        ),
        liquidity_discount_pct=_f(company.liquidity_discount_pct if company else None),
        ticker=(company.ticker or None) if company else None,
        currency=currency if currency != terms.currency else None,
        fx_to_package=stock_fx,
    )
    spec_grants = []
    for g in terms.grants:
        # Value and price move together into the stock's currency: the shares stay put.
        k = rate(terms.grant_currency(g), currency)
        spec_grants.append(
            engine.Grant(
                value=_f(g.value) * k if g.value is not None else None,
                shares=_f(g.shares) if g.value is None else None,
                grant_price=float(g.grant_price) * k,
                schedule=schedule_of(g.vesting),
                vest_start=g.vest_start + shift,
            )
        )
    refreshers = [
        engine.Refresher(
            yearly_value=float(r.yearly_value),
            schedule=schedule_of(r.vesting),
            first_year=r.first_year,
        )
        for r in terms.refreshers
    ]
    regime = terms.tax_regime or None
    fx_to_tax = 1.0
    if regime is not None:
        regime_currency = engine_tax.regime_get(regime).currency
        if regime_currency != terms.currency:
            fx_to_tax = rate(terms.currency, regime_currency)
    location = terms.location
    flat = location.effective_tax_pct if location is not None else Decimal(0)
    return engine.PackageSpec(
        name=package.name,
        start=start,
        horizon_years=horizon_years,
        currency=terms.currency,
        base=float(terms.base),
        raise_pct=float(terms.raise_pct),
        bonus_target_pct=float(terms.bonus_target_pct),
        bonus_multiplier=float(terms.bonus_multiplier),
        bonus_cycle=bonus_cycle_of(terms),
        sign_on=tuple(sign_on_of(s) for s in terms.sign_ons),
        grants=tuple(spec_grants),
        refreshers=tuple(refreshers),
        stock=stock,
        relocation=float(terms.relocation),
        fx_to_home=float(fx_to_home),
        tax_rate_pct=_f(tax_rate_pct if tax_rate_pct is not None else flat),
        tax_regime=regime,
        fx_to_tax=fx_to_tax,
    )


# Where a package sits in its band --------------------------------------------------------


def percentile_in_band(value: float, low: float, mid: float, high: float) -> float | None:
    """Return 0 at min, 50 at mid, 100 at max (piecewise linear, extrapolated beyond)."""
    if high <= low:
        return 50.0 if value == low else None
    if value <= mid:
        a, b, pa, pb = (low, mid, 0.0, 50.0) if mid > low else (mid, high, 50.0, 100.0)
    else:
        a, b, pa, pb = (mid, high, 50.0, 100.0) if high > mid else (low, mid, 0.0, 50.0)
    return pa + (pb - pa) * (value - a) / (b - a)


def grant_value(grant: EquityGrant) -> Decimal:
    """Return a grant's value at its grant price, in its price currency."""
    if grant.value is not None:
        return grant.value
    return (grant.shares or Decimal(0)) * grant.grant_price


def yearly_stock_value(package: Package, fx: FxTable | None = None) -> Decimal:
    """Return the initial grants' value per vesting year in the package currency.

    That is grant value / vesting years, each grant converted from its price currency
    (raises LookupError naming the pair without a rate).
    """
    total = Decimal(0)
    for grant in package.grants.all():
        years = len(grant.weights) if isinstance(grant.weights, list) and grant.weights else 4
        currency = grant_price_currency(grant, package)
        factor = Decimal(1)
        if currency != package.currency:
            factor = (
                fx.decimal_rate(currency, package.currency)
                if fx is not None
                else fx_rate_for_owner(
                    owner_id=package.owner_id, currency=currency, to_currency=package.currency
                )
            )
        total += grant_value(grant) * factor / years
    return total


def _band_figures(band: Band, factor: Decimal) -> dict[str, dict[str, float]]:
    def conv(v: Decimal) -> float:
        return float(v * factor)

    return {
        "base": {
            "min": conv(band.base_min),
            "mid": conv(band.base_mid),
            "max": conv(band.base_max),
        },
        "stock": {
            "min": conv(band.stock_min),
            "mid": conv(band.stock_mid),
            "max": conv(band.stock_max),
        },
    }


def _factor(package: Package, band: Band | None) -> Decimal:
    if band is None or band.currency == package.currency:
        return Decimal(1)
    return fx_rate_for_owner(
        owner_id=package.owner_id, currency=band.currency, to_currency=package.currency
    )


def band_position(*, package: Package, band: Band, next_band: Band | None = None) -> dict[str, Any]:
    """Return where base, yearly stock and bonus target sit in the band, with a chart.

    Percentiles: 0 at min, 50 at mid, 100 at max, piecewise linear, below 0 or above 100
    outside the band. Bands in another currency are converted into the package's
    (raises LookupError without a rate). Yearly stock is grant value / vesting years.
    """
    factor = _factor(package, band)
    figures = _band_figures(band, factor)
    next_figures = _band_figures(next_band, _factor(package, next_band)) if next_band else None
    values = {"base": float(package.base), "stock": float(yearly_stock_value(package))}
    labels = {"base": _("Base salary"), "stock": _("Yearly stock (grant value / vesting years)")}
    components: list[dict[str, Any]] = []
    for key in ("base", "stock"):
        fig = figures[key]
        pct = percentile_in_band(values[key], fig["min"], fig["mid"], fig["max"])
        components.append(
            {
                "key": key,
                "label": labels[key],
                "value": values[key],
                **fig,
                "percentile": None if pct is None else round(pct, 1),
                "next": next_figures[key] if next_figures else None,
            }
        )
    bonus_value = float(package.bonus_target_pct)
    bonus_band = float(band.bonus_target_pct)
    bonus = {
        "key": "bonus_target_pct",
        "label": _("Bonus target %"),
        "value": bonus_value,
        "band": bonus_band,
        "delta": round(bonus_value - bonus_band, 3),
        "next": float(next_band.bonus_target_pct) if next_band else None,
    }
    at_top = values["base"] >= float(TOP_OF_BAND_SHARE) * figures["base"]["max"]
    by_key = {c["key"]: c for c in components}
    return {
        "currency": package.currency,
        "band": band,
        "next_band": next_band,
        "converted_from": band.currency if band.currency != package.currency else None,
        "components": components,
        "base": by_key["base"],
        "stock": by_key["stock"],
        "bonus": bonus,
        "at_top_of_band": at_top,
        "figure": band_position_figure(
            components, currency=package.currency, level=str(band.level), next_band=next_band
        ),
    }


def band_position_figure(
    components: list[dict[str, Any]], *, currency: str, level: str, next_band: Band | None
) -> go.Figure:
    """Return a plotly figure: min-max bars per component, mid and package markers."""
    this_label = _("this level")
    next_label = str(next_band.level) if next_band else ""
    ys: list[str] = []
    bases: list[float] = []
    widths: list[float] = []
    colors: list[str] = []
    mids: list[float] = []
    mid_ys: list[str] = []
    texts: list[str] = []
    for c in components:
        short = _("Base") if c["key"] == "base" else _("Stock / yr")
        rows = [(f"{short} · {this_label}", c, "#91a7ff")]
        if c["next"]:
            rows.append((f"{short} · {next_label}", c["next"], "#d0d7e6"))
        for y, fig, color in rows:
            ys.append(y)
            bases.append(fig["min"])
            widths.append(max(fig["max"] - fig["min"], 0.0))
            colors.append(color)
            mids.append(fig["mid"])
            mid_ys.append(y)
            texts.append(f"{fig['min']:,.0f} – {fig['max']:,.0f}")
    value_ys = [
        f"{(_('Base') if c['key'] == 'base' else _('Stock / yr'))} · {this_label}"
        for c in components
    ]
    title = _("Where it sits in the %(level)s band") % {"level": level}
    phone, top = phone_title(title, currency)
    return figure(
        [
            go.Bar(
                orientation="h",
                y=ys,
                x=widths,
                base=bases,
                marker={"color": colors},
                name=_("band min – max"),
                hovertext=texts,
                hoverinfo="text+y",
            ),
            go.Scatter(
                mode="markers",
                y=mid_ys,
                x=mids,
                name=_("band mid"),
                marker={"symbol": "line-ns-open", "size": 22, "color": INK},
            ),
            go.Scatter(
                mode="markers",
                y=value_ys,
                x=[c["value"] for c in components],
                name=_("this package"),
                marker={"symbol": "diamond", "size": 13, "color": "#e8590c"},
            ),
        ],
        {
            # The currency under the title: as the x axis's title it sat under the legend.
            "title": {"text": f"{title}<br><sub>{currency}</sub>"},
            "xaxis": {"tickformat": ",.0f", "rangemode": "tozero"},
            "yaxis": {"autorange": "reversed", "automargin": True},
            "barmode": "overlay",
            "height": 160 + 45 * len(ys),
            "margin": {"l": 150},
        },
        narrow={
            "title": phone,
            "xaxis": {"tickformat": "~s"},
            "margin": {"t": top, "l": 8, "r": 12},
            "height": 190 + 45 * len(ys),
        },
    )
