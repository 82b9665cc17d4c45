"""Plotly figures for the dashboard and comparisons, built with plotly's graph objects."""

from __future__ import annotations

import itertools
import math
from typing import Any

import plotly.graph_objects as go
from django.utils.translation import gettext as _

from accounts.charts import BASE_LEGEND, INK, figure, phone_title, plain, rgba, subtitle
from compensation.engine.components import PAY_COMPONENTS
from offers.board import Board, Evaluation, shown_columns
from offers.choice import BoardChoice
from offers.logic import criteria

PALETTE = ["#3b5bdb", "#2f9e44", "#e8590c", "#ae3ec9", "#1098ad", "#f08c00", "#c2255c", "#5c940d"]
COMPONENT_COLORS = {c.key: c.colour for c in PAY_COMPONENTS}
TAX_COLOR = "#868e96"
# Employee contributions (CPF, MPF, insurance premiums), drawn below zero beside the tax.
CONTRIBUTIONS_COLOR = "#495057"
LEVY_COLORS = {"tax": TAX_COLOR, "contributions": CONTRIBUTIONS_COLOR}
# Options side by side in the yearly chart: on a wide screen, and on a phone.
FACETS_WIDE = 5
FACETS_NARROW = 2
# The yearly and running-value charts draw the best-ranked options only: past a dozen panels
# or lines a chart is no longer read (the ranking table lists every option).
CHART_OPTIONS = 12  # more bars than this is unreadable: charts show the top of the ranking


def component_label(name: str) -> str:
    """Return the translated label of a pay component (the registry's) or of a total."""
    labels = {c.key: c.label for c in PAY_COMPONENTS}
    totals = {
        "total": _("Total before tax"),
        "tax": _("Tax"),
        "contributions": _("Contributions"),
        "net": _("After tax"),
    }
    if name in labels:
        return _(labels[name])
    return str(totals.get(name, name))


def short_name(name: str, limit: int) -> str:
    """Return a name cut to ``limit`` characters (with an ellipsis), escaped for a chart."""
    return plain(name if len(name) <= limit else name[: limit - 1] + "…")


def _year_ticks(years: int) -> dict[str, object]:
    """Return an x axis labelled Y1, Y2... without its title (room for the legend on a phone)."""
    ticks = list(range(1, years + 1))
    return {
        "title": {"text": ""},
        "tickmode": "array",
        "tickvals": ticks,
        "ticktext": [_("Y%(y)s") % {"y": y} for y in ticks],
    }


def _charted(board: Board) -> list[Evaluation]:
    """Return the options a chart of every option draws: the best-ranked CHART_OPTIONS."""
    return [ev for _r, ev in board.ranked][:CHART_OPTIONS]


def _basis(board: Board) -> str:
    """Return the board's basis, and how many options the chart leaves out, if any."""
    total = len(board.ranked)
    if total <= CHART_OPTIONS:
        return board.basis.label
    return (
        board.basis.label
        + " · "
        + _("the top %(n)s of %(total)s options") % {"n": CHART_OPTIONS, "total": total}
    )


def _grid(count: int, columns: int) -> dict[str, int | str]:
    columns = max(1, min(count, columns))
    return {"rows": math.ceil(count / columns), "columns": columns, "pattern": "independent"}


def _yearly_trace(ev: Evaluation, comp: str) -> dict[str, Any]:
    """Return one column of an option's yearly panel: the after-tax figure as a marker, tax and
    contributions as bars below zero, a pay component as a stacked bar."""
    if comp == "net":
        return {
            "type": "scatter",
            "mode": "markers",
            "y": [round(v) for v in ev.values],
            "marker": {"color": INK, "symbol": "diamond", "size": 8},
        }
    sign = -1 if comp in LEVY_COLORS else 1
    return {
        "type": "bar",
        "y": [sign * round(v) for v in ev.component(comp)],
        "marker": {"color": LEVY_COLORS.get(comp) or COMPONENT_COLORS[comp]},
    }


def yearly_by_component(board: Board) -> go.Figure:
    """Return small multiples: one panel per option, its yearly pay stacked by component.

    All panels share the money axis, so heights compare across options; a phone shows two
    panels a row instead of twenty bars in one. The traces are specs that `go.Figure` validates
    (as it would `go.Bar` objects, which it would validate a second time: this chart has a
    trace per component and option).
    """
    ranked = _charted(board)
    # The components, then (after tax) the tax and contributions below zero and the net.
    shown = [c for c in shown_columns(board.basis, ranked) if c != "total"]
    data: list[dict[str, Any]] = []
    layout: dict[str, Any] = {}
    for i, ev in enumerate(ranked):
        n = "" if i == 0 else str(i + 1)
        years = [_("Y%(y)s") % {"y": year} for year in range(1, len(ev.values) + 1)]
        for comp in shown:
            common: dict[str, Any] = {
                "name": component_label(comp),
                "x": years,
                "xaxis": f"x{n}",
                "yaxis": f"y{n}",
                "legendgroup": comp,
                "showlegend": i == 0,
            }
            data.append({**_yearly_trace(ev, comp), **common})
        layout[f"xaxis{n}"] = {
            "title": {"text": short_name(ev.offer.name, 22), "font": {"size": 12}},
            "tickfont": {"size": 10},
            "automargin": True,
        }
        layout[f"yaxis{n}"] = {"tickformat": "~s", "automargin": True, "zeroline": True}
        if i:
            layout[f"yaxis{n}"]["matches"] = "y"  # one money scale for every option
    title = _("Pay by year")
    wide = _grid(len(ranked), FACETS_WIDE)
    narrow = _grid(len(ranked), FACETS_NARROW)
    # The legend above the panels: under the grid it would cover the last row's option names.
    legend_on_top = {"y": 1.02, "yanchor": "bottom"}
    basis = _basis(board)
    phone, top = phone_title(title, plain(basis))
    return figure(
        data,
        {
            **layout,
            "barmode": "relative",
            "grid": {**wide, "xgap": 0.12, "ygap": 0.3},
            "title": {"text": title + subtitle(basis)},
            "legend": {**BASE_LEGEND, **legend_on_top},
            "margin": {"t": 110},
            "height": 190 + 260 * int(wide["rows"]),
        },
        narrow={
            "grid": {**narrow, "xgap": 0.2, "ygap": 0.25},
            "title": phone,
            "margin": {"t": top + 90, "l": 44, "r": 8},  # and three rows of legend
            "height": 250 + 230 * int(narrow["rows"]),
        },
    )


def cumulative_with_bands(board: Board) -> go.Figure:
    """Return running value lines with the Monte Carlo P10-P90 band of each option."""
    data: list[go.Scatter] = []
    for i, ev in enumerate(_charted(board)):
        color = PALETTE[i % len(PALETTE)]
        years = list(range(1, len(ev.values) + 1))
        cumulative = [round(total) for total in itertools.accumulate(ev.values)]
        band = board.spread(ev.key)
        if band is not None:
            low, high = band
            data.append(
                go.Scatter(
                    mode="lines",
                    x=years,
                    y=[round(v) for v in high],
                    line={"width": 0, "color": color},
                    showlegend=False,
                    hoverinfo="skip",
                    legendgroup=ev.key,
                )
            )
            data.append(
                go.Scatter(
                    mode="lines",
                    x=years,
                    y=[round(v) for v in low],
                    fill="tonexty",
                    fillcolor=rgba(color, 0.15),
                    line={"width": 0, "color": color},
                    name=_("%(n)s P10–P90") % {"n": plain(ev.offer.name[:24])},
                    legendgroup=ev.key,
                    showlegend=False,
                )
            )
        data.append(
            go.Scatter(
                mode="lines+markers",
                x=years,
                y=cumulative,
                name=plain(ev.offer.name[:32]),
                line={"color": color, "width": 2.5},
                legendgroup=ev.key,
            )
        )
    title = _("Running value, with the P10–P90 range of share prices")
    basis = _basis(board)
    phone, top = phone_title(title, plain(basis))
    years = max((len(ev.values) for _r, ev in board.ranked), default=0)
    return figure(
        data,
        {
            "title": {"text": title + subtitle(basis)},
            "xaxis": _year_ticks(years),
            "yaxis": {"tickformat": "~s", "automargin": True},
            "height": 460,
        },
        narrow={
            "title": phone,
            "xaxis": _year_ticks(years),
            "margin": {"t": top, "l": 44, "r": 8},
            "height": 480 + 12 * len(data),
        },
    )


def score_contributions(board: Board) -> go.Figure:
    """Return horizontal stacked bars: each criterion's contribution to each option's score."""
    names = [plain(r.name[:24]) + (" ⊘" if r.excluded else "") for r in board.ranking][::-1]
    data = []
    if board.ranking:
        for i, criterion in enumerate(board.ranking[0].criteria):
            data.append(
                go.Bar(
                    orientation="h",
                    name=criteria.label(criterion),
                    y=names,
                    x=[round(r.criteria[criterion].contribution, 4) for r in board.ranking][::-1],
                    marker={"color": PALETTE[i % len(PALETTE)]},
                )
            )
    height = max(280, 90 + 36 * len(names))
    title = _("What each criterion adds to the score")
    phone, top = phone_title(title)
    return figure(
        data,
        {
            "barmode": "stack",
            "title": {"text": title},
            "xaxis": {"range": [0, 1]},
            "yaxis": {"automargin": True},
            "height": height,
        },
        narrow={
            "title": phone,
            "margin": {"t": top, "r": 8},
            "height": height + 30 * math.ceil(len(data) / 2),
        },
    )


def comparison_diff(a: Evaluation, b: Evaluation, currency: str) -> go.Figure:
    """Return bars of the yearly difference A - B by component (tax and contributions counted
    against)."""
    years = list(range(1, min(len(a.values), len(b.values)) + 1))
    data = []
    shown = [c for c in shown_columns(a.basis, (a, b)) if c not in ("total", "net")]
    for comp in shown:
        sign = -1 if comp in ("tax", "contributions") else 1
        ys = [
            sign * round(x - y) for x, y in zip(a.component(comp), b.component(comp), strict=False)
        ]
        data.append(
            go.Bar(
                name=component_label(comp),
                x=years,
                y=ys,
                marker={"color": COMPONENT_COLORS.get(comp, LEVY_COLORS.get(comp, TAX_COLOR))},
            )
        )
    title = _("%(a)s minus %(b)s, by year") % {"a": plain(a.offer.name), "b": plain(b.offer.name)}
    phone, top = phone_title(title, plain(a.basis.label))
    return figure(
        data,
        {
            "barmode": "relative",
            "title": {"text": title + subtitle(a.basis.label)},
            "xaxis": _year_ticks(len(years)),
            "yaxis": {"tickformat": "~s", "automargin": True},
            "height": 380,
        },
        narrow={
            "title": phone,
            "xaxis": _year_ticks(len(years)),
            "margin": {"t": top, "l": 44, "r": 8},
            "height": 460,
        },
    )


def chance_of_best(choice: BoardChoice) -> go.Figure:
    """Return horizontal bars: each option's chance of being the best choice, ± its SE."""
    shown = choice.options[:CHART_OPTIONS][::-1]
    names = [short_name(o.name, 28) for o in shown]
    values = [round(100 * o.chance.value, 2) for o in shown]
    errors = [round(100 * o.chance.se, 2) for o in shown]
    bar = go.Bar(
        orientation="h",
        y=names,
        x=values,
        error_x={"type": "data", "array": errors, "visible": True},
        text=[f"{v:.0f} %" for v in values],
        textposition="outside",
        marker={"color": [PALETTE[0] if v == max(values) else PALETTE[4] for v in values]},
        name=_("Chance of being the best choice"),
        hovertemplate="%{y}: %{x:.1f} % ± %{error_x.array:.1f}<extra></extra>",
    )
    title = _("How often each option ranks first")
    sub = _("%(n)s simulated futures; bars show ± one standard error") % {
        "n": f"{choice.futures:,}"
    }
    phone, top = phone_title(plain(title), plain(sub))
    height = max(220, 90 + 40 * len(names))
    return figure(
        [bar],
        {
            "title": {"text": plain(title) + subtitle(sub)},
            "xaxis": {"range": [0, 110], "ticksuffix": " %"},
            "yaxis": {"automargin": True},
            "height": height,
            "showlegend": False,
        },
        narrow={"title": phone, "margin": {"t": top, "r": 8}, "height": height + 30},
    )
