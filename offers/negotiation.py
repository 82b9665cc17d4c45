"""Negotiation points of one offer: the database turned into the pure rules' context."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from accounts.wording import choice_label
from compensation.engine import (
    EngineInputError,
    forfeited_on_leave,
    project_yearly,
    unvested_schedule,
)
from compensation.engine import next_vest_date as engine_next_vest_date
from compensation.models import Band, Level
from compensation.selectors import (
    FxTable,
    bands_for_levels,
    fx_table,
    local_band_for,
    next_level,
    package_terms,
    yearly_stock_value,
)
from compensation.terms import stock_grant_currency
from interviews.models import Process
from offers.board import (
    Board,
    Evaluation,
    board_build,
    evaluate_offer,
    option_facts,
    own_spec,
    ranking_prefs,
)
from offers.board_cache import board_derived
from offers.export.rows import PlanRow
from offers.logic.answers import FOLLOW_UP, NEXT_STEP, TO_ASK, WAITING
from offers.logic.draft import draft_message, message_note
from offers.logic.negotiation import negotiation_points
from offers.logic.plan import Plan, negotiation_plan
from offers.logic.ranking import money_value_of_weight
from offers.logic.rules.base import (
    BASE,
    DEADLINE,
    LEVEL,
    REMOTE,
    SIGN_ON,
    START,
    STOCK,
    AlternativeFacts,
    BandFacts,
    CurrentJobFacts,
    LoggedAsk,
    NegotiationContext,
    NegotiationPoint,
    NegotiationPrefs,
    OfferFacts,
)
from offers.models import IN_HAND_STATUSES, NegotiationEntry, Offer
from offers.selectors_negotiation import negotiation_entry_list

# Hours of the team's day the user wants to share when time zone counts in their weights.
MIN_OVERLAP_HOURS = 4.0
GONE = (Offer.Status.DECLINED, Offer.Status.EXPIRED)


def _target_level(offer: Offer) -> Level | None:
    """Return the level the user aimed for: the offer's, else its process's."""
    if offer.target_level_id:
        return offer.target_level
    if offer.process_id and offer.process is not None:
        return offer.process.target_level
    return None


def _band_facts(*, user: AbstractBaseUser, offer: Offer, fx: FxTable) -> BandFacts | None:
    """Return the offered level's band (and the next level's stock) in the offer currency."""
    package = offer.package
    location = package.location.name if package.location_id and package.location else None

    def local(level: Level | None) -> Band | None:
        # Only a band of the offer's own place and currency (a US band says nothing of Taipei).
        return local_band_for(user=user, level=level, currency=package.currency, location=location)

    def conv(value: Decimal, row: Band) -> float:
        return float(value) * fx.rate(row.currency, package.currency)

    band = local(offer.level)
    if band is None:
        return None
    upper = next_level(offer.level) if offer.level else None
    upper_band = local(upper) if upper else None
    try:
        return BandFacts(
            level_code=band.level.code,
            base_mid=conv(band.base_mid, band),
            base_max=conv(band.base_max, band),
            stock_mid=conv(band.stock_mid, band),
            stock_max=conv(band.stock_max, band),
            next_level_code=upper.code if upper else None,
            next_level_stock_mid=conv(upper_band.stock_mid, upper_band) if upper_band else None,
            next_level_stock_max=conv(upper_band.stock_max, upper_band) if upper_band else None,
        )
    except LookupError:
        return None


def _p_cumulative(board: Board, ev: Evaluation, column: str) -> float | None:
    """Return a Monte Carlo percentile of the horizon total, in the offer currency."""
    mc = board.mc
    if mc is None or ev.key not in mc.cumulative or ev.fx_to_home <= 0:
        return None
    wanted = float(column.lstrip("p"))
    if wanted not in mc.percentiles:
        return None
    return float(mc.cumulative[ev.key][mc.percentiles.index(wanted), -1]) / ev.fx_to_home


def _msgid(label: object) -> str:
    """Return a model choice's label untranslated: the message id the logic says through the
    catalogue in the language of the message it writes."""
    with translation.override(None):
        return str(label)


def _running(*, user: AbstractBaseUser, board: Board) -> dict[int, Any]:
    """Return the user's processes still running by id (read once per board)."""
    from interviews.selectors import active_processes

    # Read once per board: the export asks for the points of ten options on one board.
    return board_derived(
        board, "active-processes", lambda _board: {p.pk: p for p in active_processes(user=user)}
    )


def _stock_terms(package: Any, *, external: bool, fx: FxTable) -> tuple[str, float]:
    """Return the currency a stock ask is said in (the grant's own) and its rate to the pay's.

    A new job's grant is its new-hire grant; an option that keeps the grants it holds is
    granted like its company's stock. Without a rate the pay currency stands in.
    """
    currency = stock_grant_currency(package_terms(package), revise_first_grant=external)
    if currency == package.currency:
        return "", 1.0
    try:
        return currency, fx.rate(currency, package.currency)
    except LookupError:
        return "", 1.0


def _own_terms(ev: Evaluation) -> tuple[float, ...]:
    """Return the offer's own package by package year, in its currency (what its letter says)."""
    if ev.spec is None:
        return ()
    return tuple(float(v) for v in project_yearly(ev.spec)["total"])


def _rung_facts(level: Level | None) -> tuple[str | None, int | None]:
    """Return a level's code and its equivalence order (None: no level, or no order)."""
    if level is None:
        return None, None
    return level.code, level.equivalence or None


def _process_facts(
    *, user: AbstractBaseUser, offer: Offer, board: Board
) -> tuple[tuple[str, ...], bool]:
    """Return the signals of the offer's interview rounds, and whether rounds are still ahead."""
    if not offer.process_id or offer.process is None:
        return (), False
    from interviews.selectors import process_signals

    signals = tuple(s for s in process_signals(process=offer.process) if s)
    running = _running(user=user, board=board).get(offer.process_id)
    return signals, bool(getattr(running, "upcoming_round_list", ()))


def offer_facts(
    *, user: AbstractBaseUser, offer: Offer, ev: Evaluation, board: Board, fx: FxTable
) -> OfferFacts:
    """Return the offer as the rules see it."""
    package = offer.package
    assert ev.yearly is not None
    level_code, level_order = _rung_facts(offer.level)
    target_code, target_order = _rung_facts(_target_level(offer))
    grants = list(package.grants.all())
    weights = grants[0].weights if grants and isinstance(grants[0].weights, list) else []
    signals, rounds_ahead = _process_facts(user=user, offer=offer, board=board)
    company = offer.company or package.company
    stock_currency, fx_stock = _stock_terms(
        package, external=offer.kind == Offer.Kind.EXTERNAL, fx=fx
    )
    return OfferFacts(
        key=ev.key,
        name=offer.name,
        company=company.name if company else offer.name,
        currency=package.currency,
        yearly_totals=_own_terms(ev),
        yearly_home=tuple(ev.values),
        base=float(package.base),
        stock_per_year=float(yearly_stock_value(package)),
        kind=offer.kind,
        sign_on_total=float(sum(s.amount for s in package.sign_ons.all())),
        level_code=level_code,
        level_order=level_order,
        target_level_code=target_code,
        target_level_order=target_order,
        band=_band_facts(user=user, offer=offer, fx=fx),
        remote_weeks_allowed=ev.remote_weeks,
        relocation_required=offer.relocation_required,
        relocation_amount=float(package.relocation),
        overlap_hours=ev.overlap.average_hours if ev.overlap else 8.0,
        work_zone=offer.work_timezone,
        start_date=offer.start_date,
        deadline=offer.deadline,
        vesting_year_weights=tuple(float(w) for w in weights),
        grant_count=len(grants),
        refresher_count=len(package.refreshers.all()),
        is_private=bool(company and company.is_private),
        volatility_pct=ev.spec.stock.volatility_pct if ev.spec else None,
        p10_cumulative=_p_cumulative(board, ev, "p10"),
        p50_cumulative=_p_cumulative(board, ev, "p50"),
        signals=signals,
        shareable=offer.shareable,
        stock_currency=stock_currency,
        fx_stock_to_offer=fx_stock,
        in_hand=offer.in_hand,
        rounds_ahead=rounds_ahead,
        first_year_at_base=_first_year_at_base(ev, board, fx),
    )


def _first_year_at_base(ev: Evaluation, board: Board, fx: FxTable) -> Callable[[float], float]:
    """Return the option's first window year (home, on the board's basis) at another base."""
    spec = own_spec(ev, fx)

    def first_year(base: float) -> float:
        probe = evaluate_offer(
            ev.offer, board.prefs, fx, basis=board.basis, current=board.current,
            spec=dataclasses.replace(spec, base=base),
        )  # fmt: skip
        return probe.first_year

    return first_year


def current_job_facts(
    *,
    offer: Offer,
    stay: Evaluation | None,
    board: Board,
    today: dt.date,
    fx: FxTable | None = None,
) -> CurrentJobFacts | None:
    """Return the current job's pay if staying and what moving to ``offer`` forfeits.

    What leaving forfeits is in home currency, with the current job's pay and stock
    currencies to say it in.
    """
    if stay is None or stay.spec is None or offer.kind == Offer.Kind.STAY:
        return None
    totals = tuple(stay.values)
    package = stay.offer.package
    base_home = float(package.base) * stay.fx_to_home
    if offer.kind == Offer.Kind.INTERNAL:
        # A transfer keeps the unvested grants and the sign-on.
        return CurrentJobFacts(yearly_totals_if_stay=totals, base_home=base_home)
    table = fx or board.fx or fx_table(user=package.owner)
    held = stock_grant_currency(package_terms(package), revise_first_grant=True)
    try:
        fx_held = table.rate(held, board.prefs.home_currency)
    except LookupError:
        held, fx_held = "", 1.0
    leave = offer.start_date or today
    to_home = stay.fx_to_home
    # Leaving forfeits the grants held on the decision date, never a modelled refresher.
    owned = tuple(g for g in stay.spec.grants if (g.vest_start or stay.spec.start) <= today)
    spec = dataclasses.replace(stay.spec, refreshers=(), grants=owned)
    try:
        lost = forfeited_on_leave(spec, leave)
        vest = engine_next_vest_date(spec, leave - dt.timedelta(days=1))
        vest_value = 0.0
        if vest is not None:
            pending = unvested_schedule(spec, leave - dt.timedelta(days=1))
            vest_value = float(pending.loc[pending["date"] == vest, "value"].sum()) * to_home
    except EngineInputError:
        return CurrentJobFacts(yearly_totals_if_stay=totals, base_home=base_home)
    return CurrentJobFacts(
        yearly_totals_if_stay=totals,
        base_home=base_home,
        unvested_forfeited_by_year=tuple(
            (row["year"], row["value"] * to_home) for row in lost["unvested_by_year"]
        ),
        unvested_total=lost["unvested_value"] * to_home,
        sign_on_clawback=lost["sign_on_clawback"] * to_home,
        next_vest_date=vest,
        next_vest_value=vest_value,
        currency=package.currency,
        fx_to_home=to_home,
        stock_currency=held,
        fx_stock_to_home=fx_held,
    )


def _band_estimate(*, band: Band | None, board: Board, fx: FxTable) -> float:
    """Return a band's midpoint pay over the horizon in home currency (0 if unknown)."""
    if band is None:
        return 0.0
    yearly = float(band.base_mid) * (1 + float(band.bonus_target_pct) / 100) + float(band.stock_mid)
    try:
        rate = fx.rate(band.currency, board.prefs.home_currency)
    except LookupError:
        return 0.0
    return yearly * rate * board.prefs.horizon_years


def _stage(process: Any) -> str:
    return _msgid(choice_label(Process, "stage", process.stage))


def _alternative(
    ev: Evaluation, offer: Offer, board: Board, running: dict[int, Any], excluded: set[str]
) -> AlternativeFacts | None:
    """Return another option as an alternative to ``offer`` (None: the offer itself, staying,
    one declined or expired, not valued, or valued after tax with no tax counted)."""
    other = ev.offer
    if other.pk == offer.pk or ev.error or other.kind == Offer.Kind.STAY or other.status in GONE:
        return None
    if board.basis.after_tax and ev.tax_unknown:
        # Its after-tax value counts no tax at all: never leverage, however high.
        return None
    process = running.get(other.process_id) if other.process_id else None
    if other.status in IN_HAND_STATUSES:
        kind = "offer_in_hand"
    elif process is not None:
        kind = "active_process"
    else:
        kind = "band_median"
    return AlternativeFacts(
        name=other.name,
        company=(other.company.name if other.company else other.name),
        value=ev.value,
        first_year=ev.first_year,
        evidence_kind=kind,
        kind=other.kind,
        shareable=other.shareable,
        next_round_date=_next_round_date(process),
        stage=_stage(process) if process is not None else "",
        meets_constraints=ev.key not in excluded,
    )


def alternatives(
    *, user: AbstractBaseUser, offer: Offer, board: Board, fx: FxTable
) -> tuple[AlternativeFacts, ...]:
    """Return the other options and the interview processes still running without an offer."""
    running = _running(user=user, board=board)
    excluded = {r.key for r in board.ranking if r.excluded}  # by a hard constraint
    found = [
        a for ev in board.evaluations if (a := _alternative(ev, offer, board, running, excluded))
    ]
    linked = {ev.offer.process_id for ev in board.evaluations if ev.offer.process_id}
    unlinked = [p for p in running.values() if p.pk not in linked]
    bands = bands_for_levels(
        user=user, level_ids={p.target_level_id for p in unlinked if p.target_level_id}
    )
    found += [
        AlternativeFacts(
            name=f"{process.company.name}: {process.role}",
            company=process.company.name,
            value=_band_estimate(
                band=bands.get(process.target_level_id) if process.target_level_id else None,
                board=board,
                fx=fx,
            ),
            first_year=0.0,
            evidence_kind="active_process",
            shareable=False,
            next_round_date=_next_round_date(process),
            stage=_stage(process),
        )
        for process in unlinked
    ]
    return tuple(found)


def _next_round_date(process: object | None) -> dt.date | None:
    when = getattr(process, "next_round_at", None)
    return timezone.localdate(when) if when is not None else None


def negotiation_prefs(*, offer_key: str, ev: Evaluation, board: Board) -> NegotiationPrefs:
    """Return the user's needs, with what a remote week is worth under their weights."""
    prefs = board.prefs
    ok = [e for e in board.evaluations if not e.error]
    per_week: float | None = None
    if prefs.required_remote_weeks > 0 and ok:
        value = money_value_of_weight(
            [option_facts(e) for e in ok], ranking_prefs(prefs), "remote", offer_key
        )
        if value.amount is not None:
            per_week = value.amount / float(prefs.required_remote_weeks)
    return NegotiationPrefs(
        required_remote_weeks=float(prefs.required_remote_weeks),
        money_per_remote_week=per_week,
        min_overlap_hours=MIN_OVERLAP_HOURS if prefs.weight_timezone > 0 else 0.0,
        home_currency=prefs.home_currency,
        horizon_years=prefs.horizon_years,
        fx_offer_to_home=ev.fx_to_home,
        home_zone=prefs.home_timezone,
    )


# A log entry's topic as the part of the package the plan asks about ("other": none).
LOG_TOPICS = {
    NegotiationEntry.Topic.LEVEL: LEVEL,
    NegotiationEntry.Topic.BASE: BASE,
    NegotiationEntry.Topic.STOCK: STOCK,
    NegotiationEntry.Topic.SIGN_ON: SIGN_ON,
    NegotiationEntry.Topic.REMOTE: REMOTE,
    NegotiationEntry.Topic.START_DATE: START,
    NegotiationEntry.Topic.DEADLINE: DEADLINE,
}


def logged_ask(entry: NegotiationEntry) -> LoggedAsk:
    """Return a log entry as the plan reads it: a typed fact, no model."""
    revised = tuple(
        component
        for component, value in (
            (BASE, entry.revised_base),
            (STOCK, entry.revised_stock),
            (SIGN_ON, entry.revised_sign_on),
            (LEVEL, entry.revised_level_id),
            (DEADLINE, entry.revised_deadline),
            (REMOTE, entry.revised_remote_weeks),
        )
        if value is not None
    )
    return LoggedAsk(
        topic=LOG_TOPICS.get(entry.topic, ""),
        asked_on=entry.asked_on,
        channel=_msgid(NegotiationEntry.Channel(entry.channel).label),
        contact=entry.contact,
        outcome=entry.outcome,
        answered_on=entry.answered_on,
        answer=entry.answer,
        revised=revised,
        revised_level=entry.revised_level.code if entry.revised_level_id else None,
        revised_deadline=entry.revised_deadline,
    )


def negotiation_log_facts(
    *, user: AbstractBaseUser, offer: Offer, board: Board
) -> tuple[LoggedAsk, ...]:
    """Return the option's logged asks, oldest first (the user's log read once per board)."""
    by_offer: dict[int, list[NegotiationEntry]] = board_derived(
        board, "negotiation-log", lambda _b: _log_by_offer(user)
    )
    return tuple(logged_ask(e) for e in by_offer.get(offer.pk, ()))


def _log_by_offer(user: AbstractBaseUser) -> dict[int, list[NegotiationEntry]]:
    grouped: dict[int, list[NegotiationEntry]] = {}
    for entry in negotiation_entry_list(user=user):
        grouped.setdefault(entry.offer_id, []).append(entry)
    return grouped


def negotiation_context(
    *, user: AbstractBaseUser, offer: Offer, board: Board
) -> NegotiationContext | None:
    """Return everything the rules look at for one offer (None if it cannot be evaluated)."""
    today = timezone.localdate()
    key = str(offer.pk)
    ev = next((e for e in board.evaluations if e.key == key), None)
    if ev is None or ev.error or ev.yearly is None:
        return None
    fx = board.fx or fx_table(user=user)
    stays = [e for e in board.evaluations if e.offer.kind == Offer.Kind.STAY and not e.error]
    stay = next((e for e in stays if e.offer.pk != offer.pk), None)
    return NegotiationContext(
        offer=offer_facts(user=user, offer=ev.offer, ev=ev, board=board, fx=fx),
        current=current_job_facts(offer=ev.offer, stay=stay, board=board, today=today, fx=fx),
        alternatives=alternatives(user=user, offer=ev.offer, board=board, fx=fx),
        prefs=negotiation_prefs(offer_key=key, ev=ev, board=board),
        today=today,
        log=negotiation_log_facts(user=user, offer=ev.offer, board=board),
    )


def negotiation_context_for(
    *, user: AbstractBaseUser, offer: Offer, board: Board
) -> NegotiationContext | None:
    """Return the offer's context, derived once per board (it holds no translated text)."""
    return board_derived(
        board,
        f"negotiation-context:{offer.pk}",
        lambda board: negotiation_context(user=user, offer=offer, board=board),
    )


def negotiation_for_offer(
    *, user: AbstractBaseUser, offer: Offer, board: Board | None = None
) -> list[NegotiationPoint]:
    """Return the offer's negotiation points, most important first."""
    board = board or board_build(user=user)
    ctx = negotiation_context_for(user=user, offer=offer, board=board)
    return negotiation_points(ctx) if ctx is not None else []


def negotiation_plan_of(
    *, user: AbstractBaseUser, offer: Offer, board: Board, points: list[NegotiationPoint]
) -> Plan | None:
    """Return the offer's plan from its points (the exports: the points are already read)."""
    ctx = negotiation_context_for(user=user, offer=offer, board=board)
    if ctx is None:
        return None
    return _plan(ctx, board.evaluation(str(offer.pk)), board, points)


def plan_rows(plan: Plan, *, option_key: str, option: str) -> list[PlanRow]:
    """Return a plan as the exports a person reads show it: its asks in order, with their
    amounts and where each stands, then the other points as background, without amounts."""
    rows = [
        PlanRow(
            option_key=option_key,
            option=option,
            part="ask",
            order=order,
            title=ask.title,
            amount=ask.amount,
            currency=ask.currency or "",
            per_year=ask.per_year,
            term=ask.term or "",
            status=str(ASK_STATUS_LABELS.get(ask.status, "")),
            note=ask.state.note or (ask.script if ask.state.to_send else ""),
        )
        for order, ask in enumerate(plan.asks, start=1)
    ]
    return rows + [
        PlanRow(
            option_key=option_key,
            option=option,
            part="background",
            order=None,
            title=item.point.title,
            amount=None,
            currency="",
            per_year=False,
            term="",
            status=str(_("Background")),
            note=item.note,
        )
        for item in plan.background
    ]


# Where an ask stands in the log, as the exports say it.
ASK_STATUS_LABELS = {
    TO_ASK: gettext_lazy("To ask"),
    WAITING: gettext_lazy("Asked, waiting"),
    FOLLOW_UP: gettext_lazy("Asked, follow it up"),
    NEXT_STEP: gettext_lazy("Next step"),
}


# The languages a draft message is written in: English, and Traditional Chinese through the
# catalogue (locale/zh_Hant).
DRAFT_LANGUAGES = (("en", gettext_lazy("English")), ("zh-hant", "繁體中文"))


@dataclasses.dataclass(frozen=True)
class Draft:
    """A draft message to the recruiter in one language, and when to send it ("": today)."""

    language: str
    label: str
    text: str
    note: str = ""


@dataclasses.dataclass(frozen=True)
class NegotiationPlanView:
    """One option's plan (active language), its draft messages and every point behind it.

    The drafts are written when first read (only the negotiation page shows them; each
    language's draft is a plan of its own): ``write_drafts`` returns them.
    """

    plan: Plan
    points: list[NegotiationPoint]
    write_drafts: Callable[[], tuple[Draft, ...]] = dataclasses.field(repr=False, compare=False)

    @functools.cached_property
    def drafts(self) -> tuple[Draft, ...]:
        """Return the draft message in English and in Traditional Chinese."""
        return self.write_drafts()


def keep_rate(ev: Evaluation) -> float:
    """Return the share of gross pay the board's basis keeps over the window (1 when gross)."""
    if ev.yearly is None or not ev.basis.after_tax:
        return 1.0
    gross = float(ev.yearly["total"].sum())
    return float(ev.yearly["net"].sum()) / gross if gross > 0 else 1.0


def _plan(
    ctx: NegotiationContext, ev: Evaluation, board: Board, points: list[NegotiationPoint]
) -> Plan:
    """Return the plan for a context from its points, in the active language."""
    ok = [e for e in board.evaluations if not e.error]
    return negotiation_plan(
        ctx,
        points,
        options=[option_facts(e) for e in ok],
        ranking_prefs=ranking_prefs(board.prefs),
        keep_rate=keep_rate(ev),
        work_timezone=ev.offer.work_timezone,
    )


def negotiation_plan_view(
    *, user: AbstractBaseUser, offer: Offer, board: Board
) -> NegotiationPlanView | None:
    """Return the offer's plan, its draft in English and Traditional Chinese, and its points."""
    ctx = negotiation_context_for(user=user, offer=offer, board=board)
    if ctx is None:
        return None
    ev = board.evaluation(str(offer.pk))
    points = negotiation_points(ctx)
    plan = _plan(ctx, ev, board, points)
    language = translation.get_language()

    def write_drafts() -> tuple[Draft, ...]:
        # When to send is said to the person, in the page's language; only the message
        # itself is in the draft's (the same plan: the note is the same for every draft).
        note = message_note(plan)
        drafts = []
        for code, label in DRAFT_LANGUAGES:
            if code == language:  # the plan above is already in this language
                drafts.append(Draft(code, label, draft_message(plan), note))
                continue
            with translation.override(code):
                other = _plan(ctx, ev, board, negotiation_points(ctx))
                drafts.append(Draft(code, label, draft_message(other), note))
        return tuple(drafts)

    return NegotiationPlanView(plan=plan, points=points, write_drafts=write_drafts)


def plan_view_for(
    *, user: AbstractBaseUser, offer: Offer, board: Board
) -> NegotiationPlanView | None:
    """Return the offer's plan view, derived once per board (the negotiation page, the scenario
    page and "Play it out" read the same one)."""
    return board_derived(
        board,
        f"negotiation-plan:{offer.pk}",
        lambda board: negotiation_plan_view(user=user, offer=offer, board=board),
    )


def plan_adjustments_note(plan: Plan) -> str:
    """Return the scenario note naming the plan's asks."""
    label = pgettext("after a label", ": ")
    asks = _("; ").join(f"{a.title}{label}{a.term or ''}".strip() for a in plan.asks)
    return str(_("The plan's asks: %(asks)s") % {"asks": asks})
