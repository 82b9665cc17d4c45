"""One counter-offer plan per option: a target, a walk-away point and at most three asks.

The rules (``offers.logic.rules``) each raise a point; the plan turns them into what a recruiter
would take seriously. The money gap is defined once: the larger of what the band evidence
supports (the target level's stock over the horizon) and what the option lacks against the best
alternative the user can cite (staying with their unvested stock, or a competing offer), in the
offer's currency, gross. The money asks share it out by component, stock first (base is the
hardest to move), then sign-on, retention, cash and base, so they never add up to more than the
gap and no component is asked twice. Terms (remote work, deadline, start date, hours) are asked
once each. Each ask is said in its term's own currency, rounded as people speak (stock in the
grant's currency to the nearest 5,000, cash to the nearest 1,000).

The plan reads the negotiation log (``NegotiationContext.log``) through ``offers.logic.answers``:
an ask already made waits for its answer (followed up after a few working days, never
repeated), an answered one is never asked again in the same terms (it moves to the background
with the answer stated) or makes another part the next step, and a counter not replied to yet
is answered with one different ask, or accepted. The draft is ``offers.logic.draft``'s.

The walk-away point comes from the user's own ranking, against the best alternative other than
the option: for the first choice, the lowest headline value at which it still ranks first; for
an option level with the first (within ``CO_FIRST_TOLERANCE``), the value at which it stops
being level; for one behind, the value at which it would come level, when that is a rise a
negotiation can reach (``within_reach``), else no figure: what decides is not money.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from offers.logic.answers import (
    CLOSED,
    FOLLOW_UP,
    AskState,
    ask_state,
    counters_to_answer,
    one_reply_ask,
    thanks,
    waiting_state,
)
from offers.logic.criteria import label as criterion_label
from offers.logic.i18n import gettext as _
from offers.logic.ranking import (
    CO_FIRST_TOLERANCE,
    OptionFacts,
    RankingPrefs,
    RankProbe,
    rank_options,
    within_reach,
)
from offers.logic.rules.base import (
    BASE,
    CASH,
    DEADLINE,
    EXTERNAL,
    INTERNAL,
    MONEY_COMPONENTS,
    PER_YEAR_COMPONENTS,
    REMOTE,
    RETENTION,
    SIGN_ON,
    START,
    STOCK,
    LoggedAsk,
    NegotiationContext,
    NegotiationPoint,
    about,
    ask_step,
    money,
    round_to,
    said_currency,
)

MAX_ASKS = 3
# Walk-away values are rounded up to this many units of the home currency.
WALK_AWAY_STEP = 100.0
# Words that never belong in what the recruiter hears.
PRIVATE_WORDS = ("weight", "score")


@dataclass(frozen=True)
class MoneyGap:
    """The money the asks may add up to: offer currency, gross, over the horizon."""

    amount: float
    currency: str
    horizon_years: int
    value_gap_home: float
    level_gap: float
    against: str


@dataclass(frozen=True)
class Ask:
    """One thing to ask for: the amount or term, the words, the evidence and the leverage.

    ``amount`` is what is said, in ``currency``: the term's own (stock in the grant's price
    currency), rounded as people speak; a year for stock and base (``per_year``), once
    otherwise. ``offer_amount`` is the same in the offer's currency, and ``counted`` what the
    ask takes out of the gap over the horizon in it (0 for terms). ``point`` is the rule's
    point with its ask set to ``offer_amount`` (what "Play it out" plays); ``merged`` are the
    other points this ask answers; ``state`` where it stands in the negotiation log.
    """

    component: str
    rule: str
    title: str
    amount: float | None
    per_year: bool
    counted: float
    currency: str | None
    term: str | None
    script: str
    evidence: tuple[str, ...]
    leverage: tuple[str, ...]
    point: NegotiationPoint
    merged: tuple[NegotiationPoint, ...] = ()
    offer_amount: float | None = None
    state: AskState = field(default_factory=AskState)

    @property
    def is_money(self) -> bool:
        """Return whether the ask is for money."""
        return self.amount is not None

    @property
    def status(self) -> str:
        """Return where the ask stands in the log (``TO_ASK`` when never asked)."""
        return self.state.status


@dataclass(frozen=True)
class BackgroundPoint:
    """A point the plan does not ask for, and why."""

    point: NegotiationPoint
    note: str


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
    option ranks ``wanted_rank``, or stays level with the first (``level``), with the
    ``conditions`` met (None: no value within reach of a negotiation is enough).
    """

    wanted_rank: int
    value_home: float | None
    current_value_home: float
    current_rank: int
    home_currency: str
    conditions: tuple[str, ...]
    remote_weeks: float | None
    reason: str
    rival: str = ""
    level: bool = False

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


@dataclass(frozen=True)
class Plan:
    """One option's counter-offer plan."""

    key: str
    name: str
    company: str
    kind: str
    currency: str
    home_currency: str
    horizon_years: int
    gap: MoneyGap
    target: TargetPackage
    walk_away: WalkAway | None
    asks: tuple[Ask, ...]
    background: tuple[BackgroundPoint, ...]
    leverage: tuple[str, ...]
    private_notes: tuple[str, ...]
    # Asks of the log still waiting for an answer, with their follow-up day (oldest first).
    waiting: tuple[AskState, ...] = ()
    # Whether the offer is in hand: a draft's plan is for the day it arrives.
    in_hand: bool = True
    # Counters not replied to yet (the next message thanks for them first).
    counters: tuple[LoggedAsk, ...] = ()

    @property
    def to_send(self) -> tuple[Ask, ...]:
        """Return the asks the next message makes (not the ones waiting for an answer)."""
        return tuple(a for a in self.asks if a.state.to_send)

    @property
    def waiting_other(self) -> tuple[AskState, ...]:
        """Return the waiting asks of the log that none of the plan's asks stands for."""
        held = {id(a.state.logged) for a in self.asks if a.state.logged is not None}
        return tuple(w for w in self.waiting if id(w.logged) not in held)

    @property
    def follow_ups(self) -> tuple[AskState, ...]:
        """Return the waiting asks the next message follows up (their day has come)."""
        return tuple(w for w in self.waiting if w.status == FOLLOW_UP)

    @property
    def primary(self) -> Ask | None:
        """Return the first ask."""
        return self.asks[0] if self.asks else None

    @property
    def secondary(self) -> tuple[Ask, ...]:
        """Return the asks after the first."""
        return self.asks[1:]

    @property
    def money_asked(self) -> float:
        """Return what the money asks add up to over the horizon (offer currency, gross)."""
        return sum(a.counted for a in self.asks)


# The gap ---------------------------------------------------------------------------------


def _years(ctx: NegotiationContext) -> int:
    return ctx.prefs.horizon_years


def money_gap(
    ctx: NegotiationContext, points: Sequence[NegotiationPoint], keep_rate: float = 1.0
) -> MoneyGap:
    """Return the one money gap the asks share (offer currency, gross, over the horizon).

    ``keep_rate`` is the share of gross pay the board's basis keeps (1 on a gross basis): an
    after-tax gap needs ``gap / keep_rate`` of gross pay to close.
    """
    cur = ctx.offer.currency
    years = _years(ctx)
    value_gaps = [
        (float(p.figures["gap_home"]), p)
        for p in points
        if isinstance(p.figures.get("gap_home"), float) and p.ask_amount is not None
    ]
    value_gap_home = max((g for g, _p in value_gaps), default=0.0)
    # The target level's stock, a year, as it is asked: in the grant's currency, to its round
    # figure (the ask that closes it must fit in it).
    _currency, fx = said_currency(ctx, STOCK)
    level_gap = max(
        (
            round_to(p.ask_amount / fx, ask_step(STOCK)) * fx * years
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
        lead = max(value_gaps, key=lambda row: row[0])[1]
        name = lead.figures.get("alternative")
        against = (
            _("your best alternative, {name}").format(name=name)
            if isinstance(name, str)
            else _("staying, with your unvested stock")
        )
    else:
        against = _("nothing: no alternative you can cite is worth more")
    return MoneyGap(
        amount=max(level_gap, value_gap),
        currency=cur,
        horizon_years=years,
        value_gap_home=max(0.0, value_gap_home),
        level_gap=level_gap,
        against=against,
    )


# Words -----------------------------------------------------------------------------------


def ask_sentence(component: str, amount: float, currency: str) -> str:
    """Return the sentence that asks for an amount of one component, in the offer's terms."""
    said = money(amount, currency)
    if component == STOCK:
        return _("Could we add {amount} a year in stock?").format(amount=said)
    if component == SIGN_ON:
        return _("Could you add a sign-on bonus of {amount}?").format(amount=said)
    if component == RETENTION:
        return _("Could we agree a retention grant of {amount} in stock?").format(amount=said)
    if component == CASH:
        return _("Could {amount} of the package move into cash (base, bonus or sign-on)?").format(
            amount=said
        )
    return _("Could the base move up by {amount} a year?").format(amount=said)


def _leverage_of(point: NegotiationPoint) -> list[str]:
    """Return the leverage a point draws on, in words."""
    figures = point.figures
    found: list[str] = []
    if any(k in figures for k in ("unvested_total_home", "stay_value_home", "clawback_home")):
        found.append(_("current pay and unvested stock"))
    if "alternative" in figures:
        found.append(_("a competing offer ({name})").format(name=figures["alternative"]))
    if "days_left" in figures or "next_vest_value_home" in figures:
        found.append(_("deadlines and dates"))
    if any(k in figures for k in ("band_base_max", "next_level_stock_per_year")):
        found.append(_("band data"))
    if "loop_quoted" in figures:
        found.append(_("interview feedback"))
    return found


def _unique(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def is_recruiter_safe(text: str) -> bool:
    """Return whether a script keeps the user's private reasoning out (no weights, no scores)."""
    lowered = text.lower()
    return not any(word in lowered for word in PRIVATE_WORDS)


# Asks ------------------------------------------------------------------------------------


@dataclass
class _Candidate:
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


def said_amount(wanted: float, room: float, step: float) -> float:
    """Return a round figure to ask for: the nearest step to ``wanted``, never above ``room``.

    Both are in the currency said; 0 when not even one step fits.
    """
    amount = min(wanted, room)
    rounded = math.floor(amount / step + 0.5) * step
    if rounded > room + 1e-9:
        rounded = math.floor(room / step + 1e-9) * step
    return float(max(rounded, 0.0))


def _money_candidates(
    ctx: NegotiationContext, points: Sequence[NegotiationPoint], gap: MoneyGap
) -> tuple[list[_Candidate], list[BackgroundPoint]]:
    """Share the gap out over the money components, stock first; return asks and leftovers.

    Each ask is a round figure in its term's currency, rounded down to its step when the
    nearest step would take more than the gap left.
    """
    remaining = gap.amount
    years = gap.horizon_years
    asks: list[_Candidate] = []
    left: list[BackgroundPoint] = []
    for component in MONEY_COMPONENTS:
        group = [
            p for p in points if p.component == component and p.ask_amount and p.ask_amount > 0
        ]
        if not group:
            continue
        lead = group[0]
        wanted = max(p.ask_amount or 0.0 for p in group)
        per = years if component in PER_YEAR_COMPONENTS else 1
        currency, fx = said_currency(ctx, component)
        amount = said_amount(wanted / fx, remaining / per / fx, ask_step(component))
        if amount <= 0:
            note = (
                _("The money gap is already asked for above; not asked again.")
                if remaining < wanted * per
                else _("Too small to ask for on its own.")
            )
            left.extend(BackgroundPoint(p, note) for p in group)
            continue
        offer_amount = amount * fx
        # What the ask answers comes out of the gap, rounding included: a figure rounded down
        # leaves no crumbs for the next component to ask for.
        remaining -= max(offer_amount * per, min(wanted * per, remaining))
        order = min(points.index(p) for p in group)
        asks.append(
            _Candidate(
                component,
                lead,
                group[1:],
                order,
                amount,
                offer_amount * per,
                currency=currency,
                offer_amount=offer_amount,
            )
        )
    return asks, left


def _script(candidate: _Candidate) -> str:
    """Return what the user says for one ask, in the term's currency, after the log's answer."""
    point = candidate.lead
    opening = thanks(candidate.state)
    if candidate.amount is None or candidate.currency is None:
        return sentences([w for w in (opening, point.evidence) if w])
    # The lead's reason and one more: a script is read aloud, not a list of every rule.
    merged = [p.reason for p in candidate.merged if p.reason][:1]
    reasons = _unique(
        [
            opening,
            point.reason or point.evidence,
            *merged,
            candidate.support.reason if candidate.support else "",
        ]
    )
    return sentences(
        [*reasons, ask_sentence(candidate.component, candidate.amount, candidate.currency)]
    )


def sentences(parts: Sequence[str]) -> str:
    """Return sentences run together as the language writes them (a space, or none)."""
    found = [p for p in parts if p]
    if not found:
        return ""
    text = found[0]
    for part in found[1:]:
        text = _("{first} {second}").format(first=text, second=part)
    return text


def _term_of(candidate: _Candidate) -> str | None:
    point = candidate.lead
    if candidate.amount is None or candidate.currency is None:
        return point.ask_term
    per = _(" a year") if candidate.component in PER_YEAR_COMPONENTS else ""
    return f"{money(candidate.amount, candidate.currency)}{per}"


def _ask_of(candidate: _Candidate) -> Ask:
    lead = candidate.lead
    played = (
        replace(
            lead,
            ask_amount=candidate.offer_amount,
            said_amount=candidate.amount,
            said_in=candidate.currency,
        )
        if candidate.offer_amount is not None
        else lead
    )
    every = [lead, *candidate.merged, *([candidate.support] if candidate.support else [])]
    return Ask(
        component=candidate.component,
        rule=lead.rule,
        title=lead.title,
        amount=candidate.amount,
        per_year=candidate.component in PER_YEAR_COMPONENTS,
        counted=candidate.counted,
        currency=candidate.currency if candidate.amount is not None else None,
        term=_term_of(candidate),
        script=_script(candidate),
        evidence=_unique([p.trigger for p in every]),
        leverage=_unique([w for p in every for w in _leverage_of(p)]),
        point=played,
        merged=tuple(candidate.merged),
        offer_amount=candidate.offer_amount,
        state=candidate.state,
    )


# The walk-away point ---------------------------------------------------------------------


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
    when a negotiation can reach it (``within_reach``). The terms the plan asks for (remote weeks, the target level) count as
    conditions only when the option cannot get there without them, one at a time in that
    order: the walk-away point is the cautious one. Raising an option's value only raises its
    total, so its standing is monotone in the value and bisection finds the threshold.
    """
    target = next((o for o in options if o.key == key), None)
    if target is None:
        return None
    others = [o for o in options if o.key != key]
    home = prefs.currency
    ranking = rank_options(list(options), prefs)
    current_rank = next(r.rank for r in ranking if r.key == key)
    rival = next((r.name for r in ranking if r.key != key), "")
    best = max((o.comp_value for o in options), default=0.0)
    ceiling = max(10.0 * best, 1.0)
    probe = RankProbe(others, prefs)
    level = tolerance > 0 and current_rank > 1 and probe.level_with_first(target, tolerance)

    def stands(facts: OptionFacts, value: float) -> bool:
        trial = replace(facts, comp_value=value)
        if level:
            return probe.level_with_first(trial, tolerance)
        return probe.rank(trial) == 1

    def rank_at(facts: OptionFacts, value: float) -> int:
        return probe.rank(replace(facts, comp_value=value))

    stages: list[tuple[OptionFacts, tuple[str, ...], float | None]] = [(target, (), None)]
    facts = target
    conditions: tuple[str, ...] = ()
    remote_weeks: float | None = None
    if remote_asked and target.remote_weeks_allowed < prefs.required_remote_weeks:
        remote_weeks = prefs.required_remote_weeks
        facts = replace(facts, remote_weeks_allowed=remote_weeks)
        conditions = (
            *conditions,
            _("{weeks} remote weeks a year in writing").format(weeks=f"{remote_weeks:g}"),
        )
        stages.append((facts, conditions, remote_weeks))
    if (
        level_asked
        and facts.level_order is not None
        and facts.target_level_order is not None
        and facts.level_order < facts.target_level_order
    ):
        facts = replace(facts, level_order=facts.target_level_order)
        conditions = (*conditions, _("the {level} level").format(level=level_asked))
        stages.append((facts, conditions, remote_weeks))

    def out_of_reach(reason: str) -> WalkAway:
        return WalkAway(
            wanted_rank=1,
            value_home=None,
            current_value_home=target.comp_value,
            current_rank=current_rank,
            home_currency=home,
            conditions=conditions,
            remote_weeks=remote_weeks,
            reason=reason,
            rival=rival,
            level=level,
        )

    reached = next((stage for stage in stages if stands(stage[0], ceiling)), None)
    if reached is None:
        return out_of_reach(
            _(
                "no pay puts it first by your own preferences (at best it ranks {rank}): "
                "what it lacks is not money"
            ).format(rank=rank_at(facts, ceiling))
        )
    facts, conditions, remote_weeks = reached
    if stands(facts, 0.0):
        value = 0.0
    else:
        low, high = 0.0, ceiling
        for _step in range(60):
            middle = (low + high) / 2
            if stands(facts, middle):
                high = middle
            else:
                low = middle
        value = math.ceil(high / WALK_AWAY_STEP) * WALK_AWAY_STEP
        while not stands(facts, value):  # float noise at the edge
            value += WALK_AWAY_STEP
    if value > target.comp_value and not within_reach(value - target.comp_value, target.comp_value):
        # A rise no negotiation reaches is no walk-away point: it would say "walk away now".
        return out_of_reach(
            _(
                "no pay rise within reach of a negotiation puts it first by your own "
                "preferences: what it lacks is not money"
            )
        )
    if level:
        reason = _("it stays level with {rival} by your own preferences from {value}")
    else:
        reason = _("it ranks first by your own preferences from {value}")
    return WalkAway(
        wanted_rank=1,
        value_home=value,
        current_value_home=target.comp_value,
        current_rank=current_rank,
        home_currency=home,
        conditions=conditions,
        remote_weeks=remote_weeks,
        reason=reason.format(value=money(value, home), rival=rival),
        rival=rival,
        level=level,
    )


def ranking_reason(options: Sequence[OptionFacts], prefs: RankingPrefs, key: str) -> str | None:
    """Return what most puts the option ahead of the others, or behind the first, in words."""
    if len(options) < 2:
        return None
    ranking = rank_options(list(options), prefs)
    me = next((r for r in ranking if r.key == key), None)
    if me is None:
        return None
    rival = next(r for r in ranking if r.key != key)
    others = [r for r in ranking if r.key != key]
    if me.rank == 1:
        # Ahead of the field: against the other options on average, not only the runner-up.
        diffs = {
            c: s.contribution - sum(o.criteria[c].contribution for o in others) / len(others)
            for c, s in me.criteria.items()
        }
    else:
        diffs = {c: s.contribution - rival.criteria[c].contribution for c, s in me.criteria.items()}
    if me.rank == 1:
        lead = max(diffs, key=lambda c: diffs[c])
        if diffs[lead] <= 0:
            return None
        text = _("{name} ranks first by your own preferences mostly on {criterion}: {why}.")
    else:
        lead = min(diffs, key=lambda c: diffs[c])
        if diffs[lead] >= 0:
            return None
        text = _("What keeps {name} behind {rival} most is {criterion}: {why}.")
    return text.format(
        name=me.name,
        rival=rival.name,
        criterion=criterion_label(lead).lower(),
        why=me.criteria[lead].explanation,
    )


# The plan --------------------------------------------------------------------------------


def _target(ctx: NegotiationContext, asks: Sequence[Ask], work_timezone: str = "") -> TargetPackage:
    offer = ctx.offer
    by = {a.component: a for a in asks}

    def more(component: str) -> float:
        """Return an ask's amount in the currency it is said in (0 without the ask)."""
        ask = by.get(component)
        return ask.amount if ask is not None and ask.amount is not None else 0.0

    years = _years(ctx)
    stock_currency, fx = said_currency(ctx, STOCK)
    level = offer.level_code
    if _level_asked(ctx, asks):
        level = offer.target_level_code or level
    remote = offer.remote_weeks_allowed
    if REMOTE in by:
        remote = max(remote, ctx.prefs.required_remote_weeks)
    start = offer.start_date
    if START in by and isinstance(by[START].point.figures.get("proposed_start"), str):
        start = date.fromisoformat(str(by[START].point.figures["proposed_start"]))
    deadline = offer.deadline
    if DEADLINE in by and isinstance(by[DEADLINE].point.figures.get("extend_to"), str):
        deadline = date.fromisoformat(str(by[DEADLINE].point.figures["extend_to"]))
    return TargetPackage(
        currency=offer.currency,
        base=offer.base + more(BASE) + more(CASH) / years,
        stock_per_year=offer.stock_per_year / fx + more(STOCK),
        sign_on=offer.sign_on_total + more(SIGN_ON),
        retention=more(RETENTION),
        level_code=level,
        remote_weeks=remote,
        work_timezone=work_timezone,
        start_date=start,
        deadline=deadline,
        stock_currency=stock_currency,
    )


def _level_asked(ctx: NegotiationContext, asks: Sequence[Ask]) -> str | None:
    """Return the level the plan asks for when the offer is below its target (else None).

    A level the log says was asked for and not given is no longer asked (only its pay).
    """
    offer = ctx.offer
    stock = next((a for a in asks if a.component == STOCK), None)
    if (
        offer.level_order is not None
        and offer.target_level_order is not None
        and offer.level_order < offer.target_level_order
        and stock is not None
        and not any("level_refused" in p.figures for p in (stock.point, *stock.merged))
    ):
        return offer.target_level_code or _("target")
    return None


def _excluded_for_remote(options: Sequence[OptionFacts], prefs: RankingPrefs, key: str) -> bool:
    target = next((o for o in options if o.key == key), None)
    return target is not None and target.remote_weeks_allowed < prefs.required_remote_weeks


def _term_candidates(
    points: list[NegotiationPoint], money_asks: list[_Candidate], background: list[BackgroundPoint]
) -> list[_Candidate]:
    """Return the term asks: one per component; a money component's term folds into its ask."""
    used = {id(p) for c in money_asks for p in (c.lead, *c.merged)}
    used |= {id(b.point) for b in background}
    term_asks: list[_Candidate] = []
    for order, point in enumerate(points):
        if id(point) in used:
            continue
        if point.component is None or (point.ask_amount is None and not point.ask_term):
            background.append(BackgroundPoint(point, _("Not an ask: background for you.")))
            continue
        same = next((c for c in [*money_asks, *term_asks] if c.component == point.component), None)
        if same is not None:
            same.merged.append(point)
            continue
        term_asks.append(_Candidate(point.component, point, [], order))
    return term_asks


def _open_in_log(
    ctx: NegotiationContext, candidates: list[_Candidate], background: list[BackgroundPoint]
) -> list[_Candidate]:
    """Set where each ask stands in the log; return the open ones (a closed one goes back)."""
    found: list[_Candidate] = []
    for candidate in candidates:
        every = (candidate.lead, *candidate.merged)
        topics = frozenset({candidate.component, *(t for p in every for t in p.topics)})
        candidate.state = ask_state(ctx, candidate.component, topics, _term_of(candidate))
        if candidate.state.status == CLOSED:
            background.extend(BackgroundPoint(p, candidate.state.note) for p in every)
        else:
            found.append(candidate)
    return found


def negotiation_plan(
    ctx: NegotiationContext,
    points: Sequence[NegotiationPoint],
    *,
    options: Sequence[OptionFacts] = (),
    ranking_prefs: RankingPrefs | None = None,
    keep_rate: float = 1.0,
    work_timezone: str = "",
) -> Plan:
    """Return the option's plan: target, walk-away, at most three asks, the rest as background.

    The log decides what each ask is now: to ask, waiting (or due a follow-up), the next step
    after an answer, or closed (agreed, or refused with nothing else: background).
    """
    points = list(points)
    cur = ctx.offer.currency
    gap = money_gap(ctx, points, keep_rate)
    money_asks, background = _money_candidates(ctx, points, gap)
    term_asks = _term_candidates(points, money_asks, background)
    # The leverage of the first money ask: what leaving costs, when the gap already covers it.
    current_pay = _("current pay and unvested stock")
    if money_asks:
        covered = sorted(
            (
                b.point
                for b in background
                if b.point.reason and current_pay in _leverage_of(b.point)
            ),
            # The unvested stock one walks away from is the most concrete figure to cite.
            key=lambda p: "unvested_total_home" not in p.figures,
        )
        if covered:
            money_asks[0].support = covered[0]
    open_asks = _open_in_log(ctx, [*money_asks, *term_asks], background)
    remote_condition = ranking_prefs is not None and _excluded_for_remote(
        options, ranking_prefs, ctx.offer.key
    )

    def order_key(c: _Candidate) -> tuple[int, int, int, float, int]:
        condition = 0 if (c.component == REMOTE and remote_condition) else 1
        is_term = 0 if c.amount is not None else 1
        return (condition, c.lead.priority, is_term, -(c.counted or 0.0), c.order)

    # A counter not replied to yet is answered with one different ask (or accepted).
    counters = counters_to_answer(ctx.log)
    ranked, held = one_reply_ask(sorted(open_asks, key=order_key), counters)
    chosen, rest = ranked[:MAX_ASKS], [*ranked[MAX_ASKS:], *held]
    later = _("Worth raising later, once the asks above are settled.")
    for candidate in rest:
        background.extend(BackgroundPoint(p, later) for p in (candidate.lead, *candidate.merged))
    asks = tuple(_ask_of(c) for c in chosen)
    background.sort(key=lambda b: points.index(b.point) if b.point in points else len(points))

    walk: WalkAway | None = None
    if ranking_prefs is not None and options:
        walk = walk_away(
            options,
            ranking_prefs,
            ctx.offer.key,
            remote_asked=any(a.component == REMOTE for a in asks),
            level_asked=_level_asked(ctx, asks),
            tolerance=CO_FIRST_TOLERANCE,
        )
    private = _private_notes(ctx, points, gap, walk, asks)
    if ranking_prefs is not None and options:
        carried = ranking_reason(options, ranking_prefs, ctx.offer.key)
        if carried:
            private = (carried, *private)
    return Plan(
        key=ctx.offer.key,
        name=ctx.offer.name,
        company=ctx.offer.company,
        kind=ctx.offer.kind,
        currency=cur,
        home_currency=ctx.prefs.home_currency,
        horizon_years=_years(ctx),
        gap=gap,
        target=_target(ctx, asks, work_timezone),
        walk_away=walk,
        asks=asks,
        background=tuple(background),
        leverage=_unique([w for a in asks for w in a.leverage]),
        private_notes=private,
        waiting=tuple(
            waiting_state(logged, ctx.today, ctx.offer.deadline)
            for logged in ctx.log
            if logged.waiting
        ),
        in_hand=ctx.offer.in_hand,
        counters=counters,
    )


def _private_notes(
    ctx: NegotiationContext,
    points: Sequence[NegotiationPoint],
    gap: MoneyGap,
    walk: WalkAway | None,
    asks: Sequence[Ask],
) -> tuple[str, ...]:
    """Return the reasoning for the user only: the gap, the walk-away, weights and verdicts."""
    notes: list[str] = []
    if not ctx.offer.in_hand:
        notes.append(
            _(
                "The offer is not in hand yet: its figures are expected, not offered. Ask "
                "nothing before it arrives; the message below is for that day."
            )
        )
    if gap.amount > 0:
        notes.append(
            _(
                "The money gap is {gap} over {years} years (gross, {currency}): what it takes to "
                "match {against}. Your money asks add up to {asked}."
            ).format(
                gap=money(gap.amount, gap.currency),
                years=gap.horizon_years,
                currency=gap.currency,
                against=gap.against,
                asked=money(sum(a.counted for a in asks), gap.currency),
            )
        )
    if walk is not None and walk.value_home is None:
        notes.append(_("{name}: {reason}.").format(name=ctx.offer.name, reason=walk.reason))
    if walk is not None and walk.value_home is not None:
        margin = walk.margin_home or 0.0
        notes.append(
            _("Walk away below {value} (the board's headline value): {reason}.").format(
                value=money(walk.value_home, walk.home_currency), reason=walk.reason
            )
        )
        if margin >= 0:
            notes.append(
                _("Today it is {margin} above that.").format(
                    margin=about(margin, walk.home_currency)
                )
            )
        else:
            notes.append(
                _("Today it is {margin} short of it.").format(
                    margin=about(-margin, walk.home_currency)
                )
            )
        if walk.conditions:
            notes.append(
                _("Only with: {conditions}.").format(conditions=_("; ").join(walk.conditions))
            )
    notes.extend(p.private for p in points if p.private)
    notes.extend(
        _("{title}: {why}").format(title=p.title, why=p.trigger)
        for p in points
        if p.component is None
    )
    if ctx.offer.kind == INTERNAL:
        notes.append(
            _(
                "An internal transfer: your own employer pays no sign-on, relocation or make-whole; "
                "negotiate level, remote terms and start date."
            )
        )
    elif ctx.offer.kind != EXTERNAL:
        notes.append(_("Staying: ask your manager for a retention grant or a remote arrangement."))
    return _unique(notes)
