"""The chance an option still in process becomes an offer (offers.logic.likelihood)."""

from __future__ import annotations

import pytest

from offers.logic.errors import LogicInputError
from offers.logic.likelihood import offer_chance


@pytest.mark.parametrize(
    ("stage", "signals", "debrief", "want"),
    [
        ("onsite", ["hire", "strong_hire", "lean_no_hire"], None, 0.60),  # 2 of 3: mostly
        ("onsite", ["hire", "no_hire"], None, 0.35),  # mixed
        ("debrief", ["no_hire", "lean_no_hire", "hire"], None, 0.10),  # 1 of 3: mostly no
        ("onsite", ["unknown", "unknown"], None, 0.30),  # none known yet
        ("debrief", ["hire"], "hire", 0.85),
        ("debrief", ["hire"], "no_hire", 0.02),
        ("debrief", ["hire"], "more_interviews", 0.35),
        ("team_match", [], None, 0.70),
        ("phone_screen", ["hire"], None, 0.25),
        ("phone_screen", ["no_hire"], None, 0.15),
        ("recruiter_screen", [], None, 0.10),
        ("applied", [], None, 0.05),
        ("offer", [], None, 0.95),
        ("rejected", ["hire"], None, 0.0),
        ("ghosted", [], None, 0.0),
        (None, [], None, 0.5),
    ],
)
def test_table(stage: str | None, signals: list[str], debrief: str | None, want: float) -> None:
    chance = offer_chance(offer_status="draft", stage=stage, signals=signals, debrief=debrief)
    assert chance.probability == want
    assert chance.in_process and not chance.overridden and chance.reason


def test_signals_are_counted_in_the_reason() -> None:
    chance = offer_chance(offer_status="draft", stage="onsite", signals=["hire", "unknown"])
    assert chance.probability == 0.60
    assert chance.reason == "onsite stage, 1 of 1 signals so far Hire or better"


def test_offer_in_hand_and_gone_and_override() -> None:
    assert offer_chance(offer_status="received", stage="onsite").probability == 1.0
    assert offer_chance(offer_status="negotiating", stage=None).probability == 1.0
    assert offer_chance(offer_status="expired", stage="offer").probability == 0.0
    own = offer_chance(offer_status="draft", stage="applied", override_pct=40)
    assert (own.probability, own.overridden) == (0.40, True)
    # The override is for options in process: an offer on the table stays certain.
    assert offer_chance(offer_status="received", stage=None, override_pct=10).probability == 1.0
    with pytest.raises(LogicInputError):
        offer_chance(offer_status="draft", stage="onsite", override_pct=101)
    with pytest.raises(LogicInputError):
        offer_chance(offer_status="draft", stage="lunch")
