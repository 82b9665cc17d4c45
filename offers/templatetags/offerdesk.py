"""Display helpers: money in a currency, percentages, score bars, form fields by name."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


@register.filter
def money(value: Any, currency: str = "") -> str:
    """Format an amount with thousands separators and its currency code."""
    if value is None or value == "":
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    text = floatformat(number, "0g")
    return f"{currency} {text}".strip()


@register.filter
def pct(value: Any, digits: int = 0) -> str:
    """Format a 0..1 fraction as a percentage."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.{int(digits)}f}%"


@register.filter
def width(value: Any) -> str:
    """Return a CSS width percentage for a 0..1 score bar."""
    try:
        return f"{max(0.0, min(1.0, float(value))) * 100:.1f}%"
    except (TypeError, ValueError):
        return "0%"


@register.filter
def split_csv(value: str) -> list[str]:
    """Split "a,b,c" into a list."""
    return [v.strip() for v in str(value).split(",") if v.strip()]


@register.filter
def field(form: Any, name: str) -> Any:
    """Return a bound field of a form by name, or None if the form has no such field."""
    try:
        return form[name]
    except KeyError:
        return None


@register.filter
def criterion(name: str) -> str:
    """Return the translated label of a ranking criterion."""
    from offers.charts import criterion_label

    return criterion_label(name)


@register.filter
def component(name: str) -> str:
    """Return the translated name of a yearly column (base, bonus, ..., tax, after tax)."""
    from offers.charts import component_label

    return component_label(name)


@register.filter
def valuation_rows(ev: Any) -> list[dict[str, Any]]:
    """Return an evaluation's table rows: year, the basis's columns, the running value."""
    return ev.rows()  # type: ignore[no-any-return]


@register.filter
def valuation_totals(ev: Any) -> list[float]:
    """Return the window totals of the basis's columns."""
    return [sum(ev.component(c)) for c in ev.basis.shown_columns]
