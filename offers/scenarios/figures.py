"""Plotly figures of a scenario: cumulative value lines and the Monte Carlo fans."""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import plotly.graph_objects as go
from django.utils.translation import gettext as _

from accounts.charts import figure, phone_title, plain, rgba
from offers.models import Scenario
from offers.scenarios.evaluation import ScenarioView

PALETTE = ["#3b5bdb", "#2f9e44", "#e8590c", "#ae3ec9", "#1098ad", "#f08c00", "#c2255c"]


def _running(values: list[float]) -> list[float]:
    return [round(total) for total in accumulate(values)]


def cumulative_figure(view: ScenarioView) -> go.Figure:
    """Return cumulative value lines: the scenario, its original offer and every other option."""
    data: list[go.Scatter] = []
    for i, row in enumerate(view.rows):
        years = list(range(1, len(row.yearly) + 1))
        if row.is_scenario:
            name = _("Scenario: %(n)s") % {"n": plain(view.scenario.name[:28])}
            line: dict[str, Any] = {"color": "#c2255c", "width": 3.5}
        elif row.is_original:
            name = _("Original: %(n)s") % {"n": plain(row.name[:24])}
            line = {"color": "#c2255c", "width": 2, "dash": "dot"}
        else:
            name, line = plain(row.name[:28]), {"color": PALETTE[i % len(PALETTE)], "width": 1.5}
        data.append(
            go.Scatter(mode="lines+markers", x=years, y=_running(row.yearly), name=name, line=line)
        )
    title = _("Cumulative value (%(c)s)") % {"c": view.prefs.home_currency}
    return _cumulative_figure(data, title, height=360, phone_height=380 + 22 * len(data))


def mc_fan_figure(scenario: Scenario) -> go.Figure | None:
    """Return the stored Monte Carlo as P10-P90 fans of cumulative value, P50 lines."""
    result = scenario.mc_result
    if not result:
        return None
    data: list[go.Scatter] = []
    for i, option in enumerate(result.get("options", [])):
        color = "#c2255c" if option["is_scenario"] else PALETTE[i % len(PALETTE)]
        cum = option["cumulative"]
        years = list(range(1, len(cum["p50"]) + 1))
        name = _("Scenario") if option["is_scenario"] else plain(option["name"][:28])
        lines = {"mode": "lines", "x": years, "legendgroup": option["key"]}
        edge = {"line": {"width": 0, "color": color}, "showlegend": False}
        data += [
            go.Scatter(**lines, **edge, y=cum["p90"], hoverinfo="skip"),
            go.Scatter(
                **lines,
                **edge,
                y=cum["p10"],
                fill="tonexty",
                fillcolor=rgba(color, 0.28 if option["is_scenario"] else 0.1),
                name=f"{name} P10–P90",
            ),
            go.Scatter(
                **lines,
                y=cum["p50"],
                name=f"{name} P50",
                line={"color": color, "width": 3 if option["is_scenario"] else 1.5},
            ),
        ]
    title = _("Cumulative value, P10–P90 over %(n)s paths (%(c)s)") % {
        "n": f"{result.get('paths', 0):,}",
        "c": result.get("currency", ""),
    }
    return _cumulative_figure(data, title, height=380, phone_height=400 + 8 * len(data))


def _cumulative_figure(data: list[Any], title: str, *, height: int, phone_height: int) -> go.Figure:
    """Return a running-value figure by window year (Y1, Y2, ...), with its phone layout."""
    phone, top = phone_title(title)
    return figure(
        data,
        {
            "title": {"text": title},
            "xaxis": {"dtick": 1, "tickprefix": "Y"},
            "yaxis": {"tickformat": ",.0f", "automargin": True},
            "height": height,
        },
        narrow={
            "title": phone,
            "margin": {"t": top, "l": 44, "r": 8},
            "yaxis": {"tickformat": "~s"},
            "height": phone_height,
        },
    )
