"""Text that goes into a plotly figure: shown as typed, never read as markup."""

from __future__ import annotations


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
