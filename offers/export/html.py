"""The printable HTML report: the comparison's tables and charts, to save as PDF from a browser."""

from __future__ import annotations

import itertools
from typing import Any

import plotly.graph_objects as go
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from accounts.charts import PLOTLY_JS, figure, subtitle
from accounts.wording import choice_label, fit_words
from offers.charts import CHART_OPTIONS, PALETTE, short_name
from offers.export import utf8
from offers.export.columns import Unit
from offers.export.comparison import Comparison, option_warnings
from offers.export.readable import local_time
from offers.export.rows import PlanRow
from offers.logic.criteria import label as criterion_label
from offers.scenarios.adjustments import ADJUSTMENTS

# The adjustments the report's table of scenarios shows (the registry says which, in its order).
REPORT_ADJUSTMENTS = tuple(a for a in ADJUSTMENTS if a.in_report)


def figure_yearly(c: Comparison) -> go.Figure:
    """Return grouped bars of each top option's yearly total in home currency."""
    totals = list(c.yearly_totals(c.meta["basis"]).items())[:CHART_OPTIONS]
    data = [
        go.Bar(
            name=short_name(name, 28),
            x=[_("Y%(y)s") % {"y": i + 1} for i in range(len(values))],
            y=[round(v) for v in values],
            marker={"color": PALETTE[i % len(PALETTE)]},
        )
        for i, (name, values) in enumerate(totals)
    ]
    return figure(
        data,
        {
            "barmode": "group",
            "title": {"text": _("Pay by year") + subtitle(c.meta["basis_label"])},
            "yaxis": {"tickformat": ",.0f"},
            "height": 360,
            "margin": {"l": 80},
        },
    )


def figure_cumulative(c: Comparison) -> go.Figure:
    """Return lines of each top option's cumulative total in home currency."""
    totals = list(c.yearly_totals(c.meta["basis"]).items())[:CHART_OPTIONS]
    data = []
    for i, (name, values) in enumerate(totals):
        ys = [round(v) for v in itertools.accumulate(values)]
        data.append(
            go.Scatter(
                mode="lines+markers",
                name=short_name(name, 28),
                x=list(range(1, len(ys) + 1)),
                y=ys,
                line={"color": PALETTE[i % len(PALETTE)]},
            )
        )
    return figure(
        data,
        {
            "title": {"text": _("Running value") + subtitle(c.meta["basis_label"])},
            "xaxis": {"title": {"text": _("Year")}, "dtick": 1},
            "yaxis": {"tickformat": ",.0f"},
            "height": 360,
            "margin": {"l": 80},
        },
    )


def figure_scores(c: Comparison) -> go.Figure:
    """Return stacked horizontal bars: what each criterion adds to each option's score."""
    ranked = [o for o in c.options if o["rank"] is not None][:CHART_OPTIONS]
    names = [short_name(o["name"], 28) + (" ⊘" if o["excluded"] else "") for o in ranked][::-1]
    criteria = list(ranked[0]["criteria"]) if ranked else []
    data = [
        go.Bar(
            orientation="h",
            name=criterion_label(criterion),
            y=names,
            x=[round(o["criteria"][criterion]["contribution"], 4) for o in ranked][::-1],
            marker={"color": PALETTE[i % len(PALETTE)]},
        )
        for i, criterion in enumerate(criteria)
    ]
    return figure(
        data,
        {
            "barmode": "stack",
            "title": {"text": _("What each criterion adds to the score")},
            "xaxis": {"range": [0, 1]},
            "yaxis": {"automargin": True},
            "height": max(260, 80 + 34 * len(names)),
        },
    )


def year_table(c: Comparison) -> list[dict[str, Any]]:
    """Return one row per option: its yearly totals in home currency, gross and net."""
    gross, net = c.yearly_totals("gross"), c.yearly_totals("net")
    return [
        {"name": name, "gross": values, "net": net.get(name, [])} for name, values in gross.items()
    ]


def option_rows(c: Comparison) -> list[dict[str, Any]]:
    """Return the options with what a reader sees instead of codes: kind, fit, warnings."""
    from offers.models import Offer

    return [
        {
            **o,
            "kind_label": choice_label(Offer, "kind", o["kind"]),
            "fit": fit_words(o["score"]),
            "warnings": option_warnings(o),
        }
        for o in c.options
    ]


def scenario_columns() -> list[dict[str, Any]]:
    """Return the headings of the report's adjustment columns, in the active language."""
    return [{"label": a.heading, "numeric": a.unit.numeric} for a in REPORT_ADJUSTMENTS]


def scenario_rows(c: Comparison) -> list[dict[str, Any]]:
    """Return the scenarios with their outcomes, as the scenario page worked them out.

    Each row's ``cells`` are its values of the report's adjustments (money with the ``money``
    filter and its currency, as the unit says).
    """
    outcomes = c.people.get("scenario_outcomes") or []
    currency_of = {o["key"]: o["currency"] for o in c.options}
    rows = []
    for i, s in enumerate(c.scenarios):
        values: dict[str, Any] = dict(s)
        # Each amount with its currency: pay the option's, stock the scenario's own.
        currencies = {
            Unit.PAY: currency_of.get(s["option_key"], ""),
            Unit.STOCK: s["stock_currency"],
        }
        cells = [
            {
                "value": values[a.key],
                "money": a.unit.money,
                "currency": currencies.get(a.unit, ""),
                "numeric": a.unit.numeric,
            }
            for a in REPORT_ADJUSTMENTS
        ]
        rows.append(
            {**values, "cells": cells, "outcome": outcomes[i] if i < len(outcomes) else None}
        )
    return rows


def process_rows(c: Comparison) -> list[dict[str, Any]]:
    """Return the interview processes with their stage and debrief decision as labels."""
    from interviews.models import Debrief, Process

    return [
        {
            **p,
            "stage_label": choice_label(Process, "stage", p["stage"]),
            "debrief_label": choice_label(Debrief, "decision", p["debrief_decision"]),
        }
        for p in c.processes
    ]


def round_rows(c: Comparison) -> list[dict[str, Any]]:
    """Return the interview rounds with labels and their time in the user's home zone."""
    from interviews.models import Round

    zone = c.people.get("home_timezone") or "UTC"
    return [
        {
            **r,
            "kind_label": choice_label(Round, "kind", r["kind"]),
            "signal_label": choice_label(Round, "signal", r["signal"]),
            "local": local_time(r["scheduled_at"], zone),
        }
        for r in c.rounds
    ]


def report_context(c: Comparison) -> dict[str, Any]:
    """Return the template context shared by the report page and the downloadable file."""
    horizon = c.meta["horizon_years"]
    by_option: dict[str, list[PlanRow]] = {}
    for row in c.people.get("negotiation_plan") or []:
        by_option.setdefault(row["option"], []).append(row)
    zone = c.people.get("home_timezone") or "UTC"
    return {
        "c": c,
        "meta": c.meta,
        # When the report was made, on the user's home clock, with the zone's name.
        "generated_local": local_time(c.meta["generated_at"], zone),
        "generated_zone": zone,
        "people": c.people,
        "option_rows": option_rows(c),
        "scenario_columns": scenario_columns(),
        "scenario_rows": scenario_rows(c),
        "deadline_rows": c.deadline_rows(),
        "process_rows": process_rows(c),
        "round_rows": round_rows(c),
        "years": list(range(1, horizon + 1)),
        "year_rows": year_table(c),
        "negotiation_by_option": by_option,
        "fig_yearly": figure_yearly(c),
        "fig_cumulative": figure_cumulative(c),
        "fig_scores": figure_scores(c),
        "has_charts": any(o["rank"] is not None for o in c.options),
    }


def _static_text(path: str) -> str:
    found = finders.find(path)
    if not found:
        return ""
    with open(found, encoding="utf-8") as fh:
        return fh.read()


def html_bytes(c: Comparison) -> bytes:
    """Return a self-contained report (styles and chart library inlined) to open offline."""
    context = report_context(c)
    # A saved file carries no Content-Security-Policy; inlining is what lets it work offline.
    context["inline_css"] = _static_text("css/app.css")
    context["inline_js"] = [
        _static_text(name).replace("</script", "<\\/script") for name in (PLOTLY_JS, "js/app.js")
    ]
    context["LANGUAGE_CODE"] = settings.LANGUAGE_CODE
    return utf8(render_to_string("offers/export_report_file.html", context))
