"""Flip finder: the smallest ask in one component that changes the scenario's rank."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from compensation.selectors import fx_table
from offers.board import (
    Board,
    Evaluation,
    basis_of,
    board_build,
    current_job_spec,
    option_facts,
    ranking_prefs,
)
from offers.logic.ranking import flip_ask, flip_blocker
from offers.models import Scenario
from offers.scenarios.evaluation import scenario_evaluation
from offers.selectors import offer_list, preferences_get

FLIP_COMPONENTS = ("stock", "base", "sign_on")
FLIP_RESOLUTION = 1000.0
FLIP_PROBE = 1000.0
FLIP_MAX_ASK = 5_000_000.0


@dataclasses.dataclass
class FlipAnswer:
    """The smallest ask in one component that lifts the scenario first (or above a rival):
    ``ask`` and the search's limit in the field's ``currency``, the value in ``home_currency``."""

    component: str
    rival_key: str | None
    rival_name: str | None
    currency: str
    home_currency: str = ""
    max_ask: float = FLIP_MAX_ASK
    ask: float | None = None
    blocker: str | None = None
    message: str = ""
    gain_per_unit: float = 0.0


def _board_at(
    user: AbstractBaseUser, scenario: Scenario, component: str, today: dt.date
) -> Callable[[float], tuple[Board, Evaluation]]:
    """Return the board (ranking only) and evaluation with an ask added to the scenario."""
    if component not in FLIP_COMPONENTS:
        raise ValueError(f"unknown component {component!r}")
    prefs = preferences_get(user=user)
    fx = fx_table(user=user)
    offers = list(offer_list(user=user))
    basis = basis_of(prefs, today)
    current = current_job_spec(offers, user, basis, fx)

    def board_at(ask: float) -> tuple[Board, Evaluation]:
        more = {f"more_{component}": ask}
        ev = scenario_evaluation(
            scenario, prefs, fx, today=today, basis=basis, current=current, **more
        )
        board = board_build(
            user=user,
            offers=offers,
            prefs=prefs,
            today=today,
            overrides={str(scenario.offer_id): ev},
            fx=fx,
            current=current,
            mc_paths=0,  # only the ranking is read
        )
        return board, ev

    return board_at


def _wins(board: Board, key: str, rival_key: str | None) -> bool:
    """Return whether the option ranks first (or above the rival) on the board."""
    ranks = {r.key: r.rank for r in board.ranking}
    return ranks.get(key) == 1 if rival_key is None else ranks[key] < ranks[rival_key]


def _confirmed(ask: float, wins: Callable[[float], bool]) -> float:
    """Return the ask nudged a step at a time to the smallest that wins on the real board.

    The Monte Carlo percentile is only nearly linear in the ask.
    """
    for _step in range(20):
        if wins(ask) or ask >= FLIP_MAX_ASK:
            break
        ask += FLIP_RESOLUTION
    for _step in range(20):
        if ask < FLIP_RESOLUTION or not wins(ask - FLIP_RESOLUTION):
            break
        ask -= FLIP_RESOLUTION
    return ask


def flip_find(
    *,
    user: AbstractBaseUser,
    scenario: Scenario,
    component: str,
    rival_key: str | None = None,
) -> FlipAnswer:
    """Return the smallest extra stock a year, base or sign-on that flips the ranking.

    Value is linear in each ask, so the gain per unit comes from one probe of +1,000; the
    answer is then checked on the real board and nudged by a step if the Monte Carlo
    percentile is not exactly linear.
    """
    key = str(scenario.offer_id)
    # The ask is in the currency its field is typed in: stock in the scenario's stock currency.
    currency = scenario.stock_currency if component == "stock" else scenario.offer.package.currency
    board_at = _board_at(user, scenario, component, timezone.localdate())
    board, ev = board_at(0.0)
    rival_name = next((e.offer.name for e in board.evaluations if e.key == rival_key), None)
    answer = FlipAnswer(component, rival_key, rival_name, currency, board.prefs.home_currency)
    if ev.error:
        answer.message = ev.error
        return answer
    ok = [e for e in board.evaluations if not e.error]
    if rival_key is not None and rival_key not in {e.key for e in ok}:
        answer.rival_key = rival_key = None
    if _wins(board, key, rival_key):
        answer.ask, answer.message = 0.0, "already_wins"
        return answer
    facts, rprefs = [option_facts(e) for e in ok], ranking_prefs(board.prefs)
    answer.blocker = flip_blocker(facts, rprefs, key, rival_key)
    if answer.blocker:
        return answer
    probe, probe_ev = board_at(FLIP_PROBE)
    comp_gain = probe.evaluation(key).value - board.evaluation(key).value
    answer.gain_per_unit = comp_gain / FLIP_PROBE
    first_year_gain_per_unit = max(0.0, (probe_ev.first_year - ev.first_year) / FLIP_PROBE)
    if answer.gain_per_unit <= 0:
        answer.message = "no_gain"
        return answer
    found = flip_ask(
        facts,
        rprefs,
        key,
        answer.gain_per_unit,
        rival_key=rival_key,
        max_ask=FLIP_MAX_ASK,
        resolution=FLIP_RESOLUTION,
        first_year_gain_per_unit=first_year_gain_per_unit,
    )
    if found is None:
        answer.message = "out_of_reach"
        return answer
    answer.ask = _confirmed(found, lambda ask: _wins(board_at(ask)[0], key, rival_key))
    return answer
