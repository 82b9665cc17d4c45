"""The demo story: four loops, the Meta down-level, TikTok's onsite next week."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from interviews import analytics, demo, selectors
from interviews.models import Process

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(alice, reference):
    return demo.seed_user(alice, {"companies": reference})


def test_demo_returns_the_processes_by_company(story, alice):
    processes = story["processes"]
    assert set(processes) == {"Google", "Meta", "TikTok", "Northwind AI"}
    assert all(isinstance(p, Process) and p.owner == alice for p in processes.values())


def test_demo_google_has_five_virtual_rounds_and_two_team_matches(story):
    google = story["processes"]["Google"]
    kinds = list(google.rounds.exclude(kind="recruiter_call").values_list("kind", "mode"))
    assert sorted(k for k, _m in kinds) == [
        "behavioral",
        "coding",
        "coding",
        "coding",
        "system_design",
    ]
    assert {m for _k, m in kinds} == {"virtual"}
    assert google.team_matches.count() == 2


def test_demo_meta_is_down_levelled_by_one_strong_no_hire_in_design(story):
    meta = story["processes"]["Meta"]
    assert meta.stage == "negotiating"
    assert (meta.target_level.code, meta.offered_level.code) == ("E6", "E5")
    assert meta.debrief.level_decided.code == "E5"
    signals = selectors.process_signals(process=meta)
    assert signals.count("strong_no_hire") == 1 and signals.count("strong_hire") == 5
    assert meta.rounds.get(signal="strong_no_hire").kind in ("system_design", "ml_design")
    assert meta.rounds.first().kind == "team_match"


def test_demo_tiktok_onsite_is_next_week_with_a_singapore_manager(story):
    tiktok = story["processes"]["TikTok"]
    assert tiktok.stage == "onsite"
    upcoming = tiktok.rounds.filter(scheduled_at__gte=timezone.now())
    assert upcoming.count() == 4
    first = upcoming.order_by("scheduled_at").first()
    assert dt.timedelta(days=5) < first.scheduled_at - timezone.now() < dt.timedelta(days=9)
    assert tiktok.team_matches.get().time_zone == "Asia/Singapore"


def test_demo_internal_transfer(story):
    northwind = story["processes"]["Northwind AI"]
    assert northwind.source == "internal_transfer"
    assert northwind.team_matches.values("manager").distinct().count() == 2


def test_demo_analytics_level_check(story, alice):
    stats = analytics.interview_stats(*selectors.analytics_input(user=alice))
    (meta,) = [c for c in stats["level_checks"] if c["company"] == "Meta"]
    assert (meta["target"], meta["offered"], meta["verdict"]) == ("E6", "E5", "down")
    assert meta["negative"] == [("system_design", "strong_no_hire")]
    assert stats["rounds_per_company"]["Meta"] == 6
