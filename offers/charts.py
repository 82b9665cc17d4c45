"""Plotly figures for the dashboard and comparisons, built in Python as plain dicts."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from offers.board import COMPONENTS, Board, Evaluation
from offers.chart_text import plain, subtitle
from offers.logic import criteria

PALETTE = ["#3b5bdb", "#2f9e44", "#e8590c", "#ae3ec9", "#1098ad", "#f08c00", "#c2255c", "#5c940d"]
COMPONENT_COLORS = {
    "base": "#3b5bdb",
    "bonus": "#74c0fc",
    "sign_on": "#f08c00",
    "relocation": "#adb5bd",
    "equity": "#2f9e44",
}


def criterion_label(name: str) -> str:
    """Return the translated name of a ranking criterion (from the criteria registry)."""
    return criteria.label(name)


def component_label(name: str) -> str:
    return {
        "base": _("Base"),
        "bonus": _("Bonus"),
        "sign_on": _("Sign-on"),
        "relocation": _("Relocation"),
        "equity": _("Stock"),
        "total": _("Total before tax"),
        "tax": _("Tax"),
        "net": _("After tax"),
    }.get(name, name)


def yearly_by_component(board: Board) -> dict[str, Any]:
    """Return stacked bars: each option's yearly pay by component on the board's basis."""
    ranked = [ev for _r, ev in board.ranked]
    xs: list[list[str]] = [[], []]
    for ev in ranked:
        for year in range(1, len(ev.values) + 1):
            xs[0].append(plain(ev.offer.name[:16]))
            xs[1].append(_("Y%(y)s") % {"y": year})
    data: list[dict[str, Any]] = []
    for comp in COMPONENTS:
        ys = [round(v) for ev in ranked for v in ev.component(comp)]
        data.append(
            {
                "type": "bar",
                "name": component_label(comp),
                "x": xs,
                "y": ys,
                "marker": {"color": COMPONENT_COLORS[comp]},
            }
        )
    if board.basis.after_tax:
        data.append(
            {
                "type": "bar",
                "name": component_label("tax"),
                "x": xs,
                "y": [-round(v) for ev in ranked for v in ev.component("tax")],
                "marker": {"color": "#868e96"},
            }
        )
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": component_label("net"),
                "x": xs,
                "y": [round(v) for ev in ranked for v in ev.values],
                "marker": {"color": "#212529", "symbol": "diamond", "size": 9},
            }
        )
    return {
        "data": data,
        "layout": {
            "barmode": "relative",
            "title": {"text": _("Pay by year") + subtitle(board.basis.label)},
            "yaxis": {"tickformat": "~s", "automargin": True},
            "xaxis": {"tickangle": 0, "automargin": True, "tickfont": {"size": 10}},
            "legend": {"orientation": "h", "y": -0.18, "x": 0},
            "margin": {"t": 80, "b": 90},
            "height": 440,
        },
    }


def cumulative_with_bands(board: Board) -> dict[str, Any]:
    """Return running value lines with the Monte Carlo P10-P90 band of each option."""
    data: list[dict[str, Any]] = []
    for i, (_r, ev) in enumerate(board.ranked):
        color = PALETTE[i % len(PALETTE)]
        years = list(range(1, len(ev.values) + 1))
        cumulative = []
        total = 0.0
        for v in ev.values:
            total += v
            cumulative.append(round(total))
        band = board.spread(ev.key)
        if band is not None:
            low, high = band
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "x": years,
                    "y": [round(v) for v in high],
                    "line": {"width": 0, "color": color},
                    "showlegend": False,
                    "hoverinfo": "skip",
                    "legendgroup": ev.key,
                }
            )
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "x": years,
                    "y": [round(v) for v in low],
                    "fill": "tonexty",
                    "fillcolor": _rgba(color, 0.15),
                    "line": {"width": 0, "color": color},
                    "name": _("%(n)s P10–P90") % {"n": plain(ev.offer.name[:24])},
                    "legendgroup": ev.key,
                    "showlegend": False,
                }
            )
        data.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": years,
                "y": cumulative,
                "name": plain(ev.offer.name[:32]),
                "line": {"color": color, "width": 2.5},
                "legendgroup": ev.key,
            }
        )
    return {
        "data": data,
        "layout": {
            "title": {
                "text": _("Running value, with the P10–P90 range of share prices")
                + subtitle(board.basis.label)
            },
            "xaxis": {"title": {"text": _("Year")}, "dtick": 1},
            "yaxis": {"tickformat": "~s", "automargin": True},
            "legend": {"orientation": "h", "y": -0.22, "x": 0},
            "margin": {"t": 80, "b": 110},
            "height": 460,
        },
    }


def score_contributions(board: Board) -> dict[str, Any]:
    """Return horizontal stacked bars: each criterion's contribution to each option's score."""
    names = [plain(r.name[:24]) + (" ⊘" if r.excluded else "") for r in board.ranking][::-1]
    data = []
    if board.ranking:
        for i, criterion in enumerate(board.ranking[0].criteria):
            data.append(
                {
                    "type": "bar",
                    "orientation": "h",
                    "name": criterion_label(criterion),
                    "y": names,
                    "x": [round(r.criteria[criterion].contribution, 4) for r in board.ranking][
                        ::-1
                    ],
                    "marker": {"color": PALETTE[i % len(PALETTE)]},
                }
            )
    return {
        "data": data,
        "layout": {
            "barmode": "stack",
            "title": {"text": _("What each criterion adds to the score")},
            "xaxis": {"range": [0, 1]},
            "yaxis": {"automargin": True},
            "legend": {"orientation": "h", "y": -0.15},
            "height": max(280, 90 + 36 * len(names)),
        },
    }


def comparison_diff(a: Evaluation, b: Evaluation, currency: str) -> dict[str, Any]:
    """Return bars of the yearly difference A - B by component (tax counted against)."""
    years = list(range(1, min(len(a.values), len(b.values)) + 1))
    data = []
    shown = (*COMPONENTS, "tax") if a.basis.after_tax else COMPONENTS
    for comp in shown:
        sign = -1 if comp == "tax" else 1
        ys = [
            sign * round(x - y) for x, y in zip(a.component(comp), b.component(comp), strict=False)
        ]
        data.append(
            {
                "type": "bar",
                "name": component_label(comp),
                "x": years,
                "y": ys,
                "marker": {"color": COMPONENT_COLORS.get(comp, "#868e96")},
            }
        )
    return {
        "data": data,
        "layout": {
            "barmode": "relative",
            "title": {
                "text": _("%(a)s minus %(b)s, by year")
                % {"a": plain(a.offer.name), "b": plain(b.offer.name)}
                + subtitle(a.basis.label)
            },
            "xaxis": {"dtick": 1, "title": {"text": _("Year")}},
            "yaxis": {"tickformat": "~s", "automargin": True},
            "height": 340,
        },
    }


def _rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    return f"rgba({r},{g},{b},{alpha})"
