"""Free text on the interview pages has a limit, said with Django's counter, and nothing is saved."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from compensation.form_fields import TEXT_MAX_LENGTH
from interviews.models import Debrief, Process, Round, TeamMatch
from tests.compensation.test_form_fields import assert_field_error
from tests.interviews.factories import ProcessFactory, RoundFactory
from tests.interviews.test_views import round_post

pytestmark = pytest.mark.django_db


def too_long(n: int) -> str:
    return f"Ensure this value has at most {TEXT_MAX_LENGTH} characters (it has {n})."


def test_round_feedback_of_5_mb_is_refused(client_alice, alice):
    process = ProcessFactory(owner=alice, first_contact=dt.date(2026, 1, 5))
    five_mb = "f" * (5 * 1024 * 1024)
    response = client_alice.post(
        reverse("interviews:round_create", args=[process.pk]), round_post(feedback=five_mb)
    )
    assert response.status_code == 200
    assert_field_error(response, "feedback", too_long(len(five_mb)))
    assert not Round.objects.exists()


@pytest.mark.parametrize("field", ["feedback", "interviewer_background", "questions"])
def test_round_text_fields_stop_at_the_limit(client_alice, alice, field):
    round_ = RoundFactory(owner=alice, process__owner=alice, feedback="before")
    url = reverse("interviews:round_edit", args=[round_.pk])
    data = round_post(version=str(round_.version), **{field: "x" * (TEXT_MAX_LENGTH + 1)})
    response = client_alice.post(url, data)
    assert_field_error(response, field, too_long(TEXT_MAX_LENGTH + 1))
    round_.refresh_from_db()
    assert round_.feedback == "before" and round_.version == 1
    assert 'maxlength="10000"' in response.content.decode()


def test_round_feedback_at_the_limit_is_saved(client_alice, alice):
    process = ProcessFactory(owner=alice, first_contact=dt.date(2026, 1, 5))
    url = reverse("interviews:round_create", args=[process.pk])
    response = client_alice.post(url, round_post(feedback="f" * TEXT_MAX_LENGTH))
    assert response.status_code == 302
    assert len(Round.objects.get().feedback) == TEXT_MAX_LENGTH


def test_process_notes_stop_at_the_limit(client_alice, alice):
    process = ProcessFactory(owner=alice, notes="before")
    response = client_alice.post(
        reverse("interviews:process_edit", args=[process.pk]),
        {
            "company": process.company_id,
            "role": process.role,
            "source": process.source,
            "priority": process.priority,
            "notes": "n" * (TEXT_MAX_LENGTH + 1),
            "version": str(process.version),
        },
    )
    assert_field_error(response, "notes", too_long(TEXT_MAX_LENGTH + 1))
    assert Process.objects.get(pk=process.pk).notes == "before"


def test_debrief_notes_stop_at_the_limit(client_alice, alice):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:debrief_edit", args=[process.pk]),
        {"decision": "hire", "notes": "n" * (TEXT_MAX_LENGTH + 1)},
    )
    assert_field_error(response, "notes", too_long(TEXT_MAX_LENGTH + 1))
    assert not Debrief.objects.exists()


@pytest.mark.parametrize("field", ["scope", "notes"])
def test_team_match_text_stops_at_the_limit(client_alice, alice, field):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:team_match_create", args=[process.pk]),
        {
            "team": "Recs SG",
            "remote_openness": "hybrid",
            "status": "proposed",
            field: "s" * (TEXT_MAX_LENGTH + 1),
        },
    )
    assert_field_error(response, field, too_long(TEXT_MAX_LENGTH + 1))
    assert not TeamMatch.objects.exists()
