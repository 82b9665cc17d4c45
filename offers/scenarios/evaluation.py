"""Scenarios: an offer with negotiated adjustments, valued and ranked against every option."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from compensation.engine import EngineInputError, PackageSpec
from compensation.selectors import FxTable, fx_table, package_terms, package_to_spec, terms_rate
from compensation.terms import apply_change
from offers.board import Board, Evaluation, basis_of, board_build, evaluate_offer
from offers.board_cache import board_derived, board_get
from offers.logic.plan import Ask
from offers.logic.rules.base import NegotiationPoint
from offers.models import Offer, Preferences, Scenario
from offers.negotiation import plan_view_for
from offers.scenarios.adjustments import VALUED_FIELDS, option_terms, scenario_change
from offers.scenarios.points import point_answered, scenario_outcome
from offers.valuation_basis import ValuationBasis, home_today


def scenario_offer(scenario: Scenario) -> Offer:
    """Return an unsaved copy of the scenario's offer with its level, start and remote terms."""
    offer = copy.copy(scenario.offer)
    # The level and start date are the package's: change a copy, never the board's package.
    offer.package = copy.copy(offer.package)
    if scenario.level_id:
        offer.level = scenario.level
    if scenario.start_date:
        offer.start_date = scenario.start_date
    # The option's own terms (remote weeks), as accepting the scenario writes them.
    for name, value in option_terms(scenario).items():
        setattr(offer, name, value)
    return offer


def scenario_spec(
    scenario: Scenario,
    prefs: Preferences,
    *,
    fx_to_home: float,
    fx: FxTable | None = None,
    more_stock: float = 0.0,
    more_base: float = 0.0,
    more_sign_on: float = 0.0,
) -> PackageSpec:
    """Return the engine spec of the offer with the scenario's change applied (and probes).

    The terms are the ones accepting the scenario would write (`scenario_change`,
    `apply_change`); only the share-price assumptions are the scenario's own.
    """
    offer = scenario.offer
    package = offer.package
    change = scenario_change(
        scenario,
        granted_on=home_today(prefs),
        more_stock=more_stock,
        more_base=more_base,
        more_sign_on=more_sign_on,
    )
    terms = apply_change(package_terms(package), change, terms_rate(package, fx))
    return package_to_spec(
        package,
        horizon_years=prefs.horizon_years,
        terms=terms,
        fx_to_home=fx_to_home,
        growth_pct=scenario.growth_pct,
        volatility_pct=scenario.volatility_pct,
        fx=fx,
    )


def scenario_evaluation(
    scenario: Scenario,
    prefs: Preferences,
    fx: FxTable,
    *,
    today: dt.date,
    basis: ValuationBasis | None = None,
    current: PackageSpec | None = None,
    **more: float,
) -> Evaluation:
    """Value the scenario like an option (``more_*`` add to stock, base or sign-on)."""
    offer = scenario_offer(scenario)
    basis = basis or basis_of(prefs, today)
    try:
        rate = fx.rate(offer.package.currency, basis.currency)
        spec = scenario_spec(scenario, prefs, fx_to_home=rate, fx=fx, **more)
    except (EngineInputError, LookupError, ValueError) as exc:
        return Evaluation(offer, basis, None, (), None, 1.0, None, 0.0, error=str(exc))
    return evaluate_offer(
        offer,
        prefs,
        fx,
        basis=basis,
        current=current,
        spec=spec,
        remote_weeks=scenario.remote_weeks_per_year,
    )


@dataclasses.dataclass
class Row:
    """One line of the comparison table."""

    key: str
    name: str
    yearly: list[float]
    cumulative: float
    rank: int | None
    excluded: bool
    is_scenario: bool = False
    is_original: bool = False


@dataclasses.dataclass
class AnsweredAsk:
    """One of the plan's asks and whether the scenario's adjustments meet it."""

    ask: Ask
    primary: bool
    answered: bool | None  # None: the scenario cannot play this kind of ask (a deadline)


@dataclasses.dataclass
class ScenarioView:
    """A scenario against its original offer and every other option."""

    scenario: Scenario
    prefs: Preferences
    original: Board
    board: Board
    ev: Evaluation
    original_ev: Evaluation
    rows: list[Row]
    # The plan's asks (primary first) the scenario answers: what the page lists.
    asks: list[AnsweredAsk] = dataclasses.field(default_factory=list)

    @property
    def key(self) -> str:
        return str(self.scenario.offer_id)

    @property
    def rank(self) -> int | None:
        return next((r.rank for r in self.board.ranking if r.key == self.key), None)

    @property
    def original_rank(self) -> int | None:
        return next((r.rank for r in self.original.ranking if r.key == self.key), None)

    @property
    def gain(self) -> float:
        return self.ev.value - self.original_ev.value

    @property
    def others(self) -> list[Evaluation]:
        return [e for e in self.board.evaluations if e.key != self.key and not e.error]


def _row(ev: Evaluation, board: Board, **flags: bool) -> Row:
    """Return an evaluation's line, ranked as ``board`` ranks it."""
    ranked = next((r for r in board.ranking if r.key == ev.key), None)
    return Row(
        key=ev.key,
        name=ev.offer.name,
        yearly=ev.values,
        cumulative=sum(ev.values),
        rank=ranked.rank if ranked else None,
        excluded=bool(ranked and ranked.excluded),
        **flags,
    )


def _rows(view_board: Board, original: Board, key: str) -> list[Row]:
    """Return every option's line on the scenario's board, ranked, then the original offer's."""
    rows = [
        _row(ev, view_board, is_scenario=ev.key == key)
        for ev in view_board.evaluations
        if not ev.error
    ]
    rows.sort(key=lambda r: (r.rank or 999, r.name))
    original_ev = next((e for e in original.evaluations if e.key == key), None)
    if original_ev is not None and not original_ev.error:
        rows.append(_row(original_ev, original, is_original=True))
    return rows


def _original_board(
    user: AbstractBaseUser, today: dt.date | None, board: Board | None
) -> tuple[dt.date, Board]:
    """Return the day and the user's board: the caller's, the cached one, or one for ``today``."""
    if board is not None:
        return board.basis.start, board
    if today is None or today == timezone.localdate():
        return timezone.localdate(), board_get(user=user)
    return today, board_build(user=user, today=today)


def _answers(
    user: AbstractBaseUser,
    scenario: Scenario,
    ev: Evaluation,
    original_ev: Evaluation,
    original: Board,
) -> list[AnsweredAsk]:
    """Return the negotiation page's plan asks, each with whether the scenario meets it."""
    # The same plan as the negotiation page's (one computation per board).
    plan_view = plan_view_for(user=user, offer=original_ev.offer, board=original)
    plan_asks = plan_view.plan.asks if plan_view is not None else ()
    outcome = (
        scenario_outcome(scenario, ev, original_ev, fx=original.fx)
        if plan_asks and not ev.error
        else None
    )

    def answered(point: NegotiationPoint) -> bool | None:
        return point_answered(point, outcome) if outcome is not None else None

    return [AnsweredAsk(a, i == 0, answered(a.point)) for i, a in enumerate(plan_asks)]


def scenario_view(
    *,
    user: AbstractBaseUser,
    scenario: Scenario,
    today: dt.date | None = None,
    board: Board | None = None,
) -> ScenarioView:
    """Evaluate a scenario and rank it in place of its offer among every option.

    ``board`` is the user's board when the caller has it already (an export's); otherwise the
    cached one, or one built for ``today``.
    """
    today, original = _original_board(user, today, board)
    prefs, offers = original.prefs, [e.offer for e in original.evaluations]
    key = str(scenario.offer_id)
    original_ev = next(e for e in original.evaluations if e.key == key)
    adjustments = repr([(f, getattr(scenario, f)) for f in VALUED_FIELDS])
    # The scenario's own valuation reads the board's inputs and its adjustments only.
    ev = board_derived(
        original,
        f"scenario-ev:{key}:{adjustments}",
        lambda original: scenario_evaluation(
            scenario,
            prefs,
            original.fx or fx_table(user=user),
            today=today,
            basis=original.basis,
            current=original.current,
        ),
    )
    board = (
        board_derived(
            original,
            f"scenario:{key}:{adjustments}",
            lambda original: board_build(
                user=user,
                offers=offers,
                prefs=prefs,
                today=today,
                # The other options are valued as on the original board: reuse their evaluations.
                overrides={**{e.key: e for e in original.evaluations}, key: ev},
                fx=original.fx,
                current=original.current,
                mc_paths=0,  # the scenario page shows no Monte Carlo band of this board
            ),
        )
        if not ev.error
        else original
    )
    return ScenarioView(
        scenario=scenario,
        prefs=prefs,
        original=original,
        board=board,
        ev=ev,
        original_ev=original_ev,
        rows=_rows(board, original, key),
        asks=_answers(user, scenario, ev, original_ev, original),
    )
