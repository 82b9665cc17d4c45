"""Plotly figures for the dashboard and comparisons, built in Python as plain dicts."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from offers.logic import criteria
from offers.selectors import COMPONENTS, Board, Evaluation

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
        "total": _("Total"),
    }.get(name, name)


def yearly_by_component(board: Board) -> dict[str, Any]:
    """Return stacked bars: each option's yearly total by component, home currency."""
    ranked = [ev for _r, ev in board.ranked]
    xs: list[list[str]] = [[], []]
    for ev in ranked:
        assert ev.yearly is not None
        for year in ev.yearly.index:
            xs[0].append(ev.offer.name[:16])
            xs[1].append(_("Y%(y)s") % {"y": year})
    data = []
    for comp in COMPONENTS:
        ys = []
        for ev in ranked:
            assert ev.yearly is not None
            ys.extend(round(float(v) * ev.fx_to_home) for v in ev.yearly[comp])
        data.append(
            {
                "type": "bar",
                "name": component_label(comp),
                "x": xs,
                "y": ys,
                "marker": {"color": COMPONENT_COLORS[comp]},
            }
        )
    return {
        "data": data,
        "layout": {
            "barmode": "stack",
            "title": {
                "text": _("Total comp by year (%(c)s, gross)") % {"c": board.prefs.home_currency}
            },
            "yaxis": {"tickformat": "~s", "automargin": True},
            "xaxis": {"tickangle": 0, "automargin": True, "tickfont": {"size": 10}},
            "legend": {"orientation": "h", "y": 1.12, "x": 0},
            "margin": {"t": 70},
            "height": 420,
        },
    }


def cumulative_with_bands(board: Board) -> dict[str, Any]:
    """Return cumulative value lines with Monte Carlo P10-P90 bands where computed."""
    data: list[dict[str, Any]] = []
    basis = board.prefs.basis
    for i, (_r, ev) in enumerate(board.ranked):
        color = PALETTE[i % len(PALETTE)]
        yearly = ev.yearly_home(basis)
        years = list(range(1, len(yearly) + 1))
        cumulative = []
        total = 0.0
        for v in yearly:
            total += v
            cumulative.append(round(total))
        label = board.mc_labels.get(ev.key)
        if board.mc is not None and label is not None:
            band = board.mc.cumulative[board.mc.cumulative["option"] == label].sort_values("year")
            if "p10" in band.columns and "p90" in band.columns:
                data.append(
                    {
                        "type": "scatter",
                        "mode": "lines",
                        "x": band["year"].tolist(),
                        "y": [round(float(v)) for v in band["p90"]],
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
                        "x": band["year"].tolist(),
                        "y": [round(float(v)) for v in band["p10"]],
                        "fill": "tonexty",
                        "fillcolor": _rgba(color, 0.15),
                        "line": {"width": 0, "color": color},
                        "name": _("%(n)s P10–P90") % {"n": ev.offer.name[:24]},
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
                "name": ev.offer.name[:32],
                "line": {"color": color, "width": 2.5},
                "legendgroup": ev.key,
            }
        )
    return {
        "data": data,
        "layout": {
            "title": {
                "text": _("Cumulative value (%(c)s) with P10–P90 band")
                % {"c": board.prefs.home_currency}
            },
            "xaxis": {"title": {"text": _("Year")}, "dtick": 1},
            "yaxis": {"tickformat": "~s", "automargin": True},
            "legend": {"orientation": "h", "y": -0.22, "x": 0},
            "margin": {"t": 40, "b": 110},
            "height": 460,
        },
    }


def score_contributions(board: Board) -> dict[str, Any]:
    """Return horizontal stacked bars: each criterion's contribution to each option's score."""
    names = [r.name[:24] + (" ⊘" if r.excluded else "") for r in board.ranking][::-1]
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
    """Return bars of the yearly difference A - B by component, home currency."""
    assert a.yearly is not None and b.yearly is not None
    years = [int(y) for y in a.yearly.index if y in b.yearly.index]
    data = []
    for comp in COMPONENTS:
        ys = [
            round(
                float(a.yearly.loc[y, comp]) * a.fx_to_home
                - float(b.yearly.loc[y, comp]) * b.fx_to_home
            )
            for y in years
        ]
        data.append(
            {
                "type": "bar",
                "name": component_label(comp),
                "x": years,
                "y": ys,
                "marker": {"color": COMPONENT_COLORS[comp]},
            }
        )
    return {
        "data": data,
        "layout": {
            "barmode": "relative",
            "title": {
                "text": _("%(a)s minus %(b)s, by year (%(c)s)")
                % {"a": a.offer.name, "b": b.offer.name, "c": currency}
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
