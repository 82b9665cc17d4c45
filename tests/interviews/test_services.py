"""Services: stage history, revisions, optimistic locking, trash and restore."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from accounts.history import history_for, revision_restore, trash_list
from accounts.locking import StaleEditError
from interviews import services
from interviews.models import Debrief, Process, Question, Round, StageChange, TeamMatch
from tests.factories import CompanyFactory
from tests.interviews.factories import (
    DebriefFactory,
    ProcessFactory,
    QuestionFactory,
    RoundFactory,
    TeamMatchFactory,
)

pytestmark = pytest.mark.django_db


def test_process_create_starts_the_stage_history(alice):
    company = CompanyFactory(owner=alice)
    process = services.process_create(
        user=alice, company=company, role="MLE", stage="recruiter_screen",
        first_contact=dt.date(2026, 1, 2),
    )  # fmt: skip
    assert list(process.stage_changes.values_list("stage", "changed_on")) == [
        ("recruiter_screen", dt.date(2026, 1, 2))
    ]
    assert history_for(user=alice, obj=process).count() == 1


def test_process_create_refuses_another_users_company(alice, bob):
    with pytest.raises(ValidationError):
        services.process_create(user=alice, company=CompanyFactory(owner=bob), role="MLE")
    assert not Process.objects.exists()


def test_move_stage_appends_history_and_records_a_revision(alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    services.process_move_stage(
        user=alice, process=process, stage="debrief", on=dt.date(2026, 2, 1)
    )
    services.process_move_stage(user=alice, process=process, stage="offer", on=dt.date(2026, 2, 9))
    process.refresh_from_db()
    assert process.stage == "offer"
    assert process.version == 3
    assert list(process.stage_changes.values_list("stage", flat=True)) == [
        "onsite",
        "debrief",
        "offer",
    ]
    assert history_for(user=alice, obj=process).first().summary == "Debrief -> Offer"


def test_move_to_same_stage_changes_nothing(alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    services.process_move_stage(user=alice, process=process, stage="onsite")
    assert StageChange.objects.filter(process=process).count() == 1


@pytest.mark.parametrize("stage,on", [("limbo", None), ("offer", dt.date(2025, 1, 1))])
def test_move_stage_rejects_unknown_stage_and_dates_before_first_contact(alice, stage, on):
    process = ProcessFactory(owner=alice, stage="onsite")
    with pytest.raises(ValidationError):
        services.process_move_stage(user=alice, process=process, stage=stage, on=on)


def test_round_create_numbers_rounds_and_stores_questions(alice):
    process = ProcessFactory(owner=alice)
    first = services.round_create(user=alice, process=process, kind="coding")
    second = services.round_create(
        user=alice,
        process=process,
        kind="ml_design",
        questions=services.parse_questions("Design a feature store #Feature Store #ranking\n\n"),
    )
    assert (first.order, second.order) == (1, 2)
    assert list(second.questions.values_list("text", "tags")) == [
        ("Design a feature store", "feature store,ranking")
    ]


def test_round_update_records_a_revision_and_bumps_the_version(alice):
    round_ = RoundFactory(owner=alice, signal="unknown")
    services.round_update(
        user=alice, round_=round_, expected_version=1, data={"signal": "hire"},
        questions=[("Two sum", "arrays")],
    )  # fmt: skip
    round_.refresh_from_db()
    assert (round_.signal, round_.version) == ("hire", 2)
    revision = history_for(user=alice, obj=round_).first()
    assert revision.snapshot[0]["fields"]["signal"] == "hire"
    assert revision.snapshot[1]["model"] == "interviews.question"


def test_round_update_refuses_a_stale_version(alice):
    round_ = RoundFactory(owner=alice, signal="unknown")
    Round.objects.filter(pk=round_.pk).update(version=2)  # saved meanwhile in another tab
    with pytest.raises(StaleEditError):
        services.round_update(
            user=alice, round_=round_, expected_version=1, data={"signal": "hire"}
        )
    assert Round.objects.get(pk=round_.pk).signal == "unknown"


def test_round_update_runs_model_validation(alice):
    round_ = RoundFactory(owner=alice)
    with pytest.raises(ValidationError):
        services.round_update(
            user=alice, round_=round_, expected_version=1, data={"timezone": "Nowhere/Land"}
        )


def test_process_delete_trashes_children_and_restore_brings_them_back(alice):
    process = ProcessFactory(owner=alice)
    round_ = RoundFactory(owner=alice, process=process)
    QuestionFactory(round=round_)
    DebriefFactory(owner=alice, process=process)
    TeamMatchFactory(owner=alice, process=process)
    pk = process.pk
    revision = services.process_delete(user=alice, process=process)
    assert not Process.objects.exists()
    assert not Round.objects.exists() and not Question.objects.exists()
    assert trash_list(user=alice).get() == revision
    revision_restore(user=alice, revision=revision)
    assert Process.objects.get().pk == pk
    assert Round.objects.count() == Question.objects.count() == Debrief.objects.count() == 1
    assert TeamMatch.objects.count() == 1
    assert StageChange.objects.count() == 1


def test_round_and_team_match_delete_go_to_the_trash(alice):
    round_ = RoundFactory(owner=alice)
    QuestionFactory(round=round_)
    match = TeamMatchFactory(owner=alice)
    services.round_delete(user=alice, round_=round_)
    services.team_match_delete(user=alice, match=match)
    assert trash_list(user=alice).count() == 2
    assert not Question.objects.exists()


def test_debrief_save_creates_then_updates_with_locking(alice):
    process = ProcessFactory(owner=alice)
    debrief = services.debrief_save(user=alice, process=process, data={"decision": "hire"})
    services.debrief_save(
        user=alice, process=process, data={"decision": "hire_lower"}, expected_version=1
    )
    debrief.refresh_from_db()
    assert (debrief.decision, debrief.version) == ("hire_lower", 2)
    with pytest.raises(StaleEditError):
        services.debrief_save(user=alice, process=process, data={"notes": "x"}, expected_version=1)


def test_team_match_rejects_unknown_time_zone(alice):
    with pytest.raises(ValidationError):
        services.team_match_create(
            user=alice, process=ProcessFactory(owner=alice), team="Ads", time_zone="Asia/Atlantis"
        )


def test_parse_and_format_questions_round_trip(alice):
    parsed = services.parse_questions("LRU cache #design #Hashing\nno tags here\n  \n")
    assert parsed == [("LRU cache", "design,hashing"), ("no tags here", "")]
    round_ = RoundFactory(owner=alice)
    services.round_update(user=alice, round_=round_, expected_version=1, data={}, questions=parsed)
    assert services.format_questions(list(round_.questions.all())) == (
        "LRU cache #design #hashing\nno tags here"
    )
