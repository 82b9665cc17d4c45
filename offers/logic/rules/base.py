"""What every negotiation rule shares: the facts it reads, the point it raises, its protocol.

Money asks are in the offer's currency (what you say to the recruiter); home-currency gaps
are converted with ``fx_offer_to_home`` (home amount = offer amount x fx).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Protocol

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
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# A scenario meets an ask when it is within half a unit of it (asks are shown rounded).
ASK_TOLERANCE = 0.5


@dataclass(frozen=True)
class BandFacts:
    """The pay band of the offered level (yearly figures, offer currency)."""

    level_code: str
    base_min: float
    base_mid: float
    base_max: float
    stock_min: float
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


@dataclass(frozen=True, kw_only=True)
class CurrentJobFacts:
    """The current job (home currency): pay if staying and what leaving forfeits."""

    yearly_totals_if_stay: tuple[float, ...]
    unvested_forfeited_by_year: tuple[tuple[int, float], ...] = ()
    unvested_total: float = 0.0
    sign_on_clawback: float = 0.0
    next_vest_date: date | None = None
    next_vest_value: float = 0.0


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
    stage: str = ""


@dataclass(frozen=True, kw_only=True)
class NegotiationPrefs:
    """The user's needs and the conversion between offer and home currency."""

    required_remote_weeks: float = 0.0
    money_per_remote_week: float | None = None
    min_overlap_hours: float = 0.0
    home_currency: str = "USD"
    horizon_years: int = 4
    fx_offer_to_home: float = 1.0


@dataclass(frozen=True, kw_only=True)
class NegotiationContext:
    """Everything the rules look at for one offer."""

    offer: OfferFacts
    current: CurrentJobFacts | None
    alternatives: tuple[AlternativeFacts, ...] = ()
    prefs: NegotiationPrefs = field(default_factory=NegotiationPrefs)
    today: date


@dataclass(frozen=True)
class NegotiationPoint:
    """One thing to ask for, why, and what to say."""

    rule: str
    title: str
    trigger: str
    ask_amount: float | None
    ask_currency: str | None
    ask_term: str | None
    priority: int
    evidence: str
    figures: dict[str, float | str]
    # The part of the package asked for (filled from the rule when the rule leaves it empty).
    component: str | None = None
    # What the user would say without the amount (a plan states its own amount after it).
    reason: str = ""
    # For the user only, never said to the recruiter (weights, scores, private figures).
    private: str = ""


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
        ...

    def applies(self, kind: str) -> bool:
        """Return whether the rule is for this kind of option."""
        ...

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Return the point the rule raises on this offer, or None."""
        ...

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Return the scenario fields that play out the point's ask (None: nothing to model)."""
        ...

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether a scenario meets the point's ask (None when it cannot say)."""
        ...


class Rule:
    """Defaults for a rule: for every kind of option, nothing to play out, cannot say."""

    key: str = ""
    kinds: frozenset[str] = OPTION_KINDS
    # The part of the package the ask is about (None: not an ask, e.g. a verdict).
    component: str | None = None

    def applies(self, kind: str) -> bool:
        """Return whether the rule is for this kind of option."""
        return kind in self.kinds

    def evaluate(self, ctx: NegotiationContext) -> NegotiationPoint | None:
        """Return the point the rule raises on this offer, or None."""
        raise NotImplementedError

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Return the scenario fields that play out the point's ask (None: nothing to model)."""
        return None

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether a scenario meets the point's ask (None when it cannot say)."""
        return None


class SignOnAsk(Rule):
    """A rule whose ask is cash once: played out as an extra sign-on, answered when it covers it."""

    def scenario_adjustment(self, point: NegotiationPoint) -> ScenarioAdjustment | None:
        """Play the ask out as an extra sign-on."""
        return sign_on_adjustment(point)

    def answered(self, point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
        """Return whether the extra sign-on covers the ask."""
        if point.ask_amount is None:
            return None
        return meets(outcome.extra_sign_on, point.ask_amount)


def percent(share: float) -> str:
    """Return a fraction (0.25) as a percentage ('25%')."""
    return f"{share:.0%}"


def schedule_words(weights: tuple[float, ...]) -> str:
    """Return vesting weights (fractions or percentages) as '20%/25%/25%/30%'."""
    total = sum(weights)
    if total <= 0:
        return ""
    return "/".join(percent(w / total) for w in weights)


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
    words = (
        _("zero"),
        _("one"),
        _("two"),
        _("three"),
        _("four"),
        _("five"),
        _("six"),
        _("seven"),
        _("eight"),
        _("nine"),
    )
    return words[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


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


def sign_on_adjustment(point: NegotiationPoint) -> ScenarioAdjustment | None:
    """Play the ask out as an extra sign-on (nothing when there is no money ask)."""
    ask = whole_ask(point)
    return ScenarioAdjustment(extra_sign_on=ask) if ask else None


def gap_answered(point: NegotiationPoint, outcome: ScenarioOutcome) -> bool | None:
    """Return whether the scenario adds at least the point's home-currency gap in value."""
    gap = point.figures.get("gap_home")
    if isinstance(gap, float):
        return meets(outcome.value_gain_home, gap)
    return None
