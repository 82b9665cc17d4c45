"""Warnings about entries that are probably mistyped: they warn, they never block a save.

Each check is one entry of `CHECKS` (its code, and the function that returns the messages for
one package); pages, messages after a save and tests all read that registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib import messages
from django.http import HttpRequest
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from compensation.models import Band, Package
from compensation.selectors import (
    FxTable,
    band_for,
    fx_list,
    grant_price_currency,
    stock_currency,
    yearly_stock_value,
)

STOCK_OVER_BASE = Decimal(3)
BASE_OVER_BAND_MAX = Decimal("1.2")
GRANT_PRICE_RATIO = (Decimal("0.5"), Decimal("1.5"))


@dataclass(frozen=True)
class PlausibilityWarning:
    """One warning: a stable code (for tests and styling) and a translated sentence."""

    code: str
    message: str


@dataclass
class Facts:
    """What the checks read: the package (with prefetched children), rates and the home currency."""

    package: Package
    fx: FxTable
    home_currency: str | None = None
    band: Band | None = None
    missing: set[tuple[str, str]] = field(default_factory=set)

    def rate(self, currency: str, to_currency: str) -> Decimal | None:
        """Return the rate, or None (remembering the missing pair)."""
        try:
            return self.fx.decimal_rate(currency, to_currency)
        except LookupError:
            self.missing.add((currency, to_currency))
            return None


def money(value: Decimal | float) -> str:
    """Return a whole-unit amount with thousands separators, in the active language."""
    return number_format(Decimal(value).quantize(Decimal(1)), 0, force_grouping=True)


def _stock_per_year(facts: Facts) -> Decimal | None:
    """Return the initial grants per vesting year plus the refreshers a year, package currency."""
    package = facts.package
    try:
        total = yearly_stock_value(package, facts.fx)
    except LookupError:
        return None
    refreshers = [r.yearly_value for r in package.refreshers.all()]
    if refreshers:
        to_package = facts.rate(stock_currency(package), package.currency)
        if to_package is None:
            return None
        total += sum(refreshers, Decimal(0)) * to_package
    return total


def stock_over_base(facts: Facts) -> list[str]:
    """Warn when stock a year is more than three times the base salary."""
    package = facts.package
    stock = _stock_per_year(facts)
    if stock is None or package.base <= 0 or stock <= STOCK_OVER_BASE * package.base:
        return []
    return [
        _(
            "Stock of about %(stock)s %(cur)s a year is more than three times the base salary "
            "of %(base)s %(cur)s. Check the grant's currency and that its value is the whole "
            "grant, not one year."
        )
        % {"stock": money(stock), "base": money(package.base), "cur": package.currency}
    ]


def base_over_band(facts: Facts) -> list[str]:
    """Warn when the base is more than 20% above the band's maximum."""
    package, band = facts.package, facts.band
    if band is None or band.base_max <= 0:
        return []
    factor = facts.rate(band.currency, package.currency)
    if factor is None:
        return []
    limit = band.base_max * factor
    if package.base <= limit * BASE_OVER_BAND_MAX:
        return []
    return [
        _(
            "The base salary of %(base)s %(cur)s is more than 20%% above the maximum of the "
            "%(level)s band (%(max)s %(cur)s). Check the amount and its currency."
        )
        % {
            "base": money(package.base),
            "max": money(limit),
            "cur": package.currency,
            "level": band.level,
        }
    ]


def missing_fx(facts: Facts) -> list[str]:
    """Warn about every missing rate between the pay, stock and home currencies."""
    package = facts.package
    wanted: list[tuple[str, str]] = []
    grants = list(package.grants.all())
    if grants or list(package.refreshers.all()):
        wanted.append((stock_currency(package), package.currency))
    for grant in grants:
        wanted.append((grant_price_currency(grant, package), package.currency))
    if facts.home_currency:
        wanted.append((package.currency, facts.home_currency))
    for a, b in dict.fromkeys(wanted):
        facts.rate(a, b)
    return [
        _(
            "No exchange rate from %(a)s to %(b)s: figures that need it cannot be computed. "
            "Add one on the FX rates page."
        )
        % {"a": a, "b": b}
        for a, b in sorted(facts.missing)
    ]


def grant_price_far(facts: Facts) -> list[str]:
    """Warn when a grant's price is under half or over 1.5 times the company's share price."""
    package = facts.package
    company = package.company
    if company is None or company.share_price <= 0:
        return []
    out = []
    low, high = GRANT_PRICE_RATIO
    for grant in package.grants.all():
        currency = grant_price_currency(grant, package)
        factor = facts.rate(currency, company.currency)
        if factor is None:
            continue
        ratio = grant.grant_price * factor / company.share_price
        if low <= ratio <= high:
            continue
        out.append(
            _(
                "Grant “%(label)s”: its price of %(price)s %(gcur)s is %(ratio)s times "
                "%(company)s's share price of %(share)s %(cur)s. Fine for an old grant; "
                "otherwise check the price and its currency."
            )
            % {
                "label": grant.label or _("Initial grant"),
                "price": number_format(grant.grant_price, 2, force_grouping=True),
                "gcur": currency,
                "ratio": number_format(ratio, 2),
                "company": company.name,
                "share": number_format(company.share_price, 2, force_grouping=True),
                "cur": company.currency,
            }
        )
    return out


# Each kind of implausible entry: its code and the function that finds it.
CHECKS: dict[str, Callable[[Facts], list[str]]] = {
    "missing_fx": missing_fx,
    "stock_over_base": stock_over_base,
    "base_over_band": base_over_band,
    "grant_price_far": grant_price_far,
}


def package_warnings(
    package: Package,
    fx: FxTable | None = None,
    *,
    home_currency: str | None = None,
    band: Band | None = None,
) -> list[PlausibilityWarning]:
    """Return the warnings about ``package`` (children prefetched, as `package_get` does).

    ``fx`` defaults to every rate the package's owner can see; ``band`` to the band
    `band_for` picks for the package's level, currency and location.
    """
    if fx is None:
        fx = FxTable(fx_list(user=package.owner), package.owner_id)
    if band is None and package.level_id is not None:
        band = band_for(
            user=package.owner,
            level=package.level,
            currency=package.currency,
            location=package.location.name if package.location else None,
        )
    facts = Facts(package=package, fx=fx, home_currency=home_currency, band=band)
    return [
        PlausibilityWarning(code, message)
        for code, find in CHECKS.items()
        for message in find(facts)
    ]


def message_warnings(
    request: HttpRequest, package: Package, *, home_currency: str | None = None
) -> list[PlausibilityWarning]:
    """After a save: say that some entries look unusual (the page it leads to lists them)."""
    warnings = package_warnings(package, home_currency=home_currency)
    if warnings:
        messages.warning(
            request,
            ngettext(
                "Saved, but one entry looks unusual: %(first)s",
                "Saved, but %(n)d entries look unusual; see “Worth a second look”. First: "
                "%(first)s",
                len(warnings),
            )
            % {"n": len(warnings), "first": warnings[0].message},
        )
    return warnings
