"""Scenarios: an offer with negotiated adjustments, evaluated against every other option.

One module per reason to change: ``evaluation`` (value a scenario, the scenario view),
``points`` (negotiation points played out and answered), ``flip`` (the flip finder),
``montecarlo`` and ``figures``. The names below keep ``scenarios.<name>`` working.
"""

from __future__ import annotations

from offers.scenarios.evaluation import (
    AnsweredAsk,
    AnsweredPoint,
    Row,
    ScenarioView,
    scenario_evaluation,
    scenario_offer,
    scenario_spec,
    scenario_view,
)
from offers.scenarios.figures import PALETTE, cumulative_figure, mc_fan_figure
from offers.scenarios.flip import (
    FLIP_COMPONENTS,
    FLIP_MAX_ASK,
    FLIP_PROBE,
    FLIP_RESOLUTION,
    FlipAnswer,
    flip_apply,
    flip_find,
)
from offers.scenarios.montecarlo import (
    ADJUSTMENTS,
    MC_CHUNK,
    MC_PATHS,
    MC_PERCENTILES,
    MC_SEED,
    mc_compute,
    mc_input_hash,
)
from offers.scenarios.points import (
    plan_adjustments,
    point_adjustments,
    point_answered,
    scenario_outcome,
)

__all__ = [
    "ADJUSTMENTS",
    "FLIP_COMPONENTS",
    "FLIP_MAX_ASK",
    "FLIP_PROBE",
    "FLIP_RESOLUTION",
    "MC_CHUNK",
    "MC_PATHS",
    "MC_PERCENTILES",
    "MC_SEED",
    "PALETTE",
    "AnsweredAsk",
    "AnsweredPoint",
    "FlipAnswer",
    "Row",
    "ScenarioView",
    "cumulative_figure",
    "flip_apply",
    "flip_find",
    "mc_compute",
    "mc_fan_figure",
    "mc_input_hash",
    "plan_adjustments",
    "point_adjustments",
    "point_answered",
    "scenario_evaluation",
    "scenario_offer",
    "scenario_outcome",
    "scenario_spec",
    "scenario_view",
]
