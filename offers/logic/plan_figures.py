"""The plan's arithmetic: the money gap, the asks that share it, the target and the walk-away.

The money gap is the larger of what the band evidence supports (the target level's stock over
the horizon) and what the option lacks against the best alternative the user can cite
(staying with their unvested stock, or a competing offer), in the offer's currency, gross.
The money asks share it out by component, stock first (base is the hardest to move), then
sign-on, retention, cash and base, so they never add up to more than the gap and no component
is asked twice. Each ask is a round figure in its term's own currency (stock in the grant's
currency to the nearest 5,000, cash to the nearest 1,000), stock within the offered level's
band (``within_band``), a private company's in cash (``asked_as``). The walk-away point comes
from the user's own ranking (``walk_away``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from offers.logic.answers import AskState
from offers.logic.i18n import gettext as _
from offers.logic.ranking import OptionFacts, RankingPrefs, RankProbe, rank_options, within_reach
from offers.logic.rules.base import (
    BASE,
    CASH,
    DEADLINE,
    EXTERNAL,
    LEVEL,
    MONEY_COMPONENTS,
    PER_YEAR_COMPONENTS,
    REMOTE,
    RETENTION,
    SIGN_ON,
    START,
    STOCK,
    STOCK_COMPONENTS,
    NegotiationContext,
    NegotiationPoint,
    ask_step,
    money,
    round_to,
    said_currency,
    stock_said,
)

# Walk-away values are rounded up to this many units of the home currency.
WALK_AWAY_STEP = 100.0


@dataclass(frozen=True)
class MoneyGap:
    """The money the asks may add up to: offer currency, gross, over the horizon."""

    amount: float
    currency: str
    horizon_years: int
    level_gap: float
    against: str
    # The share of gross pay the board's basis keeps: a value gap's point needs its figure / it.
    keep_rate: float = 1.0


@dataclass
class Candidate:
    """An ask in the making: its lead point, the points it answers too, its figure and state.

    ``amount`` is said in ``currency`` (None for a term); ``offer_amount`` is the same in the
    offer's currency and ``counted`` what it takes out of the gap over the horizon. ``why`` is
    said before the ask (stock asked in cash, or up to the band's top).
    """

    component: str
    lead: NegotiationPoint
    merged: list[NegotiationPoint]
    order: int
    amount: float | None = None
    counted: float = 0.0
    support: NegotiationPoint | None = None
    currency: str | None = None
    offer_amount: float | None = None
    state: AskState = field(default_factory=AskState)
    why: str = ""


@dataclass(frozen=True)
class TargetPackage:
    """The package to aim for, in the offer's terms: pay in its currency, stock in the grant's."""

    currency: str
    base: float
    stock_per_year: float
    sign_on: float
    retention: float
    level_code: str | None
    remote_weeks: float
    work_timezone: str
    start_date: date | None
    deadline: date | None
    # The currency the stock and a retention grant are in: the grant's own.
    stock_currency: str = ""


@dataclass(frozen=True)
class WalkAway:
    """The terms below which this option stops being the user's choice against ``rival``.

    ``value_home`` is the lowest headline value (the board's basis, home currency) at which the
    option ranks first, or stays level with the first (``level``), with the
    ``conditions`` met (None: no value within reach of a negotiation is enough).
    """

    value_home: float | None
    current_value_home: float
    current_rank: int
    home_currency: str
    conditions: tuple[str, ...]
    remote_weeks: float | None
    reason: str
    rival: str = ""
    level: bool = False
    # The user's first-year floor sets the value: below it, the first year (moved with the
    # value by the same factor) breaks the floor. ``floor_base``: the base, in the offer's
    # currency, below which it does on its own (the plan fills it from the offer's pay).
    floor_home: float | None = None
    floor_base: float | None = None

    @property
    def margin_home(self) -> float | None:
        """Return how far the value may fall (positive) or must rise (negative), home currency."""
        if self.value_home is None:
            return None
        return self.current_value_home - self.value_home

    @property
    def ranks_first_now(self) -> bool:
        """Return whether the option is at or above its walk-away value today."""
        margin = self.margin_home
        return margin is not None and margin >= 0

    @property
    def distance_home(self) -> float | None:
        """Return how far today's value is from the walk-away value (home currency)."""
        margin = self.margin_home
        return abs(margin) if margin is not None else None


# The gap and the money asks ------------------------------------------------------------------


def money_gap(
    ctx: NegotiationContext, points: Sequence[NegotiationPoint], keep_rate: float = 1.0
) -> MoneyGap:
    """Return the one money gap the asks share (offer currency, gross, over the horizon).

    ``keep_rate`` is the share of gross pay the board's basis keeps (1 on a gross basis): an
    after-tax gap needs ``gap / keep_rate`` of gross pay to close.
    """
    years = ctx.prefs.horizon_years
    value_gaps = [
        (float(p.figures["gap_home"]), p)
        for p in points
        if isinstance(p.figures.get("gap_home"), float) and p.ask_amount is not None
    ]
    value_gap_home = max((g for g, _p in value_gaps), default=0.0)
    # The target level's stock over the horizon, as it is asked: in the grant's currency (or in
    # cash), to its round figure (the ask that closes it must fit in it).
    asked, _currency, fx, per = asked_as(ctx, STOCK)
    level_gap = max(
        (
            round_to(p.ask_amount * years / per / fx, ask_step(asked)) * fx * per
            for p in points
            if p.component == STOCK and p.ask_amount is not None and p.ask_amount > 0
        ),
        default=0.0,
    )
    keep = keep_rate if keep_rate > 0 else 1.0
    value_gap = max(0.0, value_gap_home) / ctx.prefs.fx_offer_to_home / keep
    if level_gap >= value_gap and level_gap > 0:
        against = _("the target level's stock")
    elif value_gaps and value_gap_home > 0:
        name = max(value_gaps, key=lambda row: row[0])[1].figures.get("alternative")
        against = (
            _("your best alternative, {name}").format(name=name)
            if isinstance(name, str)
            else _("staying, with your unvested stock")
        )
    else:
        against = _("nothing: no alternative you can cite is worth more")
    return MoneyGap(
        amount=max(level_gap, value_gap),
        currency=ctx.offer.currency,
        horizon_years=years,
        level_gap=level_gap,
        against=against,
        keep_rate=keep,
    )


def said_amount(wanted: float, room: float, step: float) -> float:
    """Return a round figure to ask for: the nearest step to ``wanted``, never above ``room``.

    Both are in the currency said; 0 when not even one step fits.
    """
    amount = min(wanted, room)
    rounded = math.floor(amount / step + 0.5) * step
    if rounded > room + 1e-9:
        rounded = math.floor(room / step + 1e-9) * step
    return float(max(rounded, 0.0))


def asked_as(ctx: NegotiationContext, component: str) -> tuple[str, str, float, int]:
    """Return the component an ask is made in, its currency and rate to the offer's, and the
    years its figure is a year of (1: once). Private shares only sell in buybacks: a private
    company's stock is asked in cash, a new employer's sign-on, else base (no sign-on)."""
    if ctx.offer.is_private and component in STOCK_COMPONENTS:
        component = SIGN_ON if ctx.offer.kind == EXTERNAL else BASE
    (currency, fx), years = said_currency(ctx, component), ctx.prefs.horizon_years
    return component, currency, fx, years if component in PER_YEAR_COMPONENTS else 1


def within_band(
    ctx: NegotiationContext, group: Sequence[NegotiationPoint], wanted: float
) -> tuple[float, float, str]:
    """Return the stock to ask within the offered level's band and beyond it (over the horizon),
    and the words for the band's top. Beyond it, only the next level's stock with base at the
    top of its band (an exception needing approval, ``band_base_max``)."""
    offer, band, years = ctx.offer, ctx.offer.band, ctx.prefs.horizon_years
    exception = any({"band_base_max", "next_level_stock_per_year"} <= set(p.figures) for p in group)
    room = max(0.0, band.stock_max - offer.stock_per_year) * years if band else wanted
    if band is None or band.stock_max <= 0 or offer.is_private or exception or wanted <= room:
        return wanted, 0.0, ""
    words = _("Within the {level} band, stock goes up to {top} a year.").format(
        level=band.level_code, top=stock_said(ctx, band.stock_max)
    )
    return room, wanted - room, words


def money_candidates(
    ctx: NegotiationContext, points: Sequence[NegotiationPoint], gap: MoneyGap
) -> tuple[list[Candidate], list[tuple[NegotiationPoint, str]], float]:
    """Share the gap out over the money components, stock first; return the asks, leftovers
    (with why) and the stock beyond the band no money ask takes (one's own employer's).

    Each ask is a round figure in its term's currency, rounded down to its step when the
    nearest step would take more than the gap left; each point's figure is gross (a value gap
    on the board's basis over the share it keeps). A new employer's sign-on asks the stock
    beyond the band; one's own employer gives it only with the level.
    """
    remaining, asks, left = gap.amount, list[Candidate](), list[tuple[NegotiationPoint, str]]()
    beyond: tuple[float, list[NegotiationPoint]] = (0.0, [])
    for component in MONEY_COMPONENTS:
        group = [p for p in points if p.component == component and (p.ask_amount or 0) > 0]
        own = gap.horizon_years if component in PER_YEAR_COMPONENTS else 1
        gross = [
            (p.ask_amount or 0) / (gap.keep_rate if "gap_home" in p.figures else 1) for p in group
        ]
        wanted, extra, why = own * max(gross, default=0.0), 0.0, ""
        if component == STOCK and group:
            wanted, extra, why = within_band(ctx, group, wanted)
            beyond = (extra, group)
        elif component == SIGN_ON and beyond[0] > 0 and ctx.offer.kind == EXTERNAL:
            group, wanted = group or beyond[1], max(wanted, beyond[0])
        asked, currency, fx, per = asked_as(ctx, component)
        amount = said_amount(wanted / per / fx, remaining / per / fx, ask_step(asked))
        if amount <= 0 or not group:
            note = (
                _("The money gap is already asked for above; not asked again.")
                if remaining < wanted
                else _("Too small to ask for on its own.")
            )
            left.extend((p, note) for p in group if not extra)  # beyond the band: the level
            continue
        offer_amount = amount * fx
        # What the ask answers comes out of the gap, rounding included: a figure rounded down
        # leaves no crumbs for the next component to ask for.
        remaining -= max(offer_amount * per, min(wanted, remaining))
        if same := next((c for c in asks if c.component == asked), None):
            # A private company's stock asked in cash, then that cash's own points: one ask.
            same.amount = (same.amount or 0) + amount
            same.offer_amount = (same.offer_amount or 0) + offer_amount
            same.counted += offer_amount * per
            same.merged.extend(group)
            continue
        if asked != component:
            why = _(
                "The shares are private and only sell in buybacks, so I'd like the difference "
                "over the {years} years in cash."
            ).format(years=gap.horizon_years)
        order = min(points.index(p) for p in group)
        asks.append(Candidate(asked, group[0], group[1:], order, amount, offer_amount * per))
        asks[-1].currency, asks[-1].offer_amount, asks[-1].why = currency, offer_amount, why
    return asks, left, beyond[0] if ctx.offer.kind != EXTERNAL else 0.0


# The target ----------------------------------------------------------------------------------


def level_asked(ctx: NegotiationContext, asks: Sequence[Candidate]) -> str | None:
    """Return the level the plan asks for when the offer is below its target (else None).

    A level the log says was asked for and not given is no longer asked (only its pay): no
    point of an ask names it in its ``topics``.
    """
    offer = ctx.offer
    if (
        offer.level_order is not None
        and offer.target_level_order is not None
        and offer.level_order < offer.target_level_order
        and any(LEVEL in p.topics for a in asks for p in (a.lead, *a.merged))
    ):
        return offer.target_level_code or _("target")
    return None


def _figure_date(by: dict[str, Candidate], component: str, name: str) -> date | None:
    """Return the date an ask of the component proposes (None without the ask or the date)."""
    value = by[component].lead.figures.get(name) if component in by else None
    return date.fromisoformat(value) if isinstance(value, str) else None


def target_package(
    ctx: NegotiationContext, asks: Sequence[Candidate], work_timezone: str = ""
) -> TargetPackage:
    """Return the package the asks aim for: the offer with every ask given."""
    offer = ctx.offer
    by = {a.component: a for a in asks}
    # Each ask's amount in the currency it is said in (0 without the ask).
    said = {a.component: a.amount or 0.0 for a in asks}
    stock_currency, fx = said_currency(ctx, STOCK)
    remote = offer.remote_weeks_allowed
    if REMOTE in by:
        remote = max(remote, ctx.prefs.required_remote_weeks)
    return TargetPackage(
        currency=offer.currency,
        base=offer.base + said.get(BASE, 0.0) + said.get(CASH, 0.0) / ctx.prefs.horizon_years,
        stock_per_year=offer.stock_per_year / fx + said.get(STOCK, 0.0),
        sign_on=offer.sign_on_total + said.get(SIGN_ON, 0.0),
        retention=said.get(RETENTION, 0.0),
        level_code=(offer.target_level_code or offer.level_code)
        if level_asked(ctx, asks)
        else offer.level_code,
        remote_weeks=remote,
        work_timezone=work_timezone,
        start_date=_figure_date(by, START, "proposed_start") or offer.start_date,
        deadline=_figure_date(by, DEADLINE, "extend_to") or offer.deadline,
        stock_currency=stock_currency,
    )


# The walk-away point -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Stage:
    """The option with the terms asked for so far met: what a walk-away value assumes."""

    facts: OptionFacts
    conditions: tuple[str, ...] = ()
    remote_weeks: float | None = None


def _stages(
    target: OptionFacts, prefs: RankingPrefs, remote_asked: bool, level: str | None
) -> list[_Stage]:
    """Return the option as it is, then with each term the plan asks for met, in that order."""
    stages = [_Stage(target)]
    if remote_asked and target.remote_weeks_allowed < prefs.required_remote_weeks:
        weeks = prefs.required_remote_weeks
        words = _("{weeks} remote weeks a year in writing").format(weeks=f"{weeks:g}")
        stages.append(_Stage(replace(target, remote_weeks_allowed=weeks), (words,), weeks))
    last = stages[-1]
    order, wanted = last.facts.level_order, last.facts.target_level_order
    if level and order is not None and wanted is not None and order < wanted:
        words = _("the {level} level").format(level=level)
        facts = replace(last.facts, level_order=wanted)
        stages.append(_Stage(facts, (*last.conditions, words), last.remote_weeks))
    return stages


def with_value(facts: OptionFacts, value: float) -> OptionFacts:
    """Return the option at another headline value, its first year moved by the same factor.

    A cut in pay lowers the first year too: the first-year floor reads it (the chance of the
    best choice draws the first year with the same factor, `choice`).
    """
    factor = value / facts.comp_value if facts.comp_value > 0 else 1.0
    return replace(facts, comp_value=value, first_year_total=facts.first_year_total * factor)


def _threshold(stands: Callable[[float], bool], ceiling: float) -> float:
    """Return the lowest value (up to a ``WALK_AWAY_STEP``) at which ``stands`` holds.

    ``stands`` is monotone in the value and holds at ``ceiling``: bisection finds the edge.
    """
    if stands(0.0):
        return 0.0
    low, high = 0.0, ceiling
    for _step in range(60):
        middle = (low + high) / 2
        if stands(middle):
            high = middle
        else:
            low = middle
    value = math.ceil(high / WALK_AWAY_STEP) * WALK_AWAY_STEP
    while not stands(value):  # float noise at the edge
        value += WALK_AWAY_STEP
    return value


def _standing(value: float, currency: str, floor: float | None, level_with: str) -> str:
    """Return why the walk-away point is where it is: the floor, a co-first rival or the rank."""
    if floor is not None:
        return _("below {value} its first year falls under your floor of {floor}").format(
            value=money(value, currency), floor=money(floor, currency)
        )
    if level_with:
        return _("it stays level with {rival} by your own preferences from {value}").format(
            value=money(value, currency), rival=level_with
        )
    return _("it ranks first by your own preferences from {value}").format(
        value=money(value, currency)
    )


def walk_away(
    options: Sequence[OptionFacts],
    prefs: RankingPrefs,
    key: str,
    *,
    remote_asked: bool = False,
    level_asked: str | None = None,
    tolerance: float = 0.0,
) -> WalkAway | None:
    """Return the lowest headline value at which the option is still the user's choice.

    Against the best alternative other than the option itself: the first choice stays the
    choice while it ranks first; an option behind the first by at most ``tolerance`` (a
    co-first choice; the plan passes ``CO_FIRST_TOLERANCE``) while it stays that close; an
    option further behind would need a rise to rank first, which is a walk-away figure only
    when a negotiation can reach it (``within_reach``). The terms the plan asks for (remote
    weeks, the target level) count as conditions only when the option cannot get there
    without them, one at a time in that order: the walk-away point is the cautious one.
    Raising an option's value only raises its total, so its standing is monotone in the value
    and bisection finds the threshold.
    """
    target = next((o for o in options if o.key == key), None)
    if target is None:
        return None
    ranking = rank_options(list(options), prefs)
    current_rank = next(r.rank for r in ranking if r.key == key)
    rival = next((r.name for r in ranking if r.key != key), "")
    ceiling = max(10.0 * max(o.comp_value for o in options), 1.0)
    probe = RankProbe([o for o in options if o.key != key], prefs)
    level = tolerance > 0 and current_rank > 1 and probe.level_with_first(target, tolerance)

    # The first-year floor the option meets today (None: none, or already broken).
    floor = prefs.min_first_year_total
    floor = floor if floor is not None and target.first_year_total >= floor else None

    def stands(facts: OptionFacts, value: float) -> bool:
        trial = with_value(facts, value)
        if floor is not None and trial.first_year_total < floor:
            return False  # a hard constraint the option meets today is never traded for rank
        return probe.level_with_first(trial, tolerance) if level else probe.rank(trial) == 1

    stages = _stages(target, prefs, remote_asked, level_asked)
    reached = next((stage for stage in stages if stands(stage.facts, ceiling)), None)
    stage = reached or stages[-1]
    value: float | None = None
    binding: float | None = None
    if reached is None:
        reason = _(
            "no pay puts it first by your own preferences (at best it ranks {rank}): "
            "what it lacks is not money"
        ).format(rank=probe.rank(replace(stage.facts, comp_value=ceiling)))
    else:
        value = _threshold(lambda v: stands(stage.facts, v), ceiling)
        rise = value - target.comp_value
        if rise > 0 and not within_reach(rise, target.comp_value):
            # A rise no negotiation reaches is no walk-away point: it would say "walk away now".
            value, reason = (
                None,
                _(
                    "no pay rise within reach of a negotiation puts it first by your own "
                    "preferences: what it lacks is not money"
                ),
            )
        else:
            below = with_value(stage.facts, value - WALK_AWAY_STEP).first_year_total
            binding = floor if floor is not None and below < floor else None
            reason = _standing(value, prefs.currency, binding, rival if level else "")
    return WalkAway(
        value_home=value,
        current_value_home=target.comp_value,
        current_rank=current_rank,
        home_currency=prefs.currency,
        conditions=stage.conditions,
        remote_weeks=stage.remote_weeks,
        reason=reason,
        rival=rival,
        level=level,
        floor_home=binding,
    )
