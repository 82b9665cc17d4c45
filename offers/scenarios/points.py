"""Negotiation points in a scenario: the rules' asks played out, and whether a scenario meets them.

The rules themselves decide (``offers.logic.rules``); this module only turns their pure
adjustments into scenario fields and a scenario into the pure facts they judge.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from compensation.selectors import FxTable, terms_rate
from compensation.terms import CENTS, Money
from offers.board import Evaluation
from offers.logic.plan import Plan
from offers.logic.rules import rule_for
from offers.logic.rules.base import NegotiationPoint, ScenarioAdjustment, ScenarioOutcome
from offers.models import Offer, Scenario
from offers.scenarios.adjustments import STOCK_CURRENCY, offer_stock_currency


def point_adjustments(point: NegotiationPoint, offer: Offer) -> dict[str, Any] | None:
    """Return the scenario fields that play out a point's ask (None: nothing to model)."""
    rule = rule_for(point.rule)
    adjustment = rule.scenario_adjustment(point) if rule is not None else None
    if adjustment is None:
        return None
    return _fields(adjustment, offer, point.title)


def _combined(adjustments: list[ScenarioAdjustment]) -> ScenarioAdjustment:
    """Return one adjustment carrying several asks (money adds up; terms take the last set)."""

    def total(name: str) -> Decimal | None:
        values = [getattr(a, name) for a in adjustments if getattr(a, name) is not None]
        return sum(values, Decimal(0)) if values else None

    def last(name: str) -> Any:
        return next((getattr(a, name) for a in reversed(adjustments) if getattr(a, name)), None)

    return ScenarioAdjustment(
        extra_stock_yearly=total("extra_stock_yearly"),
        extra_sign_on=total("extra_sign_on"),
        base_increase=total("base_increase"),
        remote_weeks_per_year=last("remote_weeks_per_year"),
        start_date=last("start_date"),
        to_target_level=any(a.to_target_level for a in adjustments),
    )


def plan_adjustments(plan: Plan, offer: Offer) -> dict[str, Any] | None:
    """Return the scenario fields that play out every ask of a plan (None: nothing to model).

    A stock ask lands as the plan says it: its round figure a year in the grant's currency.
    """
    found = []
    said: list[Money] = []
    for ask in plan.asks:
        rule = rule_for(ask.rule)
        adjustment = rule.scenario_adjustment(ask.point) if rule is not None else None
        if adjustment is None:
            continue
        if adjustment.extra_stock_yearly is not None and ask.amount is not None and ask.currency:
            said.append(Money(Decimal(str(ask.amount)).quantize(CENTS), ask.currency))
            adjustment = replace(adjustment, extra_stock_yearly=None)
        found.append(adjustment)
    if not found:
        return None
    stock = None
    if said:
        # One stock ask in practice (the plan asks each component once); several add up in
        # the first one's currency.
        rate = terms_rate(offer.package)
        currency = said[0].currency
        total = sum((m.to(currency, rate) for m in said), Decimal(0))
        stock = Money(total.quantize(CENTS), currency)
    return _fields(_combined(found), offer, _("The plan's asks"), stock=stock)


def _stock_of(amount: Decimal, offer: Offer) -> Money:
    """Return a rule's stock a year (in the offer's pay currency) in the grant's currency.

    Without an exchange rate it stays in the pay currency, and the scenario says so.
    """
    pay = Money(amount, offer.package.currency)
    currency = offer_stock_currency(offer)
    try:
        return Money(pay.to(currency, terms_rate(offer.package)).quantize(CENTS), currency)
    except LookupError:
        return pay


def _fields(
    adjustment: ScenarioAdjustment, offer: Offer, name: str, *, stock: Money | None = None
) -> dict[str, Any]:
    """Return the scenario fields of an adjustment (``stock``: its stock a year as said)."""
    data: dict[str, Any] = {"name": name[:120]}
    if stock is None and adjustment.extra_stock_yearly is not None:
        stock = _stock_of(adjustment.extra_stock_yearly, offer)
    if stock is not None:
        data["extra_stock_yearly"] = stock.amount
        data[STOCK_CURRENCY] = stock.currency
    if adjustment.to_target_level and offer.target_level_id:
        data["level"] = offer.target_level
    if adjustment.extra_sign_on is not None:
        data["extra_sign_on"] = adjustment.extra_sign_on
    if adjustment.remote_weeks_per_year is not None:
        data["remote_weeks_per_year"] = adjustment.remote_weeks_per_year
    if adjustment.base_increase is not None:
        data["base"] = offer.package.base + adjustment.base_increase
    if adjustment.start_date is not None:
        data["start_date"] = adjustment.start_date
    return data


def scenario_outcome(
    scenario: Scenario, ev: Evaluation, original: Evaluation, *, fx: FxTable | None = None
) -> ScenarioOutcome:
    """Return what the scenario changed and what that did to its offer's value.

    Money is in the offer's pay currency, as the rules' asks are (``fx``: the board's rates).
    """
    offer = scenario.offer
    package_base = float(offer.package.base)
    stock = Money(scenario.extra_stock_yearly, scenario.stock_currency)
    stock_yearly = (
        stock.to(offer.package.currency, terms_rate(offer.package, fx)) if stock.amount else 0
    )
    base = float(scenario.base) if scenario.base is not None else package_base
    level = scenario.level if scenario.level_id else None
    target = offer.target_level if offer.target_level_id else None
    spec = ev.spec
    return ScenarioOutcome(
        extra_stock_yearly=float(stock_yearly),
        extra_sign_on=float(scenario.extra_sign_on),
        base_increase=base - package_base,
        level_code=level.code if level is not None else None,
        level_order=level.equivalence if level is not None else None,
        target_level_order=(target.equivalence or 99) if target is not None else None,
        start_date=scenario.start_date,
        remote_weeks=float(ev.remote_weeks),
        value_gain_home=ev.value - original.value,
        grant_years=spec.grants[0].schedule.years if spec and spec.grants else 4,
        horizon_years=spec.horizon_years if spec else 4,
    )


def point_answered(point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
    """Return whether the scenario meets a point's ask (None when it cannot say)."""
    rule = rule_for(point.rule)
    return rule.answered(point, outcome) if rule is not None else None
