"""The ranking's level criterion and the interviews analytics' level check agree."""

from __future__ import annotations

import datetime as dt

import pytest

from compensation.models import Company, Level
from interviews.analytics import interview_stats
from interviews.selectors import analytics_input
from offers import board as valuation
from tests.factories import OfferFactory, PreferencesFactory
from tests.interviews.factories import ProcessFactory

pytestmark = pytest.mark.django_db


def ladder(user, name: str, codes: list[tuple[str, int]]) -> dict[str, Level]:
    company = Company.objects.create(owner=user, name=name, ticker="X", share_price=100)
    return {
        code: Level.objects.create(company=company, code=code, order=i, equivalence=stage)
        for i, (code, stage) in enumerate(codes, start=1)
    }


def level_scores(user):
    board = valuation.board_build(user=user, mc_paths=0, today=dt.date(2026, 11, 30))
    return {r.name: r.criteria["level"] for r in board.ranking}


def test_demo_like_case_down_one_level_in_both(alice):
    PreferencesFactory(owner=alice)
    meta = ladder(alice, "Meta", [("E4", 4), ("E5", 5), ("E6", 6)])
    northwind = ladder(alice, "Northwind", [("E4", 4), ("E5", 5), ("E6", 6)])
    process = ProcessFactory(
        owner=alice,
        company=meta["E5"].company,
        target_level=meta["E6"],
        offered_level=meta["E5"],
        stage="offer",
    )
    OfferFactory(
        owner=alice,
        name="Meta E5",
        package__company=meta["E5"].company,
        level=meta["E5"],
        process=process,
    )
    # The user's internal process at their own company targets E6; staying keeps E5.
    ProcessFactory(owner=alice, company=northwind["E5"].company, target_level=northwind["E6"])
    OfferFactory(
        owner=alice,
        name="Stay",
        kind="stay",
        package__company=northwind["E5"].company,
        package__is_current_job=True,
        level=northwind["E5"],
    )

    scores = level_scores(alice)
    (check,) = interview_stats(*analytics_input(user=alice))["level_checks"]
    assert (check["target"], check["offered"], check["verdict"]) == ("E6", "E5", "down")
    for name in ("Meta E5", "Stay"):
        figures = scores[name].figures
        assert scores[name].score == pytest.approx(0.75), name  # 1 - 0.25 per level
        assert scores[name].explanation == "1 level below your target"
        steps = figures["target_level_order"] - figures["level_order"]  # type: ignore[operator]
        assert steps == check["levels_apart"] == 1


def test_a_rung_below_within_one_stage_is_down_in_both(alice):
    PreferencesFactory(owner=alice)
    micro = ladder(alice, "Micro", [("63", 5), ("64", 5)])
    process = ProcessFactory(
        owner=alice,
        company=micro["63"].company,
        target_level=micro["64"],
        offered_level=micro["63"],
        stage="offer",
    )
    OfferFactory(
        owner=alice, package__company=micro["63"].company, level=micro["63"], process=process
    )
    OfferFactory(owner=alice)  # a second option so that there is a ranking to compare

    (check,) = interview_stats(*analytics_input(user=alice))["level_checks"]
    assert check["verdict"] == "down"
    level = next(s for s in level_scores(alice).values() if s.figures["level_order"] is not None)
    assert level.score == pytest.approx(0.75)


def test_the_offer_overrides_the_process_target(alice):
    PreferencesFactory(owner=alice)
    meta = ladder(alice, "Meta", [("E4", 4), ("E5", 5), ("E6", 6)])
    process = ProcessFactory(owner=alice, company=meta["E5"].company, target_level=meta["E6"])
    OfferFactory(
        owner=alice,
        name="Meta E5",
        package__company=meta["E5"].company,
        level=meta["E5"],
        target_level=meta["E5"],
        process=process,
    )
    OfferFactory(owner=alice)
    assert level_scores(alice)["Meta E5"].score == 1.0


def test_staying_without_a_process_at_its_company_is_not_penalised(alice, bob):
    PreferencesFactory(owner=alice)
    northwind = ladder(alice, "Northwind", [("E5", 5), ("E6", 6)])
    # Bob's process at the same company is not Alice's target.
    ProcessFactory(owner=bob, company=northwind["E5"].company, target_level=northwind["E6"])
    OfferFactory(
        owner=alice,
        name="Stay",
        kind="stay",
        package__company=northwind["E5"].company,
        level=northwind["E5"],
    )
    OfferFactory(owner=alice)
    assert level_scores(alice)["Stay"].score == 1.0
