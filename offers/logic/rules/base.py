"""What every negotiation rule shares: the facts it reads, the point it raises, its protocol.

Money asks are computed in the offer's currency; home-currency gaps are converted with
``fx_offer_to_home`` (home amount = offer amount x fx). What a script says is said in the
term's own currency and rounded as people speak: stock in the grant's price currency to the
nearest 5,000, a base to the nearest 1,000 (``said_amount``, ``stock_said``, ``about``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from offers.logic.criteria import money as money  # re-exported: the rules format money here
from offers.logic.i18n import gettext as _

# The kinds of option a rule can be for (the values of ``offers.models.Offer.Kind``).
EXTERNAL = "external"
INTERNAL = "internal"
STAY = "stay"
OPTION_KINDS: frozenset[str] = frozenset({EXTERNAL, INTERNAL, STAY})

EVIDENCE_STRENGTH = {"offer_in_hand": 3, "active_process": 2, "band_median": 1}

# What part of the package a rule's ask is about (a plan asks each component at most once).
# Money components: stock and base are asked per year, sign-on and cash once (cash: a total
# over the horizon); the others are terms.
STOCK = "stock"
BASE = "base"
SIGN_ON = "sign_on"
CASH = "cash"
LEVEL = "level"
REMOTE = "remote"
HOURS = "hours"
START = "start_date"
DEADLINE = "deadline"
RELOCATION = "relocation"
RETENTION = "retention"
# Keeping the refresh cycle and the current grants through a transfer: a term, not money.
REFRESH = "refresh"
MONEY_COMPONENTS: tuple[str, ...] = (STOCK, SIGN_ON, RETENTION, CASH, BASE)
PER_YEAR_COMPONENTS: frozenset[str] = frozenset({STOCK, BASE})
# Components whose asks are stock: said in the grant's own currency.
STOCK_COMPONENTS: frozenset[str] = frozenset({STOCK, RETENTION})
# A scenario meets an ask when it is within half a unit of it (asks are shown rounded).
ASK_TOLERANCE = 0.5
# The round figures a person asks for (``ask_step``, units of the term's own currency): stock
# (and a retention grant, which is stock) to the nearest 5,000, cash to the nearest 1,000.
# Figures quoted as context (what leaving forfeits, a vest kept) are rounded by their size
# (``said_step``): "USD 750,000", "USD 71,000".
# The outcomes of a logged ask (the values of ``offers.models.NegotiationEntry.Outcome``).
PENDING = "pending"
ACCEPTED = "accepted"
REFUSED = "refused"
COUNTERED = "countered"
# Interview signals a recruiter may hear about, summarised, never counted: a loop with only
# these signals "went well"; with a majority of the first, the feedback "supports" the level.
STRONG_SIGNAL = "strong_hire"
POSITIVE_SIGNALS = (STRONG_SIGNAL, "hire")


@dataclass(frozen=True)
class BandFacts:
    """The pay band of the offered level (yearly figures, offer currency)."""

    level_code: str
    base_mid: float
    base_max: float
    stock_mid: float
    stock_max: float
    next_level_code: str | None = None
    next_level_stock_mid: float | None = None
    next_level_stock_max: float | None = None


@dataclass(frozen=True, kw_only=True)
class OfferFacts:
    """One offer as plain figures: offer-currency pay, home-currency yearly totals."""

    key: str
    name: str
    company: str
    currency: str
    yearly_totals: tuple[float, ...]
    yearly_home: tuple[float, ...]
    base: float
    stock_per_year: float
    kind: str = EXTERNAL
    sign_on_total: float = 0.0
    level_code: str | None = None
    level_order: int | None = None
    target_level_code: str | None = None
    target_level_order: int | None = None
    band: BandFacts | None = None
    remote_weeks_allowed: float = 0.0
    relocation_required: bool = False
    relocation_amount: float | None = None
    overlap_hours: float = 8.0
    # The team's IANA time zone (the model's default when a test leaves it out).
    work_zone: str = "America/Los_Angeles"
    start_date: date | None = None
    deadline: date | None = None
    vesting_year_weights: tuple[float, ...] = ()
    # The package's stock grants (a transfer's: the grants it keeps) and refresher rows.
    grant_count: int = 0
    refresher_count: int = 0
    is_private: bool = False
    volatility_pct: float | None = None
    p10_cumulative: float | None = None
    p50_cumulative: float | None = None
    signals: tuple[str, ...] = ()
    shareable: bool = True
    # The stock's own currency (a grant's price currency: USD for a US-listed company whatever
    # the pay's) and how many units of the offer currency one unit of it buys. Empty: the
    # offer's currency.
    stock_currency: str = ""
    fx_stock_to_offer: float = 1.0
    # Whether the offer is in hand (received, negotiating, accepted): a draft's figures are
    # expected, not offered, and nothing is asked before the offer comes.
    in_hand: bool = True
    # Whether the interview loop still has rounds ahead: its feedback is not final.
    rounds_ahead: bool = False
    # The first window year's value (home currency, the board's basis) at another base, from
    # the engine (None: not known): the base below which a first-year floor breaks.
    first_year_at_base: Callable[[float], float] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def grant_currency(self) -> str:
        """Return the currency a stock ask is said in: the stock's own, else the offer's."""
        return self.stock_currency or self.currency


@dataclass(frozen=True, kw_only=True)
class CurrentJobFacts:
    """The current job (home currency): pay if staying and what leaving forfeits."""

    yearly_totals_if_stay: tuple[float, ...]
    unvested_forfeited_by_year: tuple[tuple[int, float], ...] = ()
    unvested_total: float = 0.0
    sign_on_clawback: float = 0.0
    next_vest_date: date | None = None
    next_vest_value: float = 0.0
    # Today's base of the job held, in home currency (0: not known).
    base_home: float = 0.0
    # The current job's pay and stock currencies and their rates to home (one unit buys this
    # much home currency): what leaving forfeits is said in the stock's own currency. Empty:
    # the home currency.
    currency: str = ""
    fx_to_home: float = 1.0
    stock_currency: str = ""
    fx_stock_to_home: float = 1.0


@dataclass(frozen=True, kw_only=True)
class AlternativeFacts:
    """Another option the user can point to (home currency)."""

    name: str
    company: str
    value: float
    first_year: float
    evidence_kind: str
    kind: str = EXTERNAL
    shareable: bool = True
    next_round_date: date | None = None
    # The process's stage as a message id (the model's label, untranslated): said through the
    # catalogue in the language of the message that names it.
    stage: str = ""
    # Whether it meets the user's hard constraints (the ranking excludes it otherwise).
    meets_constraints: bool = True


@dataclass(frozen=True, kw_only=True)
class NegotiationPrefs:
    """The user's needs and the conversion between offer and home currency."""

    required_remote_weeks: float = 0.0
    money_per_remote_week: float | None = None
    min_overlap_hours: float = 0.0
    home_currency: str = "USD"
    horizon_years: int = 4
    fx_offer_to_home: float = 1.0
    # The saved home time zone (IANA; the model's default when a test leaves it out): a draft
    # says where the user works from and its UTC offset on the draft's day.
    home_zone: str = "Asia/Taipei"


@dataclass(frozen=True, kw_only=True)
class LoggedAsk:
    """One ask already made on the option, from the negotiation log, and what came back.

    ``topic`` is the part of the package it was about, as a component (``STOCK``, ``LEVEL``,
    ``DEADLINE``...; "" for something else); ``channel`` the label of whom it went through as
    a message id; ``revised`` the components the answer changed (the offer's terms already
    carry them).
    """

    topic: str
    asked_on: date
    channel: str = ""
    contact: str = ""
    outcome: str = PENDING
    answered_on: date | None = None
    answer: str = ""
    revised: tuple[str, ...] = ()
    revised_level: str | None = None
    revised_deadline: date | None = None

    @property
    def waiting(self) -> bool:
        """Return whether the ask still waits for an answer."""
        return self.outcome == PENDING

    def about(self, components: frozenset[str]) -> bool:
        """Return whether the ask, or what came back, is about one of the components."""
        return self.topic in components or bool(components & set(self.revised))


@dataclass(frozen=True, kw_only=True)
class NegotiationContext:
    """Everything the rules look at for one offer (``log``: the asks already made, oldest first)."""

    offer: OfferFacts
    current: CurrentJobFacts | None
    alternatives: tuple[AlternativeFacts, ...] = ()
    prefs: NegotiationPrefs = field(default_factory=NegotiationPrefs)
    today: date
    log: tuple[LoggedAsk, ...] = ()

    def last_logged(self, *components: str) -> LoggedAsk | None:
        """Return the latest logged ask about one of the components (None: never asked)."""
        wanted = frozenset(components)
        found = [a for a in self.log if a.about(wanted)]
        return max(found, key=lambda a: (a.answered_on or a.asked_on, a.asked_on), default=None)


@dataclass(frozen=True, kw_only=True)
class NegotiationPoint:
    """One thing to ask for, why, and what to say (a term asks no amount: ``ask_amount`` None)."""

    rule: str
    title: str
    trigger: str
    priority: int
    evidence: str
    figures: dict[str, float | str]
    ask_amount: float | None = None
    ask_currency: str | None = None
    ask_term: str | None = None
    # The part of the package asked for (filled from the rule when the rule leaves it empty).
    component: str | None = None
    # What the user would say without the amount (a plan states its own amount after it).
    reason: str = ""
    # For the user only, never said to the recruiter (weights, scores, private figures).
    private: str = ""
    # Other parts of the package whose logged asks answer this one (a down-level's stock ask
    # is also an ask about the level).
    topics: tuple[str, ...] = ()
    # The ask as it is shown: a stock ask in the grant's price currency, any other in the
    # offer's (``ask_amount`` stays in the offer's currency, which the plan computes in).
    # Filled by ``negotiation_points``.
    said_amount: float | None = None
    said_in: str | None = None


@dataclass(frozen=True, kw_only=True)
class ScenarioAdjustment:
    """The scenario fields that play out an ask (None: left as the offer has them)."""

    extra_stock_yearly: Decimal | None = None
    extra_sign_on: Decimal | None = None
    base_increase: Decimal | None = None
    remote_weeks_per_year: int | None = None
    start_date: date | None = None
    to_target_level: bool = False


@dataclass(frozen=True, kw_only=True)
class ScenarioOutcome:
    """What a scenario changed and what that did to the offer's value (home currency).

    ``target_level_order`` is the equivalence of the offer's own target level (99 when the
    level has none), or None when the offer names no target level.
    """

    extra_stock_yearly: float = 0.0
    extra_sign_on: float = 0.0
    base_increase: float = 0.0
    level_code: str | None = None
    level_order: int | None = None
    target_level_order: int | None = None
    start_date: date | None = None
    remote_weeks: float = 0.0
    value_gain_home: float = 0.0
    grant_years: int = 4
    horizon_years: int = 4


class NegotiationRule(Protocol):
    """One negotiation rule: when it fires, its ask, how a scenario plays it, when it is met."""

    key: str

    @property
    def component(self) -> str | None:
        """Return the part of the package the rule's ask is about (None: not an ask)."""

    def applies(self, kind: str) -> bool:
        """Return whether the rule is for this kind of option."""

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Return the point the rule raises on this offer, or None."""

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Return the scenario fields that play out the point's ask (None: nothing to model)."""

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether a scenario meets the point's ask (None when it cannot say)."""


class Rule:
    """Defaults for a rule: for every kind of option, nothing to play out, cannot say."""

    key: str = ""
    kinds: frozenset[str] = OPTION_KINDS
    # The part of the package the ask is about (None: not an ask, e.g. a verdict).
    component: str | None = None

    def applies(self, kind: str) -> bool:
        return kind in self.kinds

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        raise NotImplementedError

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        return None

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        return None


class SignOnAsk(Rule):
    """A rule whose ask is cash once: played out as an extra sign-on, answered when it covers it."""

    # A sign-on is a new employer's to pay: one's own (a transfer, staying) pays none.
    kinds = frozenset({EXTERNAL})
    component = SIGN_ON

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        return money_adjustment(point, self.component)

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        return money_met(point, outcome, self.component)


class GapAsk(SignOnAsk):
    """A sign-on ask that closes a value gap: answered when the scenario adds the gap in value."""

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        gap = point.figures.get("gap_home")
        return meets(outcome.value_gain_home, gap) if isinstance(gap, float) else None


def percent(share: float) -> str:
    """Return a fraction (0.25) as a percentage ('25%')."""
    return f"{share:.0%}"


def schedule_words(weights: tuple[float, ...]) -> str:
    """Return vesting weights (fractions or percentages) as '20%/25%/25%/30%'."""
    total = sum(weights)
    return "/".join(percent(w / total) for w in weights) if total > 0 else ""


def band_position(ratio: float, *, at_top: bool = False) -> str:
    """Return where pay sits in its band, in plain words, from its ratio to the midpoint."""
    if at_top:
        return _("at the top of the band")
    if ratio < 0.9:
        return _("below the middle of the band")
    if ratio <= 1.1:
        return _("around the middle of the band")
    return _("above the middle of the band")


def count_word(n: int) -> str:
    """Return a small count as a word."""
    words: tuple[str, ...] = (_("zero"), _("one"), _("two"), _("three"), _("four"))
    words += (_("five"), _("six"), _("seven"), _("eight"), _("nine"))
    return words[n] if 0 <= n < len(words) else str(n)


def round_to(amount: float, step: float) -> float:
    """Return an amount rounded to the nearest multiple of step (halves up)."""
    return float(math.floor(amount / step + 0.5) * step) if step > 0 else amount


def said_step(amount: float) -> float:
    """Return the step a figure quoted as context is rounded to: two or three figures."""
    size = abs(amount)
    return 10_000.0 if size >= 100_000 else 1_000.0 if size >= 10_000 else 100.0


def about(amount: float, currency: str, step: float | None = None) -> str:
    """Return an amount as a person says it: rounded (to ``step``, else by size), with its currency."""
    return money(round_to(amount, step if step is not None else said_step(amount)), currency)


def ask_step(component: str) -> float:
    """Return the round figure an ask of this component is rounded to."""
    return 5_000.0 if component in STOCK_COMPONENTS else 1_000.0


def said_currency(ctx: NegotiationContext, component: str | None) -> tuple[str, float]:
    """Return the currency an ask of the component is said in and its rate to the offer's.

    Stock (and a retention grant) is said in the grant's price currency: a US-listed
    company's RSUs are granted in USD whatever the salary's currency.
    """
    offer = ctx.offer
    if component in STOCK_COMPONENTS and offer.fx_stock_to_offer > 0:
        return offer.grant_currency, offer.fx_stock_to_offer
    return offer.currency, 1.0


def point_said(ctx: NegotiationContext, point: NegotiationPoint) -> NegotiationPoint:
    """Return the point with its money ask as it is shown (stock in the grant's currency)."""
    if point.ask_amount is None:
        return point
    if point.component not in STOCK_COMPONENTS:
        return replace(point, said_amount=point.ask_amount, said_in=point.ask_currency)
    currency, fx = said_currency(ctx, point.component)
    return replace(point, said_amount=point.ask_amount / fx, said_in=currency)


def stock_said(ctx: NegotiationContext, offer_amount: float, step: float = 5_000.0) -> str:
    """Return an offer-currency stock figure as said: in the grant's currency, rounded."""
    offer = ctx.offer
    fx = offer.fx_stock_to_offer if offer.fx_stock_to_offer > 0 else 1.0
    return about(offer_amount / fx, offer.grant_currency, step)


def held_in(ctx: NegotiationContext, home: float, *, stock: bool = False) -> tuple[float, str]:
    """Return a home-currency amount of the current job's pay (or stock) in its currency."""
    current = ctx.current
    currency = (current.stock_currency if stock else current.currency) if current else ""
    if current is None or not currency:
        return home, ctx.prefs.home_currency
    fx = current.fx_stock_to_home if stock else current.fx_to_home
    return home / (fx if fx > 0 else 1.0), currency


def held_said(ctx: NegotiationContext, home_amount: float, *, stock: bool = False) -> str:
    """Return a home-currency amount of the current job's pay (or stock) in its own currency."""
    return about(*held_in(ctx, home_amount, stock=stock))


def loop_words(offer: OfferFacts, target: str) -> str:
    """Return what a recruiter may hear about the interview loop ("" when nothing helps).

    Only a finished loop of an offer in hand, with no signal below Hire, is quoted, and
    never as a count: the recruiter has the packet, and a weak round is theirs to raise.
    """
    if not offer.in_hand or offer.rounds_ahead or not offer.signals:
        return ""
    if any(s not in POSITIVE_SIGNALS for s in offer.signals):
        return ""
    strong = sum(1 for s in offer.signals if s == STRONG_SIGNAL)
    if strong * 2 > len(offer.signals):
        return _("the team's feedback supports {target}").format(target=target)
    return _("the loop went well")


def to_offer(ctx: NegotiationContext, home_amount: float) -> float:
    """Return a home-currency amount in the offer's currency."""
    return home_amount / ctx.prefs.fx_offer_to_home


def horizon_sum(values: tuple[float, ...], years: int) -> float:
    """Return the sum of the first years of a yearly series."""
    return float(sum(values[:years]))


def offer_value_home(ctx: NegotiationContext) -> float:
    """Return the offer's value over the horizon in home currency."""
    return horizon_sum(ctx.offer.yearly_home, ctx.prefs.horizon_years)


def whole_ask(point: NegotiationPoint) -> Decimal | None:
    """Return the point's money ask rounded to a whole unit (None without one)."""
    if point.ask_amount is None:
        return None
    return Decimal(str(round(point.ask_amount)))


def meets(amount: float, ask: float) -> bool:
    """Return whether an amount covers an ask (to within the rounding of the ask)."""
    return amount >= ask - ASK_TOLERANCE


def _played_as(point: NegotiationPoint, component: str | None) -> str:
    """Return the scenario field a money ask is played in: its part's (the point's, else the
    rule's), stock or base a year, else a sign-on (the plan asks private stock in cash)."""
    part = point.component or component or ""
    return {STOCK: "extra_stock_yearly", BASE: "base_increase"}.get(part, "extra_sign_on")


def money_adjustment(
    point: NegotiationPoint, component: str | None, level: bool = False
) -> ScenarioAdjustment | None:
    """Play the money ask out (nothing without one); ``level``: at the target level too."""
    ask = whole_ask(point)
    played: dict[str, Any] = {_played_as(point, component): ask}
    return replace(ScenarioAdjustment(to_target_level=level), **played) if ask else None


def money_met(
    point: NegotiationPoint, outcome: ScenarioOutcome, component: str | None
) -> bool | None:
    """Return whether a scenario covers the money ask where it is played (None: no ask)."""
    if point.ask_amount is None:
        return None
    return meets(getattr(outcome, _played_as(point, component)), point.ask_amount)
