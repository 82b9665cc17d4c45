"""Which band a level compares against, and where a package sits in it."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.utils.translation import gettext as _

from compensation.models import Band, Level, Package
from compensation.package_parts import EquityGrant
from compensation.selectors.charts import band_position_figure
from compensation.selectors.fx import FxTable
from compensation.selectors.queries import band_list
from compensation.selectors.spec import grant_price_currency, terms_rate

TOP_OF_BAND_SHARE = Decimal("0.98")


def next_level(level: Level) -> Level | None:
    """Return the next rung up the same company's ladder, or None at the top."""
    return (
        Level.objects.filter(company_id=level.company_id, order__gt=level.order)
        .order_by("order", "id")
        .first()
    )


def _first_when(condition: Q) -> Case:
    """Return a rank to order by: 0 where ``condition`` holds, else 1."""
    return Case(When(condition, then=Value(0)), default=Value(1), output_field=IntegerField())


def _ranked_bands(
    qs: QuerySet[Band],
    *,
    user: User,
    currency: str | None = None,
    location: str | None = None,
) -> QuerySet[Band]:
    """Return bands best first: those that apply (``band_applies``), at ``location``, in
    ``currency``, the user's own, the newest."""
    applies = Q(currency=currency or "") & (Q(location="") | Q(location__iexact=location or ""))
    qs = qs.annotate(
        applies_rank=_first_when(applies),
        mine=_first_when(Q(owner=user)),
        cur_rank=_first_when(Q(currency=currency or "")),
        loc_rank=_first_when(Q(location__iexact=location or "")),
    )
    order: list[Any] = ["mine", F("as_of").desc(nulls_last=True), "-id"]
    if currency:
        order.insert(0, "cur_rank")
    if location:
        order.insert(0, "loc_rank")
    if currency:
        order.insert(0, "applies_rank")
    return qs.order_by(*order)


def band_applies(band: Band, *, currency: str, location: str | None) -> bool:
    """Return whether ``band`` states pay in ``currency`` at ``location``.

    A band applies to its own currency and place; one without a place, wherever its currency
    is paid. A Taipei salary in TWD is not placed in a USD band of another place.
    """
    if band.currency != currency:
        return False
    return not band.location.strip() or (
        (location or "").strip().casefold() == band.location.strip().casefold()
    )


def local_band_for(
    *, user: User, level: Level | None, currency: str, location: str | None
) -> Band | None:
    """Return the band that applies to a package in ``currency`` at ``location``, or None."""
    band = band_for(user=user, level=level, currency=currency, location=location)
    if band is None or not band_applies(band, currency=currency, location=location):
        return None
    return band


def band_for(
    *,
    user: User,
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


def bands_for_levels(*, user: User, level_ids: Iterable[int]) -> dict[int, Band]:
    """Return each level's band as ``band_for`` picks it (no currency or place), in one query."""
    ids = set(level_ids)
    if not ids:
        return {}
    found: dict[int, Band] = {}
    for band in _ranked_bands(band_list(user=user).filter(level_id__in=ids), user=user):
        found.setdefault(band.level_id, band)
    return found


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
    rate = terms_rate(package, fx)
    for grant in package.grants.all():
        years = len(grant.weights) if isinstance(grant.weights, list) and grant.weights else 4
        factor = rate(grant_price_currency(grant, package), package.currency)
        total += grant_value(grant) * factor / years
    return total


def _band_figures(band: Band, factor: Decimal) -> dict[str, dict[str, float]]:
    """Return the band's base and stock min, mid and max, times ``factor``."""
    return {
        kind: {k: float(getattr(band, f"{kind}_{k}") * factor) for k in ("min", "mid", "max")}
        for kind in ("base", "stock")
    }


def band_position(*, package: Package, band: Band, next_band: Band | None = None) -> dict[str, Any]:
    """Return where base, yearly stock and bonus target sit in the band, with a chart.

    Percentiles: 0 at min, 50 at mid, 100 at max, piecewise linear, below 0 or above 100
    outside the band. Bands in another currency are converted into the package's
    (raises LookupError without a rate). Yearly stock is grant value / vesting years.
    ``elsewhere`` is True when the band does not apply to the package's place and currency
    (``band_applies``): the page then says it compares with another place's band.
    """
    location = package.location.name if package.location_id and package.location else None
    rate = terms_rate(package)
    figures = _band_figures(band, rate(band.currency, package.currency))
    next_figures = (
        _band_figures(next_band, rate(next_band.currency, package.currency)) if next_band else None
    )
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
    return {
        "currency": package.currency,
        "band": band,
        "converted_from": band.currency if band.currency != package.currency else None,
        "elsewhere": not band_applies(band, currency=package.currency, location=location),
        "place": location or "",
        "components": components,
        "bonus": bonus,
        "at_top_of_band": at_top,
        "figure": band_position_figure(
            components, currency=package.currency, level=str(band.level), next_band=next_band
        ),
    }
