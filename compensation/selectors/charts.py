"""The band position chart (plotly)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
from django.utils.translation import gettext as _

from accounts.charts import INK, figure, phone_title
from compensation.models import Band


def band_position_figure(
    components: list[dict[str, Any]], *, currency: str, level: str, next_band: Band | None
) -> go.Figure:
    """Return a plotly figure: min-max bars per component, mid and package markers."""
    this_label = _("this level")
    next_label = str(next_band.level) if next_band else ""
    ys: list[str] = []
    bases: list[float] = []
    widths: list[float] = []
    colors: list[str] = []
    mids: list[float] = []
    texts: list[str] = []
    value_ys: list[str] = []  # each component's row of this level, where the package sits
    for c in components:
        short = _("Base") if c["key"] == "base" else _("Stock / yr")
        rows = [(f"{short} · {this_label}", c, "#91a7ff")]
        value_ys.append(rows[0][0])
        if c["next"]:
            rows.append((f"{short} · {next_label}", c["next"], "#d0d7e6"))
        for y, fig, color in rows:
            ys.append(y)
            bases.append(fig["min"])
            widths.append(max(fig["max"] - fig["min"], 0.0))
            colors.append(color)
            mids.append(fig["mid"])
            texts.append(f"{fig['min']:,.0f} – {fig['max']:,.0f}")
    title = _("Where it sits in the %(level)s band") % {"level": level}
    phone, top = phone_title(title, currency)
    return figure(
        [
            go.Bar(
                orientation="h",
                y=ys,
                x=widths,
                base=bases,
                marker={"color": colors},
                name=_("band min – max"),
                hovertext=texts,
                hoverinfo="text+y",
            ),
            go.Scatter(
                mode="markers",
                y=ys,
                x=mids,
                name=_("band mid"),
                marker={"symbol": "line-ns-open", "size": 22, "color": INK},
            ),
            go.Scatter(
                mode="markers",
                y=value_ys,
                x=[c["value"] for c in components],
                name=_("this package"),
                marker={"symbol": "diamond", "size": 13, "color": "#e8590c"},
            ),
        ],
        {
            # The currency under the title: as the x axis's title it sat under the legend.
            "title": {"text": f"{title}<br><sub>{currency}</sub>"},
            "xaxis": {"tickformat": ",.0f", "rangemode": "tozero"},
            "yaxis": {"autorange": "reversed", "automargin": True},
            "barmode": "overlay",
            "height": 160 + 45 * len(ys),
            "margin": {"l": 150},
        },
        narrow={
            "title": phone,
            "xaxis": {"tickformat": "~s"},
            "margin": {"t": top, "l": 8, "r": 12},
            "height": 190 + 45 * len(ys),
        },
    )
