"""Display helpers: money in a currency, percentages, score bars, form fields by name."""

from __future__ import annotations

import math
from typing import Any

from django import template
from django.template.defaultfilters import floatformat
from django.utils.formats import get_format
from django.utils.translation import get_language

register = template.Library()
# A language's thousands separator when it groups by three (empty: let Django format).
_SEPARATORS: dict[str | None, str] = {}


def _whole_grouped(number: float) -> str:
    """Return ``floatformat(number, "0g")``, computed without Decimal for ordinary amounts.

    A page of 50 options formats hundreds of amounts; Django's filter goes through Decimal
    and the locale machinery for each one. Halves round away from zero, as Decimal's
    ROUND_HALF_UP does; other locales' groupings and non-finite values take Django's path.
    """
    if not math.isfinite(number) or abs(number) >= 1e15:
        return floatformat(number, "0g")
    language = get_language()
    separator = _SEPARATORS.get(language)
    if separator is None:
        grouping = get_format("NUMBER_GROUPING")
        separator = _SEPARATORS[language] = (
            str(get_format("THOUSAND_SEPARATOR")) if grouping == 3 else ""
        )
    if not separator:
        return floatformat(number, "0g")
    whole = math.trunc(number)
    if abs(number - whole) >= 0.5:
        whole += 1 if number > 0 else -1
    text = f"{abs(whole):,}"
    if separator != ",":
        text = text.replace(",", separator)
    return f"-{text}" if whole < 0 else text


@register.filter
def money(value: Any, currency: str = "") -> str:
    """Format an amount with thousands separators and its currency code."""
    if value is None or value == "":
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    text = _whole_grouped(number)
    return f"{currency} {text}".strip()


@register.filter
def basis_words(stored: str) -> str:
    """Return a stored valuation basis (a negotiation answer's) in the reader's language; an
    older entry's, stored as words, as it is."""
    from offers.valuation_basis import ValuationBasis

    basis = ValuationBasis.from_key(stored)
    return basis.label if basis is not None else stored


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
    from offers.logic.criteria import label

    return label(name)


@register.filter
def component(name: str) -> str:
    """Return the translated name of a yearly column (base, bonus, ..., tax, after tax)."""
    from offers.charts import component_label

    return component_label(name)


@register.filter
def valuation_rows(ev: Any) -> list[dict[str, Any]]:
    """Return an evaluation's table rows: year, its shown columns, the running value."""
    return ev.rows()  # type: ignore[no-any-return]


@register.filter
def valuation_totals(ev: Any) -> list[float]:
    """Return the window totals of the option's shown columns."""
    return [sum(ev.component(c)) for c in ev.shown_columns]
