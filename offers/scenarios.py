"""Scenarios: an offer with negotiated adjustments, evaluated against every other option."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import numpy as np
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from compensation.engine import EngineInputError, PackageSpec
from compensation.engine.window import window_paths
from compensation.selectors import FxTable, fx_table, package_to_spec
from offers.board import (
    Board,
    Evaluation,
    ValuationBasis,
    basis_of,
    board_build,
    current_job_spec,
    evaluate_offer,
    option_facts,
    ranking_prefs,
)
from offers.board_cache import board_derived, board_get
from offers.logic.negotiation import NegotiationPoint
from offers.logic.ranking import FlipResult, flip_ask, flip_blocker
from offers.models import Offer, Preferences, Scenario
from offers.negotiation import negotiation_for_offer
from offers.selectors import offer_list, preferences_get

MC_PATHS = 200_000
MC_CHUNK = 20_000
MC_SEED = 20261207
MC_PERCENTILES = (10, 50, 90)
FLIP_COMPONENTS = ("stock", "base", "sign_on")
FLIP_RESOLUTION = 1000.0
FLIP_PROBE = 1000.0
FLIP_MAX_ASK = 5_000_000.0
ADJUSTMENTS = (
    "base",
    "raise_pct",
    "extra_sign_on",
    "extra_stock_yearly",
    "refresher_yearly",
    "level_id",
    "remote_weeks_per_year",
    "start_date",
    "growth_pct",
    "volatility_pct",
)


def _f(value: Decimal | float | None) -> float | None:
    return None if value is None else float(value)


def scenario_offer(scenario: Scenario) -> Offer:
    """Return an unsaved copy of the scenario's offer with its level, start and remote terms."""
    offer = copy.copy(scenario.offer)
    if scenario.level_id:
        offer.level = scenario.level
    if scenario.start_date:
        offer.start_date = scenario.start_date
    if scenario.remote_weeks_per_year is not None:
        offer.remote_weeks_per_year = scenario.remote_weeks_per_year
    return offer


def scenario_spec(
    scenario: Scenario,
    prefs: Preferences,
    *,
    fx_to_home: float,
    today: dt.date,
    fx: FxTable | None = None,
    more_stock: float = 0.0,
    more_base: float = 0.0,
    more_sign_on: float = 0.0,
) -> PackageSpec:
    """Return the engine spec of the offer with the scenario's adjustments (and probes)."""
    offer = scenario.offer
    package = offer.package
    # A new job's grants move with its start date; staying and a transfer keep theirs.
    start = package.start_date
    if offer.kind == Offer.Kind.EXTERNAL:
        start = scenario.start_date or offer.start_date or package.start_date
    base = float(scenario.base if scenario.base is not None else package.base) + more_base
    spec = package_to_spec(
        package,
        horizon_years=prefs.horizon_years,
        fx_to_home=fx_to_home,
        start=start,
        growth_pct=scenario.growth_pct,
        volatility_pct=scenario.volatility_pct,
        extra_stock_yearly=float(scenario.extra_stock_yearly) + more_stock,
        extra_sign_on=float(scenario.extra_sign_on) + more_sign_on,
        base=base,
        refresher_yearly=scenario.refresher_yearly,
        fx=fx,
    )
    if scenario.raise_pct is not None:
        spec = dataclasses.replace(spec, raise_pct=float(scenario.raise_pct))
    return spec


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
        spec = scenario_spec(scenario, prefs, fx_to_home=rate, today=today, fx=fx, **more)
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
class AnsweredPoint:
    """A negotiation point and whether the scenario's adjustments meet its ask."""

    point: NegotiationPoint
    answered: bool | None  # None: the scenario has no adjustment for this kind of ask


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
    points: list[AnsweredPoint]

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
        return self.ev.cumulative_home - self.original_ev.cumulative_home

    @property
    def others(self) -> list[Evaluation]:
        return [e for e in self.board.evaluations if e.key != self.key and not e.error]


def _rows(view_board: Board, original: Board, key: str, prefs: Preferences) -> list[Row]:
    ranks = {r.key: r for r in view_board.ranking}
    rows: list[Row] = []
    for ev in view_board.evaluations:
        if ev.error:
            continue
        ranked = ranks.get(ev.key)
        yearly = ev.values
        rows.append(
            Row(
                key=ev.key,
                name=ev.offer.name,
                yearly=yearly,
                cumulative=sum(yearly),
                rank=ranked.rank if ranked else None,
                excluded=bool(ranked and ranked.excluded),
                is_scenario=ev.key == key,
            )
        )
    rows.sort(key=lambda r: (r.rank or 999, r.name))
    original_ev = next((e for e in original.evaluations if e.key == key), None)
    if original_ev is not None and not original_ev.error:
        ranked = next((r for r in original.ranking if r.key == key), None)
        yearly = original_ev.values
        rows.append(
            Row(
                key=key,
                name=original_ev.offer.name,
                yearly=yearly,
                cumulative=sum(yearly),
                rank=ranked.rank if ranked else None,
                excluded=bool(ranked and ranked.excluded),
                is_original=True,
            )
        )
    return rows


def point_answered(
    point: NegotiationPoint, scenario: Scenario, ev: Evaluation, original: Evaluation
) -> bool | None:
    """Return whether the scenario meets a point's ask (None when it cannot say)."""
    ask = point.ask_amount
    stock = float(scenario.extra_stock_yearly)
    sign_on = float(scenario.extra_sign_on)
    offer = scenario.offer
    years = ev.spec.grants[0].schedule.years if ev.spec and ev.spec.grants else 4
    if point.rule == "top_of_band":
        return stock >= ask - 0.5 if ask is not None else sign_on > 0
    if point.rule == "down_level":
        level = scenario.level
        target = point.figures.get("target_level")
        if level is not None and (
            level.code == target
            or (
                offer.target_level_id
                and level.equivalence
                and offer.target_level is not None
                and level.equivalence >= (offer.target_level.equivalence or 99)
            )
        ):
            return True
        return stock >= ask - 0.5 if ask is not None else False
    if point.rule == "make_whole" and ask is not None:
        return sign_on + stock * years >= ask - 0.5
    if point.rule in ("clawback", "back_loaded") and ask is not None:
        return sign_on >= ask - 0.5
    if point.rule in ("below_stay", "competing_offer"):
        gap = point.figures.get("gap_home")
        if isinstance(gap, float):
            return ev.cumulative_home - original.cumulative_home >= gap - 0.5
        return None
    if point.rule == "remote_gap":
        needed = point.figures.get("required_remote_weeks")
        return isinstance(needed, float) and ev.remote_weeks >= needed
    if point.rule == "start_date":
        proposed = point.figures.get("proposed_start")
        return bool(scenario.start_date and scenario.start_date.isoformat() >= str(proposed))
    if point.rule == "stock_risk" and ask is not None:
        base = float(scenario.base if scenario.base is not None else offer.package.base)
        cash = (base - float(offer.package.base)) * (ev.spec.horizon_years if ev.spec else 4)
        return cash + sign_on >= ask - 0.5
    return None


def scenario_view(
    *, user: AbstractBaseUser, scenario: Scenario, today: dt.date | None = None
) -> ScenarioView:
    """Evaluate a scenario and rank it in place of its offer among every option."""
    if today is None or today == timezone.localdate():
        today, original = timezone.localdate(), board_get(user=user)
    else:
        original = board_build(user=user, today=today)
    prefs, offers = original.prefs, [e.offer for e in original.evaluations]
    key = str(scenario.offer_id)
    original_ev = next(e for e in original.evaluations if e.key == key)
    ev = scenario_evaluation(
        scenario,
        prefs,
        original.fx or fx_table(user=user),
        today=today,
        basis=original.basis,
        current=original.current,
    )
    adjustments = repr([(f, getattr(scenario, f)) for f in ADJUSTMENTS])
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
                mc_paths=0,  # the scenario page shows no Monte Carlo band of this board
            ),
        )
        if not ev.error
        else original
    )
    offer = original_ev.offer
    points = [
        AnsweredPoint(p, point_answered(p, scenario, ev, original_ev) if not ev.error else None)
        for p in board_derived(
            original,
            f"negotiation:{key}",
            lambda original: negotiation_for_offer(user=user, offer=offer, board=original),
        )
    ]
    return ScenarioView(
        scenario=scenario,
        prefs=prefs,
        original=original,
        board=board,
        ev=ev,
        original_ev=original_ev,
        rows=_rows(board, original, key, prefs),
        points=points,
    )


# Flip finder -----------------------------------------------------------------------------


@dataclasses.dataclass
class FlipAnswer:
    """The smallest ask in one component that lifts the scenario first (or above a rival)."""

    component: str
    rival_key: str | None
    rival_name: str | None
    currency: str
    ask: float | None = None
    blocker: str | None = None
    message: str = ""
    gain_per_unit: float = 0.0
    first_year_gain_per_unit: float = 0.0
    result: FlipResult | None = None


def _more(component: str, amount: float) -> dict[str, float]:
    if component not in FLIP_COMPONENTS:
        raise ValueError(f"unknown component {component!r}")
    return {f"more_{component}": amount}


def flip_find(
    *,
    user: AbstractBaseUser,
    scenario: Scenario,
    component: str,
    rival_key: str | None = None,
    today: dt.date | None = None,
) -> FlipAnswer:
    """Return the smallest extra stock a year, base or sign-on that flips the ranking.

    Value is linear in each ask, so the gain per unit comes from one probe of +1,000; the
    answer is then checked on the real board and nudged by a step if the Monte Carlo
    percentile is not exactly linear.
    """
    today = today or timezone.localdate()
    prefs = preferences_get(user=user)
    fx = fx_table(user=user)
    offers = list(offer_list(user=user))
    key = str(scenario.offer_id)
    currency = scenario.offer.package.currency

    basis = basis_of(prefs, today)
    current = current_job_spec(offers, user, basis, fx)

    def board_at(ask: float) -> tuple[Board, Evaluation]:
        ev = scenario_evaluation(
            scenario,
            prefs,
            fx,
            today=today,
            basis=basis,
            current=current,
            **_more(component, ask),
        )
        board = board_build(
            user=user,
            offers=offers,
            prefs=prefs,
            today=today,
            overrides={key: ev},
            fx=fx,
            mc_paths=0,  # only the ranking is read
        )
        return board, ev

    board, ev = board_at(0.0)
    rival_name = next((e.offer.name for e in board.evaluations if e.key == rival_key), None)
    answer = FlipAnswer(component, rival_key, rival_name, currency)
    if ev.error:
        answer.message = ev.error
        return answer
    ok = [e for e in board.evaluations if not e.error]
    if rival_key is not None and rival_key not in {e.key for e in ok}:
        answer.rival_key = rival_key = None
    facts = [option_facts(e) for e in ok]
    rprefs = ranking_prefs(prefs)

    def wins(b: Board) -> bool:
        ranks = {r.key: r.rank for r in b.ranking}
        if rival_key is None:
            return ranks.get(key) == 1
        return ranks[key] < ranks[rival_key]

    if wins(board):
        answer.ask = 0.0
        answer.message = "already_wins"
        return answer
    answer.blocker = flip_blocker(facts, rprefs, key, rival_key)
    if answer.blocker:
        return answer
    probe, probe_ev = board_at(FLIP_PROBE)
    comp_gain = probe.evaluation(key).comp_value - board.evaluation(key).comp_value
    answer.gain_per_unit = comp_gain / FLIP_PROBE
    answer.first_year_gain_per_unit = max(
        0.0, (probe_ev.first_year_home - ev.first_year_home) / FLIP_PROBE
    )
    if answer.gain_per_unit <= 0:
        answer.message = "no_gain"
        return answer
    result = flip_ask(
        facts,
        rprefs,
        key,
        answer.gain_per_unit,
        rival_key=rival_key,
        max_ask=FLIP_MAX_ASK,
        resolution=FLIP_RESOLUTION,
        first_year_gain_per_unit=answer.first_year_gain_per_unit,
    )
    if result is None:
        answer.message = "out_of_reach"
        return answer
    ask = result.ask
    # The Monte Carlo percentile is only nearly linear in the ask: confirm on the real board.
    for _step in range(20):
        if wins(board_at(ask)[0]) or ask >= FLIP_MAX_ASK:
            break
        ask += FLIP_RESOLUTION
    for _step in range(20):
        if ask < FLIP_RESOLUTION or not wins(board_at(ask - FLIP_RESOLUTION)[0]):
            break
        ask -= FLIP_RESOLUTION
    answer.ask = ask
    answer.result = result
    return answer


def flip_apply(scenario: Scenario, component: str, ask: float) -> dict[str, Any]:
    """Return the scenario adjustments that carry a flip answer."""
    if component == "stock":
        return {"extra_stock_yearly": scenario.extra_stock_yearly + Decimal(str(ask))}
    if component == "sign_on":
        return {"extra_sign_on": scenario.extra_sign_on + Decimal(str(ask))}
    base = scenario.base if scenario.base is not None else scenario.offer.package.base
    return {"base": base + Decimal(str(ask))}


# Monte Carlo -----------------------------------------------------------------------------


def mc_input_hash(scenario: Scenario, *, user: AbstractBaseUser | None = None) -> str:
    """Return the hash of everything the scenario's Monte Carlo depends on."""
    user = user or scenario.owner
    prefs = preferences_get(user=user)
    payload = {
        "adjustments": {f: str(getattr(scenario, f)) for f in ADJUSTMENTS},
        "offer": [scenario.offer_id, scenario.offer.version, scenario.offer.package.version],
        "others": list(
            Offer.objects.filter(owner=user)
            .order_by("pk")
            .values_list("pk", "version", "package__version")
        ),
        "prefs": [
            prefs.horizon_years,
            prefs.basis,
            prefs.home_currency,
            str(prefs.decision_date or timezone.localdate()),
            prefs.version,
        ],
        "paths": MC_PATHS,
        "seed": MC_SEED,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _pcts(values: np.ndarray) -> dict[str, list[float]]:
    """Return P10/P50/P90 along the last axis for each year (values shaped (years, paths))."""
    got = np.percentile(values, MC_PERCENTILES, axis=-1)
    return {f"p{p}": [round(float(v), 2) for v in got[i]] for i, p in enumerate(MC_PERCENTILES)}


def mc_compute(
    scenario: Scenario,
    input_hash: str,
    *,
    progress: Callable[[int], bool],
    today: dt.date | None = None,
    paths: int = MC_PATHS,
    chunk: int = MC_CHUNK,
) -> dict[str, Any] | None:
    """Simulate every option with the scenario in place of its offer, chunk by chunk.

    Each chunk draws from its own generator seeded by the input hash and the chunk number,
    so a rerun gives the same figures; percentiles come from all paths at the end.
    ``progress(percent)`` is called after each chunk; when it returns False (cancelled or
    superseded) the run stops and None is returned.
    """
    user = scenario.owner
    today = today or timezone.localdate()
    prefs = preferences_get(user=user)
    fx = fx_table(user=user)
    key = str(scenario.offer_id)
    offers = list(offer_list(user=user))
    basis = basis_of(prefs, today)
    current = current_job_spec(offers, user, basis, fx)
    evs = []
    for offer in offers:
        if offer.pk == scenario.offer_id:
            evs.append(
                scenario_evaluation(scenario, prefs, fx, today=today, basis=basis, current=current)
            )
        else:
            evs.append(evaluate_offer(offer, prefs, fx, basis=basis, current=current))
    evs = [e for e in evs if not e.error and e.segments]
    if not any(e.key == key for e in evs):
        raise EngineInputError("scenario", "the scenario cannot be evaluated")
    years = basis.years
    options = {e.key: e.segments for e in evs}
    store = np.empty((len(evs), years, paths), dtype=np.float64)
    seed = int(input_hash[:16], 16)
    chunks = -(-paths // chunk)
    for k in range(chunks):
        n = min(chunk, paths - k * chunk)
        rng = np.random.default_rng([seed, k])
        values = window_paths(
            options,
            window_start=basis.start,
            years=years,
            paths=n,
            rng=rng,
            column=basis.column,
        )
        for i, ev in enumerate(evs):
            store[i, :, k * chunk : k * chunk + n] = values[ev.key].T
        if not progress(min(99, int(100 * (k + 1) / chunks))):
            return None
    yearly = store
    cumulative = np.cumsum(yearly, axis=1)
    final = cumulative[:, -1, :]
    me = next(i for i, e in enumerate(evs) if e.key == key)
    summary = []
    for i, ev in enumerate(evs):
        summary.append(
            {
                "key": ev.key,
                "name": ev.offer.name,
                "is_scenario": i == me,
                "yearly": _pcts(yearly[i]),
                "cumulative": _pcts(cumulative[i]),
                "mean_cumulative": round(float(final[i].mean()), 2),
                "prob_scenario_beats": None
                if i == me
                else round(float((final[me] > final[i]).mean()), 4),
            }
        )
    return {
        "paths": paths,
        "chunks": chunks,
        "years": years,
        "basis": prefs.basis,
        "basis_label": basis.label,
        "currency": basis.currency,
        "seed": MC_SEED,
        "input_hash": input_hash,
        "options": summary,
    }


# Figures ---------------------------------------------------------------------------------

PALETTE = ["#3b5bdb", "#2f9e44", "#e8590c", "#ae3ec9", "#1098ad", "#f08c00", "#c2255c"]


def _running(values: list[float]) -> list[float]:
    out, total = [], 0.0
    for v in values:
        total += v
        out.append(round(total))
    return out


def cumulative_figure(view: ScenarioView) -> dict[str, Any]:
    """Return cumulative value lines: the scenario, its original offer and every other option."""
    data: list[dict[str, Any]] = []
    for i, row in enumerate(view.rows):
        years = list(range(1, len(row.yearly) + 1))
        if row.is_scenario:
            name, line = (
                _("Scenario: %(n)s") % {"n": view.scenario.name[:28]},
                {
                    "color": "#c2255c",
                    "width": 3.5,
                },
            )
        elif row.is_original:
            name, line = (
                _("Original: %(n)s") % {"n": row.name[:24]},
                {
                    "color": "#c2255c",
                    "width": 2,
                    "dash": "dot",
                },
            )
        else:
            name, line = row.name[:28], {"color": PALETTE[i % len(PALETTE)], "width": 1.5}
        data.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": years,
                "y": _running(row.yearly),
                "name": name,
                "line": line,
            }
        )
    return {
        "data": data,
        "layout": {
            "title": {"text": _("Cumulative value (%(c)s)") % {"c": view.prefs.home_currency}},
            "xaxis": {"dtick": 1, "tickprefix": "Y"},
            "yaxis": {"tickformat": ",.0f", "automargin": True},
            "height": 360,
        },
    }


def mc_fan_figure(scenario: Scenario) -> dict[str, Any] | None:
    """Return the stored Monte Carlo as P10-P90 fans of cumulative value, P50 lines."""
    result = scenario.mc_result
    if not result:
        return None
    data: list[dict[str, Any]] = []
    for i, option in enumerate(result.get("options", [])):
        color = "#c2255c" if option["is_scenario"] else PALETTE[i % len(PALETTE)]
        cum = option["cumulative"]
        years = list(range(1, len(cum["p50"]) + 1))
        name = _("Scenario") if option["is_scenario"] else option["name"][:28]
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": years,
                "y": cum["p90"],
                "line": {"width": 0, "color": color},
                "showlegend": False,
                "hoverinfo": "skip",
                "legendgroup": option["key"],
            }
        )
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": years,
                "y": cum["p10"],
                "fill": "tonexty",
                "fillcolor": _rgba(color, 0.28 if option["is_scenario"] else 0.1),
                "line": {"width": 0, "color": color},
                "showlegend": False,
                "legendgroup": option["key"],
                "name": f"{name} P10–P90",
            }
        )
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "x": years,
                "y": cum["p50"],
                "name": f"{name} P50",
                "line": {"color": color, "width": 3 if option["is_scenario"] else 1.5},
                "legendgroup": option["key"],
            }
        )
    return {
        "data": data,
        "layout": {
            "title": {
                "text": _("Cumulative value, P10–P90 over %(n)s paths (%(c)s)")
                % {"n": f"{result.get('paths', 0):,}", "c": result.get("currency", "")}
            },
            "xaxis": {"dtick": 1, "tickprefix": "Y"},
            "yaxis": {"tickformat": ",.0f", "automargin": True},
            "height": 380,
        },
    }


def _rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    return f"rgba({int(h[0:2], 16)},{int(h[2:4], 16)},{int(h[4:6], 16)},{alpha})"
