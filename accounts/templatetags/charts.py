"""``{{ fig|plotly_json_script:"fig-id" }}``: a plotly figure handed to the page as JSON data.

``{% plotly_js_src %}``: the URL of the plotly.js bundle that app.js loads to draw it.
"""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from plotly.basedatatypes import BaseFigure

from accounts.charts import PLOTLY_JS, figure_json

register = template.Library()

# As Django's json_script: the JSON cannot close the <script> element or open a comment.
_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.filter
def plotly_json_script(value: BaseFigure | str, element_id: str) -> SafeString:
    """Return a JSON <script> (no code: CSP allows it) with the figure, for app.js to draw.

    ``value`` is a figure, or its JSON from `accounts.charts.figure_json` (a cached chart).
    """
    text = value if isinstance(value, str) else figure_json(value)
    return format_html(
        '<script id="{}" type="application/json">{}</script>',
        element_id,
        mark_safe(text.translate(_ESCAPES)),  # noqa: S308 - JSON with <, > and & escaped
    )


@register.simple_tag
def plotly_js_src() -> str:
    """Return the static URL of the plotly.js bundle (`accounts.charts.PLOTLY_JS`)."""
    return static(PLOTLY_JS)
