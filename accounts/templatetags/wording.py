"""Template filters over accounts.wording: fits, band positions, gaps to a target, quotations and
asides in the language's marks; and how long a password reset link works, in words
(`accounts.wording.duration`)."""

from __future__ import annotations

from django import template
from django.conf import settings

from accounts import wording

register = template.Library()


@register.filter
def fit(score: float | None) -> str:
    """Return a 0..1 score as "fit 85%" (`accounts.wording.fit_percent`)."""
    return wording.fit_words(score)


@register.filter
def band_position(percentile: float | None) -> str:
    """Return "51st percentile", "above the top of the band" or "below the bottom of the band"."""
    return wording.band_position(percentile)


@register.filter
def points_from_target(delta: float) -> str:
    """Return "on target" or "2.5 percentage points above target"."""
    return wording.points_from_target(float(delta))


@register.filter(is_safe=True)
def quoted(text: object) -> str:
    """Return text in the language's quotation marks: “text”, 「text」."""
    return wording.quoted(text)


@register.filter(is_safe=True)
def aside(text: object) -> str:
    """Return text as an aside after the words before it: " (text)", "（text）"."""
    return wording.aside(text)


@register.simple_tag
def reset_link_lifetime() -> str:
    """Return how long a password reset link works, as set: PASSWORD_RESET_TIMEOUT in words."""
    return wording.duration(settings.PASSWORD_RESET_TIMEOUT)
