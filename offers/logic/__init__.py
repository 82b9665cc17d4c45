"""Pure decision logic for offers: time zones, ranking and negotiation (no Django)."""

from __future__ import annotations

from offers.logic.errors import LogicInputError

__all__ = ["LogicInputError"]
