"""What the exports a person reads (XLSX, report) add to the comparison's data.

Labels come from the models' choices and the registries (never a list of our own), times are
shown in the user's home zone, scores as a fit percentage, and each scenario's outcome is read
from the scenario page's own valuation (`offers.scenarios.evaluation.scenario_view`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from accounts.wording import fit_percent
from accounts.zones import known_zone
from offers.board import Board
from offers.export import LARGE_OPTIONS
from offers.models import Scenario

logger = logging.getLogger(__name__)


def fit_pct(score: float | None) -> int | None:
    """Return a 0-1 score as the percentage a person reads (0.846 -> 85: `fit_percent`)."""
    return None if score is None else fit_percent(score)


def local_time(iso: str | None, zone: str) -> dt.datetime | None:
    """Return an ISO instant as the wall-clock time in ``zone`` (UTC if it is no known zone),
    naive, as a sheet stores it."""
    if not iso:
        return None
    home = ZoneInfo(zone if known_zone(zone) else "UTC")
    return dt.datetime.fromisoformat(iso).astimezone(home).replace(tzinfo=None)


def _scenario_outcomes(
    user: AbstractBaseUser, board: Board, scenarios: Sequence[Scenario]
) -> list[dict[str, Any] | None]:
    """Return each scenario's outcome as its page shows it, in the order given.

    Valued against the export's own board (the same figures as the pages' cached one: no
    second board is built).
    """
    from offers.scenarios.evaluation import scenario_view

    if len(board.evaluations) > LARGE_OPTIONS:
        # Each outcome re-ranks every option: beyond a board a person reads, the page says it.
        return [None] * len(scenarios)
    out: list[dict[str, Any] | None] = []
    for scenario in scenarios:
        try:
            view = scenario_view(user=user, scenario=scenario, board=board)
        except Exception:  # an optional column must never break the export
            logger.exception("scenario outcome failed for scenario %s", scenario.pk)
            out.append(None)
            continue
        if view.ev.error:
            out.append({"error": view.ev.error})
            continue
        out.append(
            {
                "error": "",
                "value": view.ev.value,
                "original_value": view.original_ev.value,
                "change": view.gain,
                "rank": view.rank,
                "original_rank": view.original_rank,
            }
        )
    return out


def readable_build(
    *, user: AbstractBaseUser, board: Board, scenarios: Sequence[Scenario]
) -> dict[str, Any]:
    """Return what the person-facing formats add: summary sentences, zone, scenario outcomes.

    ``scenarios`` are the export's, in its order: each gets its outcome.
    """
    from django.utils import timezone

    # The dashboard's own sentence, imported when used: the worker need not load the views.
    from offers.verdict import board_verdict

    try:
        found = board_verdict(board)
        verdict = found.sentence if found is not None else ""
    except Exception:  # the sentence is a courtesy: never fail the export over it
        logger.exception("verdict sentence failed")
        verdict = ""
    return {
        "home_timezone": board.prefs.home_timezone,
        "today": timezone.localdate().isoformat(),
        "basis_sentence": _("Every figure: %(basis)s.") % {"basis": board.basis.label},
        "verdict": verdict,
        "progressive_tax": {
            ev.key: bool(ev.spec and ev.spec.tax_regime) for ev in board.evaluations
        },
        "scenario_outcomes": _scenario_outcomes(user, board, scenarios),
    }
