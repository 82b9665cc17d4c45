"""Model rules: choices enforced by the database, ownership and dates checked by clean()."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from interviews.models import Process, Round, normalize_tags, timezone_validator
from tests.factories import CompanyFactory, LevelFactory
from tests.interviews.factories import ProcessFactory, QuestionFactory, RoundFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "field,value",
    [("signal", "maybe_hire"), ("kind", "lunch"), ("mode", "hologram"), ("self_assessment", 6)],
)
def test_round_database_rejects_values_outside_choices(alice, field, value):
    round_ = RoundFactory(owner=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=round_.pk).update(**{field: value})


@pytest.mark.parametrize("field,value", [("stage", "limbo"), ("source", "carrier pigeon")])
def test_process_database_rejects_unknown_stage_and_source(alice, field, value):
    process = ProcessFactory(owner=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Process.objects.filter(pk=process.pk).update(**{field: value})


def test_process_company_must_be_shared_or_own(alice, bob):
    process = ProcessFactory.build(owner=alice, company=CompanyFactory(owner=bob))
    with pytest.raises(ValidationError) as exc:
        process.full_clean()
    assert "company" in exc.value.message_dict


def test_process_accepts_shared_company(alice):
    shared = CompanyFactory(owner=None)
    ProcessFactory.build(owner=alice, company=shared).full_clean()


def test_process_levels_must_be_on_the_company_ladder(alice):
    process = ProcessFactory(owner=alice)
    process.target_level = LevelFactory(company=CompanyFactory(owner=alice))
    process.offered_level = LevelFactory(company=process.company)
    with pytest.raises(ValidationError) as exc:
        process.full_clean()
    assert list(exc.value.message_dict) == ["target_level"]


def test_round_before_first_contact_is_rejected(alice):
    process = ProcessFactory(owner=alice, first_contact=dt.date(2026, 3, 7))
    # 2026-03-06 10:00 in Los Angeles: the day before first contact there.
    round_ = Round(
        owner=alice,
        process=process,
        kind="coding",
        timezone="America/Los_Angeles",
        scheduled_at=dt.datetime(2026, 3, 6, 18, 0, tzinfo=dt.UTC),
    )
    with pytest.raises(ValidationError) as exc:
        round_.full_clean()
    assert "scheduled_at" in exc.value.message_dict
    assert "2026-03-07" in exc.value.message_dict["scheduled_at"][0]


def test_round_of_another_users_process_is_rejected(alice, bob):
    round_ = Round(owner=bob, process=ProcessFactory(owner=alice), kind="coding")
    with pytest.raises(ValidationError, match="your own"):
        round_.full_clean()


def test_round_unknown_timezone_is_rejected(alice):
    round_ = RoundFactory.build(
        owner=alice, process=ProcessFactory(owner=alice), timezone="Mars/Olympus"
    )
    with pytest.raises(ValidationError) as exc:
        round_.full_clean()
    assert "timezone" in exc.value.message_dict


def test_timezone_validator_accepts_iana_names():
    timezone_validator("Asia/Taipei")
    with pytest.raises(ValidationError):
        timezone_validator("Taipei Standard Time")


def test_scheduled_local_is_in_the_entered_zone(alice):
    round_ = RoundFactory(
        owner=alice,
        timezone="America/Los_Angeles",
        scheduled_at=dt.datetime(2026, 3, 9, 17, 0, tzinfo=dt.UTC),
    )
    assert round_.scheduled_local.strftime("%Y-%m-%d %H:%M") == "2026-03-09 10:00"


def test_normalize_tags_and_tag_list(alice):
    assert normalize_tags(" Feature  Store, ranking;#ML design,ranking") == (
        "feature store,ranking,ml design"
    )
    question = QuestionFactory(round=RoundFactory(owner=alice), tags="a,b c")
    assert question.tag_list == ["a", "b c"]
