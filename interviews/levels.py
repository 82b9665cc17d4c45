"""Where a level stands against its target: one rule for the ranking and the interviews analytics.

Pure (no Django). Two levels on one company's ladder compare by their rungs (``order``), so
Microsoft 63 against a target of 64 is a down-level even though both are "senior"; levels on
different ladders compare by their cross-company stage (``equivalence``); anything else is
unknown and nobody is penalised for it. The option's target is its own override, else its
interview process's target, else (for staying, which has no interview of its own) the target of
the user's own process at that company.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

LevelVerdict = Literal["down", "as_targeted", "up"]
T = TypeVar("T")


class LevelLike(Protocol):
    """The fields of ``compensation.models.Level`` the comparison reads."""

    code: str
    order: int
    equivalence: int | None
    company_id: int | None


@dataclass(frozen=True)
class Rung:
    """A level as the comparison sees it: code, place on its ladder, stage, and which ladder."""

    code: str
    order: int
    stage: int | None = None
    ladder: str | int | None = None


@dataclass(frozen=True)
class LevelCheck:
    """A level against its target, on the scale both share (ladder rungs or stages)."""

    level: Rung
    target: Rung
    position: int
    target_position: int

    @property
    def delta(self) -> int:
        """Return how many steps the level is above (positive) or below (negative) the target."""
        return self.position - self.target_position

    @property
    def levels_apart(self) -> int:
        """Return how many steps separate the level from the target."""
        return abs(self.delta)

    @property
    def verdict(self) -> LevelVerdict:
        """Return 'down', 'as_targeted' or 'up'."""
        if self.delta < 0:
            return "down"
        return "up" if self.delta > 0 else "as_targeted"


def rung(level: LevelLike | None) -> Rung | None:
    """Return the comparison's view of a level (None stays None)."""
    if level is None:
        return None
    return Rung(
        code=level.code, order=level.order, stage=level.equivalence, ladder=level.company_id
    )


def level_check(level: Rung | None, target: Rung | None) -> LevelCheck | None:
    """Compare a level with its target: by rung on one ladder, else by stage; None if unknown."""
    if level is None or target is None:
        return None
    if level.ladder is not None and level.ladder == target.ladder:
        return LevelCheck(level, target, level.order, target.order)
    if level.stage is not None and target.stage is not None:
        return LevelCheck(level, target, level.stage, target.stage)
    return None


def target_level_of(
    override: T | None, process_target: T | None, company_target: T | None = None
) -> T | None:
    """Return an option's target level: its own, else its process's, else the company's."""
    for target in (override, process_target, company_target):
        if target is not None:
            return target
    return None
