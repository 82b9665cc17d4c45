"""One counter-offer plan per option: a target, a walk-away point and at most three asks.

The rules (``offers.logic.rules``) each raise a point; the plan turns them into what a recruiter
would take seriously: the money asks share one money gap, terms (remote work, deadline, start
date, hours) are asked once each (``offers.logic.plan_figures`` holds the arithmetic,
``offers.logic.plan_words`` the sentences).

The plan reads the negotiation log (``NegotiationContext.log``) through ``offers.logic.answers``:
an ask already made waits for its answer (followed up after a few working days, never
repeated), an answered one is never asked again in the same terms (it moves to the background
with the answer stated) or makes another part the next step, and a counter not replied to yet
is answered with one different ask, or accepted. The draft is ``offers.logic.draft``'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from offers.logic.answers import (
    CLOSED,
    FOLLOW_UP,
    AskState,
    ask_state,
    counters_to_answer,
    one_reply_ask,
    waiting_state,
)
from offers.logic.i18n import gettext as _
from offers.logic.plan_figures import (
    Candidate,
    MoneyGap,
    TargetPackage,
    WalkAway,
    level_asked,
    money_candidates,
    money_gap,
    target_package,
    walk_away,
)
from offers.logic.plan_words import (
    cites_current_pay,
    leverage_words,
    private_notes,
    ranking_reason,
    script,
    term_words,
    unique,
)
from offers.logic.ranking import CO_FIRST_TOLERANCE, OptionFacts, RankingPrefs
from offers.logic.rules.base import (
    PER_YEAR_COMPONENTS,
    REMOTE,
    LoggedAsk,
    NegotiationContext,
    NegotiationPoint,
    OfferFacts,
)

MAX_ASKS = 3


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
    def status(self) -> str:
        """Return where the ask stands in the log (``TO_ASK`` when never asked)."""
        return self.state.status


@dataclass(frozen=True)
class BackgroundPoint:
    """A point the plan does not ask for, and why."""

    point: NegotiationPoint
    note: str


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
    def money_asked(self) -> float:
        """Return what the money asks add up to over the horizon (offer currency, gross)."""
        return sum(a.counted for a in self.asks)


def _ask_of(candidate: Candidate) -> Ask:
    lead = candidate.lead
    played = (
        replace(
            lead,
            component=candidate.component,  # a private company's stock is asked in cash
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
        term=term_words(candidate),
        script=script(candidate),
        evidence=unique([p.trigger for p in every]),
        leverage=unique([w for p in every for w in leverage_words(p)]),
        point=played,
        merged=tuple(candidate.merged),
        offer_amount=candidate.offer_amount,
        state=candidate.state,
    )


def _term_candidates(
    points: list[NegotiationPoint], money_asks: list[Candidate], background: list[BackgroundPoint]
) -> list[Candidate]:
    """Return the term asks: one per component; a money component's term folds into its ask."""
    used = {id(p) for c in money_asks for p in (c.lead, *c.merged)}
    used |= {id(b.point) for b in background}
    term_asks: list[Candidate] = []
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
        term_asks.append(Candidate(point.component, point, [], order))
    return term_asks


def _support(background: Sequence[BackgroundPoint]) -> NegotiationPoint | None:
    """Return what leaving costs, when the gap already covers it: the first money ask's leverage.

    The unvested stock one walks away from is the most concrete figure to cite.
    """
    covered = [b.point for b in background if b.point.reason and cites_current_pay(b.point)]
    return min(covered, key=lambda p: "unvested_total_home" not in p.figures, default=None)


def _open_in_log(
    ctx: NegotiationContext, candidates: list[Candidate], background: list[BackgroundPoint]
) -> list[Candidate]:
    """Set where each ask stands in the log; return the open ones (a closed one goes back)."""
    found: list[Candidate] = []
    for candidate in candidates:
        every = (candidate.lead, *candidate.merged)
        # A part asked in another's terms (private stock in cash) answers to both.
        topics = frozenset(
            {candidate.component, *(t for p in every for t in (p.component, *p.topics) if t)}
        )
        candidate.state = ask_state(ctx, candidate.component, topics, term_words(candidate))
        if candidate.state.status == CLOSED:
            background.extend(BackgroundPoint(p, candidate.state.note) for p in every)
        else:
            found.append(candidate)
    return found


def _chosen(
    open_asks: list[Candidate],
    counters: Sequence[LoggedAsk],
    remote_first: bool,
    background: list[BackgroundPoint],
) -> list[Candidate]:
    """Return the asks the plan makes, at most ``MAX_ASKS``, in order; the rest wait for later.

    A remote ask comes first when the option is excluded for its remote weeks; a counter not
    replied to yet is answered with one different ask (or accepted).
    """

    def order_key(c: Candidate) -> tuple[int, int, int, float, int]:
        condition = 0 if (c.component == REMOTE and remote_first) else 1
        is_term = 0 if c.amount is not None else 1
        return (condition, c.lead.priority, is_term, -(c.counted or 0.0), c.order)

    ranked, held = one_reply_ask(sorted(open_asks, key=order_key), counters)
    later = _("Worth raising later, once the asks above are settled.")
    for candidate in [*ranked[MAX_ASKS:], *held]:
        background.extend(BackgroundPoint(p, later) for p in (candidate.lead, *candidate.merged))
    return ranked[:MAX_ASKS]


def _with_floor_base(
    walk: WalkAway | None, offer: OfferFacts, options: Sequence[OptionFacts]
) -> WalkAway | None:
    """Return the walk-away with the base below which the first year breaks the floor.

    The engine values the first year at a probed base (``offer.first_year_at_base``); it is
    piecewise linear in the base (the tax brackets), so a few secant steps find where it meets
    the floor. The base is rounded up to a hundred: a cautious figure.
    """
    at = offer.first_year_at_base
    if walk is None or walk.floor_home is None or at is None or offer.base <= 0:
        return walk
    floor = walk.floor_home
    x0, y0 = offer.base, next(o.first_year_total for o in options if o.key == offer.key)
    x1 = offer.base * 0.99
    y1 = at(x1)
    for _step in range(6):
        if abs(y1 - floor) < 1.0 or y1 == y0:
            break
        x0, y0, x1 = x1, y1, max(x1 + (floor - y1) * (x1 - x0) / (y1 - y0), 0.0)
        y1 = at(x1)
    if abs(y1 - floor) >= 1.0:
        return walk  # no base on its own reaches the floor (or it does not converge)
    return replace(walk, floor_base=math.ceil(x1 / 100) * 100)


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
    offer = ctx.offer
    gap = money_gap(ctx, points, keep_rate)
    money_asks, left, rest = money_candidates(ctx, points, gap)
    background = [BackgroundPoint(p, note) for p, note in left]
    term_asks = _term_candidates(points, money_asks, background)
    if money_asks:
        money_asks[0].support = _support(background)
    open_asks = _open_in_log(ctx, [*money_asks, *term_asks], background)
    remote_first = ranking_prefs is not None and any(
        o.key == offer.key and o.remote_weeks_allowed < ranking_prefs.required_remote_weeks
        for o in options
    )
    counters = counters_to_answer(ctx.log)
    chosen = _chosen(open_asks, counters, remote_first, background)
    background.sort(key=lambda b: points.index(b.point) if b.point in points else len(points))
    asks = tuple(_ask_of(c) for c in chosen)
    walk: WalkAway | None = None
    carried: str | None = None
    if ranking_prefs is not None and options:
        walk = walk_away(
            options,
            ranking_prefs,
            offer.key,
            remote_asked=any(c.component == REMOTE for c in chosen),
            level_asked=level_asked(ctx, chosen),
            tolerance=CO_FIRST_TOLERANCE,
        )
        carried = ranking_reason(options, ranking_prefs, offer.key)
        walk = _with_floor_base(walk, offer, options)
    held = sum(c.counted for c in money_asks if not any(c is x for x in chosen))
    private = private_notes(ctx, points, gap, walk, sum(a.counted for a in asks), held, rest)
    return Plan(
        key=offer.key,
        name=offer.name,
        company=offer.company,
        kind=offer.kind,
        currency=offer.currency,
        home_currency=ctx.prefs.home_currency,
        horizon_years=ctx.prefs.horizon_years,
        gap=gap,
        target=target_package(ctx, chosen, work_timezone),
        walk_away=walk,
        asks=asks,
        background=tuple(background),
        leverage=unique([w for a in asks for w in a.leverage]),
        private_notes=(carried, *private) if carried else private,
        waiting=tuple(
            waiting_state(logged, ctx.today, offer.deadline) for logged in ctx.log if logged.waiting
        ),
        in_hand=offer.in_hand,
        counters=counters,
    )
