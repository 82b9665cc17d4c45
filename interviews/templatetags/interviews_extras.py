"""Template helpers of the interviews app."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def label(code: Any, labels: dict[str, str]) -> str:
    """Return the display text of a code from a labels dict (the code itself if unknown)."""
    return labels.get(str(code), str(code))
