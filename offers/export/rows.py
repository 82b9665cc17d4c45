"""The rows of a comparison, typed: one TypedDict per list of `Comparison` (its JSON schema's).

The assumption rows' keys are the terms table's (`offers.export.columns.TERMS`).

TypedDicts, not dataclasses: a row is the plain dict the JSON document, the writers and the
templates read, key for key in this order; the types only say which keys it has.
"""

from __future__ import annotations

from typing import Any, TypedDict


class ComparisonMeta(TypedDict):
    """Who the comparison is for and on what basis it values the options."""

    generated_at: str
    user: str
    home_currency: str
    basis: str
    basis_label: str
    window_start: str
    window_end: str
    horizon_years: int
    risk_percentile: int
    weights: dict[str, float]


class CriterionRow(TypedDict):
    """One ranking criterion's score for an option."""

    score: float
    weight: float
    contribution: float
    explanation: str


class OptionRow(TypedDict):
    """One option: its terms, headline values in home currency and place in the ranking."""

    key: str
    name: str
    company: str
    kind: str
    status: str
    level: str
    location: str
    remote_policy: str
    remote_weeks_per_year: float
    overlap_hours: float | None
    start_date: str | None
    deadline: str | None
    currency: str
    fx_to_home: float
    tax_rate_pct: float | None
    tax_rule: str
    rank: int | None
    score: float | None
    comp_value_home: float | None
    bridge_home: float
    first_year_home: float | None
    # What the letter states, on the same basis (`offers.letter`): no assumed refreshers,
    # raises or growth.
    letter_value_home: float | None
    horizon_total_home: float | None
    excluded: bool
    exclusion_reasons: list[str]
    error: str
    notes: str
    criteria: dict[str, CriterionRow]
    # No tax rule and no tax location: the after-tax figures count no tax.
    tax_unknown: bool
    # A draft: the terms expected, not an offer in hand.
    not_an_offer_yet: bool


class YearlyRow(TypedDict):
    """One amount: (option_key, year, component, basis) is a key."""

    option_key: str
    option: str
    year: int
    component: str
    basis: str
    currency: str
    in_home_currency: bool
    amount: float


# The terms and stock assumptions an option is valued with: one key per column of
# `offers.export.columns.TERMS`, in its order (the table is their one list).
AssumptionRow = dict[str, Any]


class VestingRow(TypedDict):
    """One grant or refresher of an option and its schedule, each amount with its currency.

    ``value`` is as version 2 first stated it: a grant's in the option's currency, a
    refresher's (a year's) in the price's. ``price_value`` is the same in ``price_currency``
    (the share price's, as ``price``), ``home_value`` in ``home_currency``, at
    ``fx_price_to_home`` (one unit of the price's currency in home currency).
    """

    option_key: str
    option: str
    kind: str
    label: str
    value: float
    shares: float | None
    price: float | None
    first_year: int | None
    start: str | None
    end: str | None
    schedule: str
    price_currency: str
    price_value: float
    home_currency: str
    fx_price_to_home: float
    home_value: float


class FxRateRow(TypedDict):
    """One rate an option's currency converts into home currency with."""

    currency: str
    to_currency: str
    rate: float


class NegotiationRow(TypedDict):
    """One negotiation point of an option."""

    option_key: str
    option: str
    priority: int
    title: str
    ask_amount: float | None
    ask_currency: str
    ask_term: str
    trigger: str
    evidence: str
    rule: str
    figures: dict[str, float | str]


class PlanRow(TypedDict):
    """One line of an option's negotiation plan, as the XLSX and the report show it.

    ``part`` is "ask" (``order`` 1 to 3, its amount in ``currency`` and where it stands in the
    log) or "background" (no amount).
    """

    option_key: str
    option: str
    part: str
    order: int | None
    title: str
    amount: float | None
    currency: str
    per_year: bool
    term: str
    status: str
    note: str


class ScenarioRow(TypedDict):
    """One what-if scenario of an option, with its stored Monte Carlo result.

    Between ``name`` and ``mc_status`` the row holds one key per scenario adjustment, in the
    order of the registry (`offers.scenarios.adjustments.ADJUSTMENTS`), valued as its unit
    says (`offers.export.columns.Unit`): a number, a level's code or an ISO date. The
    registry is their one list; the JSON schema names each (a test compares them). Money is
    in the option's currency, stock amounts (`Unit.STOCK`) in ``stock_currency``.
    """

    option_key: str
    option: str
    name: str
    stock_currency: str
    mc_status: str
    mc_result: dict[str, Any]
    notes: str


class ProcessRow(TypedDict):
    """One interview process."""

    process_key: str
    company: str
    role: str
    team: str
    stage: str
    priority: int
    source: str
    first_contact: str | None
    deadline: str | None
    target_level: str
    offered_level: str
    rounds: int
    debrief_decision: str
    next_step: str


class RoundRow(TypedDict):
    """One interview round and its questions."""

    process_key: str
    company: str
    role: str
    order: int
    kind: str
    scheduled_at: str | None
    timezone: str
    duration_minutes: int
    mode: str
    interviewer: str
    signal: str
    self_assessment: int | None
    questions: list[str]
