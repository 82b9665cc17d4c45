"""Monte Carlo of a scenario: every option over the board's window, through the engine's window module."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from typing import Any

import numpy as np
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from compensation.engine import EngineInputError
from compensation.engine.window import chunked_paths, percentile_standard_error
from compensation.selectors import fx_table
from offers.board import Evaluation, ValuationBasis, basis_of, current_job_spec, evaluate_offer
from offers.models import Offer, Preferences, Scenario
from offers.scenarios.adjustments import VALUED_FIELDS
from offers.scenarios.evaluation import scenario_evaluation
from offers.selectors import offer_list, preferences_get

MC_PATHS = 200_000
MC_CHUNK = 20_000
MC_SEED = 20261207
MC_PERCENTILES = (10, 50, 90)


def mc_input_hash(scenario: Scenario, *, user: AbstractBaseUser | None = None) -> str:
    """Return the hash of everything the scenario's Monte Carlo depends on."""
    user = user or scenario.owner
    prefs = preferences_get(user=user)
    payload = {
        "adjustments": {f: str(getattr(scenario, f)) for f in VALUED_FIELDS},
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


def _evaluations(
    scenario: Scenario, today: dt.date
) -> tuple[list[Evaluation], ValuationBasis, Preferences]:
    """Return every option's evaluation (the scenario in place of its offer), basis and prefs."""
    user = scenario.owner
    prefs = preferences_get(user=user)
    fx = fx_table(user=user)
    offers = list(offer_list(user=user))
    basis = basis_of(prefs, today)
    current = current_job_spec(offers, user, basis, fx)
    evs = [
        scenario_evaluation(scenario, prefs, fx, today=today, basis=basis, current=current)
        if offer.pk == scenario.offer_id
        else evaluate_offer(offer, prefs, fx, basis=basis, current=current)
        for offer in offers
    ]
    evs = [e for e in evs if not e.error and e.segments]
    if not any(e.key == str(scenario.offer_id) for e in evs):
        raise EngineInputError("scenario", "the scenario cannot be evaluated")
    return evs, basis, prefs


def _simulate(
    evs: list[Evaluation],
    basis: ValuationBasis,
    seed: int,
    progress: Callable[[int], bool],
) -> np.ndarray | None:
    """Return each option's yearly values, shaped (options, years, paths), or None if stopped."""
    values = chunked_paths(
        {e.key: e.segments for e in evs},
        window_start=basis.start,
        years=basis.years,
        paths=MC_PATHS,
        rng=np.random.default_rng(seed),
        column=basis.column,
        chunk=MC_CHUNK,
        progress=progress,
    )
    if values is None:
        return None
    return np.stack([basis.present(values[e.key]).T for e in evs])


def _summary(evs: list[Evaluation], yearly: np.ndarray, me: int) -> list[dict[str, Any]]:
    """Return each option's percentiles and its chance of ending below the scenario."""
    paths = yearly.shape[-1]
    cumulative = np.cumsum(yearly, axis=1)
    final = cumulative[:, -1, :]
    summary = []
    for i, ev in enumerate(evs):
        beats = None if i == me else float((final[me] > final[i]).mean())
        summary.append(
            {
                "key": ev.key,
                "name": ev.offer.name,
                "is_scenario": i == me,
                "yearly": _pcts(yearly[i]),
                "cumulative": _pcts(cumulative[i]),
                "mean_cumulative": round(float(final[i].mean()), 2),
                # The standard error of each whole-window percentile and of the probability
                # (a share of the paths: sqrt(p (1 - p) / n)), shown beside them.
                "cumulative_se": {
                    f"p{p}": round(percentile_standard_error(final[i], p), 2)
                    for p in MC_PERCENTILES
                },
                "prob_scenario_beats": None if beats is None else round(beats, 4),
                "prob_se": None
                if beats is None
                else round(float(np.sqrt(beats * (1.0 - beats) / paths)), 4),
            }
        )
    return summary


def mc_compute(
    scenario: Scenario,
    input_hash: str,
    *,
    progress: Callable[[int], bool],
) -> dict[str, Any] | None:
    """Simulate every option with the scenario in place of its offer, chunk by chunk.

    Each chunk draws from its own stream of a generator seeded by the input hash
    (`window.chunked_paths`), so a rerun gives the same figures; percentiles come from all
    paths at the end.
    ``progress(percent)`` is called after each chunk; when it returns False (cancelled or
    superseded) the run stops and None is returned.
    """
    evs, basis, prefs = _evaluations(scenario, timezone.localdate())
    yearly = _simulate(evs, basis, int(input_hash[:16], 16), progress)
    if yearly is None:
        return None
    me = next(i for i, e in enumerate(evs) if e.key == str(scenario.offer_id))
    return {
        "paths": MC_PATHS,
        "chunks": -(-MC_PATHS // MC_CHUNK),
        "years": basis.years,
        "basis": prefs.basis,
        "basis_label": basis.simulated_label,
        "currency": basis.currency,
        "seed": MC_SEED,
        "input_hash": input_hash,
        "options": _summary(evs, yearly, me),
    }
