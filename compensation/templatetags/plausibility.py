"""``{% plausibility_warnings package fx home %}``: the warnings box of a package."""

from __future__ import annotations

from typing import Any

from django import template

from compensation.models import Package
from compensation.plausibility import package_warnings
from compensation.selectors import FxTable

register = template.Library()


@register.inclusion_tag("compensation/_plausibility.html")
def plausibility_warnings(
    package: Package, fx: FxTable | None = None, home: str | None = None
) -> dict[str, Any]:
    """Render the warnings about a package's entries (nothing when there are none)."""
    return {"warnings": package_warnings(package, fx, home_currency=home or None)}
