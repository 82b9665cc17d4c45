"""What a flip answer means for a scenario, for the tests that play the answer out."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from offers.models import Scenario


def flip_apply(scenario: Scenario, component: str, ask: float) -> dict[str, Any]:
    """Return the scenario adjustments that carry a flip answer (in its `FlipAnswer.currency`)."""
    if component == "stock":
        return {"extra_stock_yearly": scenario.extra_stock_yearly + Decimal(str(ask))}
    if component == "sign_on":
        return {"extra_sign_on": scenario.extra_sign_on + Decimal(str(ask))}
    base = scenario.base if scenario.base is not None else scenario.offer.package.base
    return {"base": base + Decimal(str(ask))}
