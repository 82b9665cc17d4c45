"""Interview figures from plain data: funnel, signals, rounds, time to offer, level check.

Pure functions (no database): `interview_stats` takes lists of dicts and returns a dict;
`stats_figures` turns that dict into plotly figures (`plotly.graph_objects.Figure`).
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from statistics import median
from typing import Any

import plotly.graph_objects as go

from accounts.charts import figure, phone_title, plain
from interviews.levels import level_check
from interviews.models import FUNNEL_STAGES, NEGATIVE_SIGNALS, TERMINAL_STAGES, Signal

FUNNEL: tuple[str, ...] = tuple(str(stage) for stage in FUNNEL_STAGES)
ENDED: frozenset[str] = frozenset(str(stage) for stage in TERMINAL_STAGES)
OFFER_STAGES = ("offer", "negotiating", "accepted")
SIGNALS: tuple[str, ...] = tuple(Signal.values)  # strongest first
KEY_CONVERSIONS = (("recruiter_screen", "onsite"), ("onsite", "offer"))
SIGNAL_COLOURS = {
    "strong_hire": "#2b8a3e",
    "hire": "#51cf66",
    "lean_hire": "#a9e34b",
    "lean_no_hire": "#ffa94d",
    "no_hire": "#f76707",
    "strong_no_hire": "#c92a2a",
    "unknown": "#adb5bd",
}


def conversion(furthest: dict[Any, int], ended: set[Any], a: str, b: str) -> dict[str, Any]:
    """Return how many processes that reached stage ``a`` went on to ``b``, of those decided.

    A process still open between the two (it reached ``a``, not yet ``b``, and has not ended)
    is left out: it has not failed to convert, it is still under way.
    """
    i, j = FUNNEL.index(a), FUNNEL.index(b)
    reached = [key for key, f in furthest.items() if f >= i]
    decided = [key for key in reached if furthest[key] >= j or key in ended]
    went_on = sum(1 for key in decided if furthest[key] >= j)
    rate = round(went_on / len(decided), 4) if decided else None
    return {"reached": went_on, "of": len(decided), "rate": rate}


def furthest_stage_index(history: list[tuple[str, date]]) -> int:
    """Return the index in FUNNEL of the furthest funnel stage in a history (-1 if none)."""
    reached = [FUNNEL.index(stage) for stage, _day in history if stage in FUNNEL]
    return max(reached, default=-1)


def offer_date(history: list[tuple[str, date]]) -> date | None:
    """Return the first day the history reached an offer (or a later stage)."""
    days = [day for stage, day in history if stage in OFFER_STAGES]
    return min(days) if days else None


def interview_stats(
    processes: list[dict[str, Any]], rounds: list[dict[str, Any]]
) -> dict[str, Any]:
    """Compute the funnel, conversions, signals by kind, rounds per company, days to offer
    and the level check of each offer.

    processes: dicts with id, name, company, first_contact (date), history
      ([(stage, date)] in order), target_level and offered_level (None or a
      ``interviews.levels.Rung``: both on the process company's ladder).
    rounds: dicts with process_id, company, kind, signal, order.
    """
    furthest = {p["id"]: furthest_stage_index(p["history"]) for p in processes}
    funnel = [
        {"stage": stage, "count": sum(1 for f in furthest.values() if f >= i)}
        for i, stage in enumerate(FUNNEL)
    ]
    ended = {p["id"] for p in processes if p["history"] and p["history"][-1][0] in ENDED}
    steps = [
        {"from": a, "to": b, "rate": conversion(furthest, ended, a, b)["rate"]}
        for a, b in zip(FUNNEL, FUNNEL[1:], strict=False)
    ]
    conversions = {f"{a}->{b}": conversion(furthest, ended, a, b) for a, b in KEY_CONVERSIONS}

    by_kind: dict[str, Counter[str]] = {}
    for r in rounds:
        by_kind.setdefault(r["kind"], Counter())[r["signal"]] += 1
    signal_by_kind = {
        kind: {s: c[s] for s in SIGNALS if c[s]} for kind, c in sorted(by_kind.items())
    }
    rounds_per_company = dict(sorted(Counter(r["company"] for r in rounds).items()))

    days_to_offer = _days_to_offer(processes)
    days_values = [d["days"] for d in days_to_offer]
    return {
        "process_count": len(processes),
        "round_count": len(rounds),
        "funnel": funnel,
        "steps": steps,
        "conversions": conversions,
        "signal_by_kind": signal_by_kind,
        "rounds_per_company": rounds_per_company,
        "days_to_offer": days_to_offer,
        "median_days_to_offer": float(median(days_values)) if days_values else None,
        "level_checks": _level_checks(processes, rounds),
    }


def _days_to_offer(processes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the days from first contact to an offer of each process that reached one."""
    return [
        {"process": p["name"], "company": p["company"], "days": (day - p["first_contact"]).days}
        for p in processes
        if (day := offer_date(p["history"])) is not None
    ]


def _level_checks(
    processes: list[dict[str, Any]], rounds: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Return the level check of each process offered a level against its target, with the
    signals of its rounds in order (the negative ones apart)."""
    rounds_by_process: dict[Any, list[dict[str, Any]]] = {}
    for r in rounds:
        rounds_by_process.setdefault(r["process_id"], []).append(r)
    level_checks = []
    for p in processes:
        # The ranking uses the same check.
        check = level_check(p.get("offered_level"), p.get("target_level"))
        if check is None:
            continue
        own = sorted(rounds_by_process.get(p["id"], []), key=lambda r: r.get("order", 0))
        level_checks.append(
            {
                "process": p["name"],
                "company": p["company"],
                "target": check.target.code,
                "offered": check.level.code,
                "levels_apart": check.levels_apart,
                "verdict": check.verdict,
                "signals": [(r["kind"], r["signal"]) for r in own],
                "negative": [
                    (r["kind"], r["signal"]) for r in own if r["signal"] in NEGATIVE_SIGNALS
                ],
            }
        )
    return level_checks


def stats_figures(stats: dict[str, Any], labels: dict[str, str]) -> dict[str, go.Figure]:
    """Build the plotly figures of the analytics page; `labels` translates codes to text."""

    def lab(code: str) -> str:
        return labels.get(code, code)

    def titled(key: str, layout: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"title": {"text": lab(key)}, **(layout or {})}

    def narrow(key: str, **layout: Any) -> dict[str, Any]:
        phone, top = phone_title(lab(key))
        margin = {"t": top, "r": 8, **layout.pop("margin", {})}
        return {"title": phone, "margin": margin, **layout}

    funnel = figure(
        [
            go.Funnel(
                y=[lab(r["stage"]) for r in stats["funnel"]],
                x=[r["count"] for r in stats["funnel"]],
                textinfo="value",
                textfont={"color": "#ffffff"},
                marker={"color": "#3b5bdb"},
            )
        ],
        titled(
            "title_funnel", {"margin": {"l": 130}, "height": 380, "yaxis": {"automargin": True}}
        ),
        narrow=narrow("title_funnel", margin={"l": 8, "r": 8}),
    )
    kinds = list(stats["signal_by_kind"])
    signals = figure(
        [
            go.Bar(
                orientation="h",  # round kinds read across, on a phone too
                name=lab(s),
                y=[lab(k) for k in kinds],
                x=[stats["signal_by_kind"][k].get(s, 0) for k in kinds],
                marker={"color": SIGNAL_COLOURS[s]},
            )
            for s in SIGNALS
            if any(stats["signal_by_kind"][k].get(s) for k in kinds)
        ],
        titled(
            "title_signals",
            {
                "barmode": "stack",
                "yaxis": {"automargin": True, "autorange": "reversed"},
                "height": 200 + 34 * len(kinds),
            },
        ),
        narrow=narrow("title_signals", height=260 + 34 * len(kinds)),
    )
    companies = list(stats["rounds_per_company"])
    per_company = figure(
        [
            go.Bar(
                x=[plain(c) for c in companies],
                y=[stats["rounds_per_company"][c] for c in companies],
                marker={"color": "#5c7cfa"},
            )
        ],
        titled("title_rounds", {"xaxis": {"automargin": True}}),
        narrow=narrow("title_rounds"),
    )
    days = figure(
        [
            go.Bar(
                orientation="h",
                y=[plain(d["company"]) for d in stats["days_to_offer"]],
                x=[d["days"] for d in stats["days_to_offer"]],
                marker={"color": "#2f9e44"},
            )
        ],
        titled("title_days", {"margin": {"l": 110}, "height": 320, "yaxis": {"automargin": True}}),
        narrow=narrow("title_days", margin={"l": 8, "r": 8}),
    )
    return {"funnel": funnel, "signals": signals, "per_company": per_company, "days": days}
