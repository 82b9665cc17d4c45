"""The scenario adjustments: one registry, and the change to terms a scenario proposes.

Each `Adjustment` is a `Scenario` field: its label, its unit (which also decides how an
export formats it and the currency an amount is in: pay in the offer's pay currency, stock in
the scenario's `stock_currency`, the grant's price currency), what it changes (the package's terms through
`compensation.terms.TermsChange`, the option's own terms such as remote weeks, or only the
market assumptions of the valuation) and its value once the scenario is accepted. The model's
editable fields, the form, the services (creating, updating, accepting), the Monte Carlo cache
key, the valuation and the exports (the JSON and XLSX columns, the report's table) read this
registry; `scenario_change` is the one place a scenario becomes a change, so the value it
shows is the value accepting it writes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from compensation.selectors import package_terms
from compensation.terms import Money, TermsChange
from offers.export.columns import Unit
from offers.models import Offer, Scenario


class Applies:
    """What an adjustment changes."""

    TERMS = "terms"  # the package's terms: written into the offer when accepted
    OPTION = "option"  # the option's own terms (remote weeks): written when accepted
    MARKET = "market"  # the valuation's share-price assumptions: never written


@dataclasses.dataclass(frozen=True)
class Adjustment:
    """One scenario adjustment: a `Scenario` field and how it applies."""

    key: str
    unit: Unit
    applies: str
    # The `TermsChange` fields it sets, from its value and the scenario (TERMS only).
    change: Callable[[Any, Scenario], dict[str, Any]] | None = None
    # Its value once accepted: the terms now live in the offer, so nothing counts twice.
    reset: Any = None
    # Its column heading in the exports (a lazy message id); None: the model field's verbose
    # name, capitalised.
    label: Any = None
    # Shown in the printable report's short table of scenarios (the money a scenario asks).
    in_report: bool = False

    @property
    def attname(self) -> str:
        """Return the model attribute holding the value (a foreign key's id)."""
        return f"{self.key}_id" if self.unit == Unit.LEVEL else self.key

    def currency(self, scenario: Scenario) -> str | None:
        """Return the currency its amount is in (None: not money)."""
        if self.unit == Unit.PAY:
            return str(scenario.offer.package.currency)
        if self.unit == Unit.STOCK:
            return str(scenario.stock_currency)
        return None

    @property
    def heading(self) -> str:
        """Return the column heading in the active language."""
        if self.label is not None:
            return str(self.label)
        return capfirst(str(Scenario._meta.get_field(self.key).verbose_name))


def _pay(value: Any, scenario: Scenario) -> Money:
    return Money(Decimal(value), scenario.offer.package.currency)


def _stock(value: Any, scenario: Scenario) -> Money:
    return Money(Decimal(value), scenario.stock_currency)


ADJUSTMENTS: tuple[Adjustment, ...] = (
    Adjustment(
        "base",
        Unit.PAY,
        Applies.TERMS,
        lambda v, s: {"base": _pay(v, s)},
        label=_("Base"),
        in_report=True,
    ),
    Adjustment(
        "raise_pct", Unit.PCT, Applies.TERMS, lambda v, s: {"raise_pct": v}, label=_("Raise %")
    ),
    Adjustment(
        "extra_sign_on",
        Unit.PAY,
        Applies.TERMS,
        lambda v, s: {"extra_sign_on": _pay(v, s)} if v else {},
        reset=Decimal("0"),
        label=_("Extra sign-on"),
        in_report=True,
    ),
    Adjustment(
        "extra_stock_yearly",
        Unit.STOCK,
        Applies.TERMS,
        lambda v, s: {"extra_stock_yearly": _stock(v, s)} if v else {},
        reset=Decimal("0"),
        label=_("Extra stock a year"),
        in_report=True,
    ),
    Adjustment(
        "refresher_yearly",
        Unit.STOCK,
        Applies.TERMS,
        lambda v, s: {"refresher_yearly": _stock(v, s)},
        label=_("Refreshers a year"),
    ),
    Adjustment("level", Unit.LEVEL, Applies.TERMS, lambda v, s: {"level": v}, label=_("Level")),
    Adjustment("remote_weeks_per_year", Unit.WEEKS, Applies.OPTION, label=_("Remote weeks")),
    Adjustment(
        "start_date",
        Unit.DATE,
        Applies.TERMS,
        # A new job's grants start with it; a transfer and staying keep the ones they hold.
        lambda v, s: {"start_date": v, "move_grants": s.offer.kind == Offer.Kind.EXTERNAL},
        label=_("Start"),
    ),
    Adjustment("growth_pct", Unit.PCT, Applies.MARKET, label=_("Growth %")),
    Adjustment("volatility_pct", Unit.PCT, Applies.MARKET, label=_("Volatility %")),
)

# The scenario's editable fields, in the form's order.
SCENARIO_FIELDS = ("name", *(a.key for a in ADJUSTMENTS), "notes")
# The field naming the currency of the `Unit.STOCK` amounts (set by the services, not typed).
STOCK_CURRENCY = "stock_currency"
# The scenario fields its figures depend on (the valuation's and the Monte Carlo's cache keys):
# every adjustment and the currency its stock amounts are in.
VALUED_FIELDS = (*(a.attname for a in ADJUSTMENTS), STOCK_CURRENCY)


def offer_stock_currency(offer: Offer) -> str:
    """Return the currency a new scenario's stock amounts are in: a new grant's.

    That is the first grant's price currency, else the stock's (the company's share-price
    currency), else the pay currency (`PackageTerms.grant_currency`).
    """
    return package_terms(offer.package).grant_currency()


def scenario_change(
    scenario: Scenario,
    *,
    granted_on: dt.date | None = None,
    more_stock: float = 0.0,
    more_base: float = 0.0,
    more_sign_on: float = 0.0,
) -> TermsChange:
    """Return the change to the offer's terms the scenario proposes (``more_*``: probes).

    The probes add to the scenario's own stock a year (in its stock currency), base and
    sign-on (in the offer's pay currency): the flip finder and the walk-away search. A grant
    the scenario adds is made on ``granted_on`` (the decision date).
    """
    offer = scenario.offer
    label = f"Negotiated: {scenario.name}"[:80]
    fields: dict[str, Any] = {"grant_label": label, "granted_on": granted_on}
    for adjustment in ADJUSTMENTS:
        value = getattr(scenario, adjustment.key)
        if adjustment.change is not None and value is not None:
            fields.update(adjustment.change(value, scenario))
    pay, stock = offer.package.currency, scenario.stock_currency
    probes = (
        ("extra_stock_yearly", more_stock, Money(Decimal("0"), stock)),
        ("base", more_base, Money(offer.package.base, pay)),
        ("extra_sign_on", more_sign_on, Money(Decimal("0"), pay)),
    )
    for name, more, default in probes:
        if more:
            held = fields.get(name, default)
            fields[name] = Money(held.amount + Decimal(str(more)), held.currency)
    return TermsChange(**fields)


def option_terms(scenario: Scenario) -> dict[str, Any]:
    """Return the option's own terms the scenario sets (accepting writes them onto the offer)."""
    return {
        a.key: value
        for a in ADJUSTMENTS
        if a.applies == Applies.OPTION and (value := getattr(scenario, a.key)) is not None
    }


def accepted_resets() -> dict[str, Any]:
    """Return the scenario's adjustments as they are once accepted into the offer."""
    return {a.key: a.reset for a in ADJUSTMENTS if a.applies != Applies.MARKET}
