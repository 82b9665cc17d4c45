"""Plotly figures: built and validated by plotly, serialised by plotly, themed by the page.

Every chart of every app is a `plotly.graph_objects.Figure` made by `figure()`: plotly checks
each property when the figure is built (a misspelt or invalid one raises ``ValueError``) and
`figure_json()` writes it with plotly's own JSON encoder. The page draws it with Offerdesk's
partial bundle of plotly.js (`PLOTLY_JS`: the traces of ``tools/plotly/traces.json`` alone,
built by ``make plotly``), whose file name carries the plotly.js version the installed Python
``plotly`` bundles: after a new ``plotly`` pin the old file is no longer found until rebuilt.

Colours of text, grid lines and the figure's "ink" (markers drawn in the text colour) come
from the page's CSS variables when `static/js/app.js` draws a chart, so charts follow the
light or dark colour scheme. A figure may carry a narrow-screen layout in
``layout.meta["narrow"]`` (validated here as a plotly layout), which the page applies when
the chart is narrower than `NARROW_PX`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType
from plotly.offline import get_plotlyjs_version

# The static path of plotly.js: static/vendor's partial bundle of the version the Python
# library writes figures for (tools/plotly; 1.15 MB instead of the full 4.8 MB bundle).
PLOTLY_JS = f"vendor/plotly-{get_plotlyjs_version()}-offerdesk.min.js"
# Drawn in the page's text colour: app.js swaps this value for the CSS variable --chart-ink.
INK = "#212529"
# Below this width (CSS pixels) a chart uses its `layout.meta["narrow"]` overrides.
NARROW_PX = 560
# Under the plot. Not xref="container": plotly.js 4.1 then fails to scale a phone's axes.
BASE_LEGEND: dict[str, Any] = {
    "orientation": "h",
    "x": 0,
    "xanchor": "left",
    "y": -0.15,
    "yanchor": "top",
}
BASE_LAYOUT: dict[str, Any] = {
    # No plotly.py template: the page's CSS gives the colours (light and dark), and the
    # figure's JSON stays small.
    "template": "none",
    "legend": BASE_LEGEND,
}


def figure(
    data: Sequence[BaseTraceType | Mapping[str, Any]],
    layout: Mapping[str, Any],
    *,
    narrow: Mapping[str, Any] | None = None,
) -> go.Figure:
    """Return a validated figure; `narrow` is the layout to use on a phone (validated too).

    `data` holds trace objects (``go.Bar(...)``) or trace specs (``{"type": "bar", ...}``):
    the figure validates both the same way, and a spec only once (a trace object is checked
    when it is made and again by the figure).
    """
    full = {**BASE_LAYOUT, **layout}
    if "text" in full.get("title", {}):
        # Hang the title from the top, with room for its lines: plotly.js 4.1's title
        # automargin lets a two-line title run into the plot.
        title, top = hanging_title(full["title"]["text"])
        full["title"] = {**title, **full["title"]}
        full["margin"] = {"t": top, **full.get("margin", {})}
    fig = go.Figure(data=list(data), layout=full)
    if narrow:
        # meta accepts anything: validate the overrides as a layout before storing them.
        checked = go.Layout(narrow).to_plotly_json()
        fig.update_layout(meta={"narrow": checked})
    return fig


def figure_json(fig: go.Figure) -> str:
    """Return the figure as JSON, written by plotly's encoder (NaN as null, numpy as typed arrays)."""
    return str(fig.to_json(validate=False, pretty=False, remove_uids=True, engine="json"))


def phone_title(title: str, subtitle: str = "", *, width: int = 34) -> tuple[dict[str, Any], int]:
    """Return a title broken into lines that fit a phone, and the top margin it needs.

    Both parts must already be plain text escaped for plotly (see `plain`):
    only the ``<br>`` and ``<sub>`` added here are markup. The title hangs from the top of the
    figure: plotly's title automargin misplaces titles of more than two lines.
    """
    text = "<br>".join(_wrap(title, width)) or title
    if subtitle:
        text += "".join("<br><sub>" + line + "</sub>" for line in _wrap(subtitle, width + 12))
    return hanging_title(text)


def hanging_title(text: str) -> tuple[dict[str, Any], int]:
    """Return a title (markup as given) that hangs from the figure's top, and its top margin."""
    lines = max(2, text.count("<br>") + 1)
    # plotly.js anchors a title's top at its second line: pad by the lines below that.
    pad = 14 + 16 * (lines - 2)
    layout = {
        "text": text,
        "automargin": False,
        "yref": "container",
        "y": 1,
        "yanchor": "top",
        "pad": {"t": pad},
    }
    return layout, pad + 20 * lines + 6


def plain(text: str) -> str:
    """Return ``text`` with ``&``, ``<`` and ``>`` as entities, for a plotly label or title.

    Plotly reads a subset of HTML in labels (``<a href>``, ``<b>``, ``<br>``): an option
    named ``<a href="https://evil.example">Acme</a>`` would become a link in the chart.
    Plotly turns the entities back into the characters, so the name reads as typed.
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def subtitle(text: str) -> str:
    """Return ``text`` as a second, smaller line of a plotly title (shown as typed)."""
    return "<br><sub>" + plain(text) + "</sub>"


def rgba(hex_color: str, alpha: float) -> str:
    """Return ``#rrggbb`` as an ``rgba()`` colour with the given opacity."""
    h = hex_color.lstrip("#")
    return f"rgba({int(h[0:2], 16)},{int(h[2:4], 16)},{int(h[4:6], 16)},{alpha})"


def _wrap(text: str, width: int) -> list[str]:
    # Whole words only: an entity such as &amp; is never cut in two.
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
