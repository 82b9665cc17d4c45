"""Views: happy paths, bad input as form errors (never a 500), another user's objects 404."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from accounts.history import trash_list
from interviews.models import Debrief, Process, Round, StageChange, TeamMatch
from tests.factories import CompanyFactory, LevelFactory
from tests.interviews.factories import (
    ProcessFactory,
    QuestionFactory,
    RoundFactory,
    TeamMatchFactory,
)

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def round_post(**overrides):
    data = {
        "order": "",
        "kind": "system_design",
        "scheduled_at": "2026-03-06T10:00",
        "timezone": "America/Los_Angeles",
        "duration_minutes": "45",
        "mode": "virtual",
        "interviewer_name": "Marcus Obi",
        "interviewer_background": "Works on ranking infra; asked about feature stores",
        "shadow_interviewer": "",
        "language": "English",
        "self_assessment": "4",
        "stated_comp": "Current TC ~USD 400K",
        "signal": "hire",
        "feedback": "",
        "questions": "Design a feature store #feature store #ranking",
    }
    data.update(overrides)
    return data


# Board and process pages -----------------------------------------------------------------


def test_board_lists_processes_by_stage(client_alice, alice):
    ProcessFactory(owner=alice, stage="onsite", company=CompanyFactory(owner=alice, name="Meta"))
    response = client_alice.get(reverse("interviews:board"))
    assert response.status_code == 200
    column = next(c for c in response.context["columns"] if c["stage"] == "onsite")
    assert [p.company.name for p in column["processes"]] == ["Meta"]
    assert b"Meta" in response.content


def test_board_empty_state(client_alice):
    response = client_alice.get(reverse("interviews:board"))
    assert b"No interview processes yet" in response.content


def test_process_create(client_alice, alice):
    company = CompanyFactory(owner=None, name="Google")
    level = LevelFactory(company=company, code="L6")
    response = client_alice.post(
        reverse("interviews:process_create"),
        {
            "company": company.pk,
            "role": "Staff MLE",
            "source": "referral",
            "target_level": level.pk,
            "stage": "recruiter_screen",
            "first_contact": "2026-01-05",
            "priority": "1",
        },
    )
    process = Process.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("interviews:process_detail", args=[process.pk])
    assert (process.owner, process.target_level, process.stage) == (
        alice,
        level,
        "recruiter_screen",
    )
    assert process.stage_changes.get().changed_on == dt.date(2026, 1, 5)


def test_process_create_refuses_another_users_company(client_alice, bob):
    other = CompanyFactory(owner=bob)
    response = client_alice.post(
        reverse("interviews:process_create"),
        {"company": other.pk, "role": "x", "source": "inbound", "stage": "applied",
         "first_contact": "2026-01-05", "priority": "2"},
    )  # fmt: skip
    assert response.status_code == 200
    assert "company" in response.context["form"].errors
    assert not Process.objects.exists()


def test_process_create_refuses_a_level_of_another_company(client_alice):
    google, meta = CompanyFactory(owner=None), CompanyFactory(owner=None)
    response = client_alice.post(
        reverse("interviews:process_create"),
        {"company": google.pk, "role": "x", "source": "inbound", "stage": "applied",
         "target_level": LevelFactory(company=meta).pk, "first_contact": "2026-01-05",
         "priority": "2"},
    )  # fmt: skip
    assert response.status_code == 200
    assert "target_level" in response.context["form"].errors


def test_process_detail_shows_rounds_and_stated_figures(client_alice, alice):
    process = ProcessFactory(owner=alice)
    RoundFactory(owner=alice, process=process, stated_comp="Told them 400K TC")
    response = client_alice.get(reverse("interviews:process_detail", args=[process.pk]))
    assert response.status_code == 200
    assert b"Told them 400K TC" in response.content


def test_process_edit_saves_and_keeps_stage(client_alice, alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    url = reverse("interviews:process_edit", args=[process.pk])
    assert "stage" not in client_alice.get(url).context["form"].fields
    response = client_alice.post(
        url,
        {"company": process.company_id, "role": "Staff MLE", "source": "recruiter",
         "first_contact": "2026-01-05", "priority": "1", "next_step": "Send availability",
         "version": "1", "stage": "accepted"},
    )  # fmt: skip
    assert response.status_code == 302
    process.refresh_from_db()
    assert (process.role, process.next_step, process.stage, process.version) == (
        "Staff MLE", "Send availability", "onsite", 2,
    )  # fmt: skip


def test_process_edit_with_stale_version_shows_an_error(client_alice, alice):
    process = ProcessFactory(owner=alice)
    Process.objects.filter(pk=process.pk).update(version=5)
    response = client_alice.post(
        reverse("interviews:process_edit", args=[process.pk]),
        {"company": process.company_id, "role": "Other", "source": "recruiter",
         "first_contact": "2026-01-05", "priority": "1", "version": "1"},
    )  # fmt: skip
    assert response.status_code == 409
    assert "changed since you opened it" in str(response.context["form"].non_field_errors())
    assert Process.objects.get().role == "Senior ML Engineer"


def test_move_stage_with_htmx_returns_the_board(client_alice, alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    response = client_alice.post(
        reverse("interviews:process_move", args=[process.pk]), {"stage": "debrief"}, **HTMX
    )
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "interviews/partials/board.html"
    assert b'id="board"' in response.content
    process.refresh_from_db()
    assert process.stage == "debrief"
    assert StageChange.objects.filter(process=process).count() == 2


def test_move_stage_without_htmx_redirects(client_alice, alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    response = client_alice.post(
        reverse("interviews:process_move", args=[process.pk]), {"stage": "offer", "next": "detail"}
    )
    assert response["Location"] == reverse("interviews:process_detail", args=[process.pk])


def test_move_stage_rejects_unknown_stage(client_alice, alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    response = client_alice.post(
        reverse("interviews:process_move", args=[process.pk]), {"stage": "limbo"}, **HTMX
    )
    assert response.status_code == 400
    assert Process.objects.get().stage == "onsite"


def test_move_stage_get_is_not_allowed(client_alice, alice):
    process = ProcessFactory(owner=alice)
    assert (
        client_alice.get(reverse("interviews:process_move", args=[process.pk])).status_code == 405
    )


def test_process_delete_asks_then_trashes(client_alice, alice):
    process = ProcessFactory(owner=alice)
    RoundFactory(owner=alice, process=process)
    url = reverse("interviews:process_delete", args=[process.pk])
    page = client_alice.get(url)
    assert page.status_code == 200 and b"Delete" in page.content
    # One of each, said as one: "1 rounds" or "1 team matches" would read wrong.
    assert "Its 1 round, debrief and 0 team matches go with it." in page.content.decode()
    assert Process.objects.exists()
    response = client_alice.post(url, {"confirm": "1"})
    assert response["Location"] == reverse("interviews:board")
    assert not Process.objects.exists() and not Round.objects.exists()
    assert trash_list(user=alice).count() == 1


# Rounds -----------------------------------------------------------------------------------


def test_round_create_full_form(client_alice, alice):
    process = ProcessFactory(owner=alice, first_contact=dt.date(2026, 1, 5))
    response = client_alice.post(
        reverse("interviews:round_create", args=[process.pk]), round_post()
    )
    assert response.status_code == 302
    round_ = Round.objects.get()
    assert round_.scheduled_at == dt.datetime(2026, 3, 6, 18, 0, tzinfo=dt.UTC)
    assert (round_.timezone, round_.signal, round_.order, round_.self_assessment) == (
        "America/Los_Angeles", "hire", 1, 4,
    )  # fmt: skip
    assert round_.questions.get().tags == "feature store,ranking"


def test_round_quick_add_with_htmx_returns_the_timeline(client_alice, alice):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:round_create", args=[process.pk]),
        {"quick": "1", "kind": "coding", "scheduled_at": "2026-03-09T10:00",
         "timezone": "America/Los_Angeles", "duration_minutes": "60", "mode": "virtual",
         "interviewer_name": "Lena"},
        **HTMX,
    )  # fmt: skip
    assert response.status_code == 200
    assert b'id="rounds-section"' in response.content and b"Lena" in response.content
    assert Round.objects.get().duration_minutes == 60


@pytest.mark.parametrize(
    "overrides,field,message",
    [
        ({"scheduled_at": "2025-12-31T10:00"}, "scheduled_at", "before the process started"),
        ({"signal": "maybe"}, "signal", "is not a signal"),
        ({"timezone": "Mars/Olympus"}, "timezone", "Unknown time zone"),
        ({"scheduled_at": "next tuesday"}, "scheduled_at", "Enter a date and time"),
        ({"scheduled_at": "2026-03-08T02:30"}, "scheduled_at", "does not exist"),
        ({"self_assessment": "9"}, "self_assessment", "valid choice"),
    ],
)
def test_round_bad_input_is_a_form_error(client_alice, alice, overrides, field, message):
    process = ProcessFactory(owner=alice, first_contact=dt.date(2026, 1, 5))
    response = client_alice.post(
        reverse("interviews:round_create", args=[process.pk]), round_post(**overrides)
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors, errors
    assert message in " ".join(errors[field])
    assert not Round.objects.exists()


def test_round_quick_add_bad_input_with_htmx_is_400(client_alice, alice):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:round_create", args=[process.pk]),
        {"quick": "1", "kind": "coding", "timezone": "Nowhere", "duration_minutes": "60",
         "mode": "virtual"},
        **HTMX,
    )  # fmt: skip
    assert response.status_code == 400
    assert b"Unknown time zone" in response.content


def test_round_edit_shows_local_time_and_saves(client_alice, alice):
    round_ = RoundFactory(
        owner=alice,
        timezone="America/Los_Angeles",
        scheduled_at=dt.datetime(2026, 3, 9, 17, 0, tzinfo=dt.UTC),
    )
    QuestionFactory(round=round_, text="Two sum", tags="arrays")
    url = reverse("interviews:round_edit", args=[round_.pk])
    page = client_alice.get(url)
    assert b'value="2026-03-09T10:00"' in page.content
    assert page.context["form"].initial["questions"] == "Two sum #arrays"
    response = client_alice.post(
        url, round_post(version="1", signal="strong_no_hire", scheduled_at="2026-03-09T11:00")
    )
    assert response.status_code == 302
    round_.refresh_from_db()
    assert (round_.signal, round_.version) == ("strong_no_hire", 2)
    assert round_.scheduled_at == dt.datetime(2026, 3, 9, 18, 0, tzinfo=dt.UTC)


def test_round_edit_with_stale_version_shows_an_error(client_alice, alice):
    round_ = RoundFactory(owner=alice, signal="unknown")
    Round.objects.filter(pk=round_.pk).update(version=3)
    response = client_alice.post(
        reverse("interviews:round_edit", args=[round_.pk]),
        round_post(version="1", scheduled_at="2026-03-09T10:00"),
    )
    assert response.status_code == 409
    assert "changed since you opened it" in str(response.context["form"].non_field_errors())
    assert Round.objects.get().signal == "unknown"


def test_round_delete_asks_then_trashes(client_alice, alice):
    round_ = RoundFactory(owner=alice)
    url = reverse("interviews:round_delete", args=[round_.pk])
    assert client_alice.get(url).status_code == 200
    response = client_alice.post(url, {"confirm": "1"})
    assert response["Location"] == reverse("interviews:process_detail", args=[round_.process_id])
    assert not Round.objects.exists()


# Debrief and team matches -----------------------------------------------------------------


def test_debrief_edit_creates_then_updates(client_alice, alice):
    process = ProcessFactory(owner=alice)
    e5 = LevelFactory(company=process.company, code="E5")
    url = reverse("interviews:debrief_edit", args=[process.pk])
    assert client_alice.get(url).status_code == 200
    client_alice.post(url, {"decision": "hire_lower", "level_decided": e5.pk, "notes": "SNH"})
    debrief = Debrief.objects.get()
    assert (debrief.decision, debrief.level_decided, debrief.owner) == ("hire_lower", e5, alice)
    client_alice.post(url, {"decision": "hire", "level_decided": e5.pk, "version": "1"})
    debrief.refresh_from_db()
    assert (debrief.decision, debrief.version) == ("hire", 2)


def test_debrief_level_must_be_on_the_ladder(client_alice, alice):
    process = ProcessFactory(owner=alice)
    other = LevelFactory(company=CompanyFactory(owner=None))
    response = client_alice.post(
        reverse("interviews:debrief_edit", args=[process.pk]),
        {"decision": "hire", "level_decided": other.pk},
    )
    assert response.status_code == 200 and "level_decided" in response.context["form"].errors


def test_team_match_create_edit_delete(client_alice, alice):
    process = ProcessFactory(owner=alice)
    client_alice.post(
        reverse("interviews:team_match_create", args=[process.pk]),
        {"team": "Recs SG", "manager": "Daniel Ng", "remote_openness": "hybrid",
         "time_zone": "Asia/Singapore", "status": "proposed"},
    )  # fmt: skip
    match = TeamMatch.objects.get()
    assert (match.team, match.time_zone, match.owner) == ("Recs SG", "Asia/Singapore", alice)
    response = client_alice.post(
        reverse("interviews:team_match_edit", args=[match.pk]),
        {"team": "Recs SG", "remote_openness": "hybrid", "time_zone": "Asia/Singapore",
         "status": "matched", "version": "1"},
    )  # fmt: skip
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "matched"
    client_alice.post(reverse("interviews:team_match_delete", args=[match.pk]), {"confirm": "1"})
    assert not TeamMatch.objects.exists()


def test_team_match_unknown_time_zone_is_a_form_error(client_alice, alice):
    process = ProcessFactory(owner=alice)
    response = client_alice.post(
        reverse("interviews:team_match_create", args=[process.pk]),
        {"team": "X", "remote_openness": "hybrid", "time_zone": "Asia/Atlantis",
         "status": "proposed"},
    )  # fmt: skip
    assert response.status_code == 200
    assert "Unknown time zone" in " ".join(response.context["form"].errors["time_zone"])


# Another user's objects -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,factory",
    [
        ("interviews:process_detail", ProcessFactory),
        ("interviews:process_edit", ProcessFactory),
        ("interviews:round_create", ProcessFactory),
        ("interviews:round_edit", RoundFactory),
        ("interviews:round_delete", RoundFactory),
        ("interviews:team_match_edit", TeamMatchFactory),
        ("interviews:team_match_delete", TeamMatchFactory),
    ],
)
def test_another_users_objects_are_404(client_charlie, alice, name, factory):
    obj = factory(owner=alice)
    assert client_charlie.get(reverse(name, args=[obj.pk])).status_code == 404
    assert client_charlie.post(reverse(name, args=[obj.pk]), {"confirm": "1"}).status_code == 404


def test_question_log_and_board_hide_other_users_data(client_charlie, alice, reauth):
    QuestionFactory(round=RoundFactory(owner=alice), text="Alice's secret question")
    ProcessFactory(owner=alice, company=CompanyFactory(owner=alice, name="AliceCo"))
    assert b"secret" not in client_charlie.get(reverse("interviews:question_log")).content
    assert b"AliceCo" not in client_charlie.get(reverse("interviews:board")).content
    calendar = reauth(client_charlie).get(reverse("interviews:calendar"))
    assert calendar.status_code == 200 and b"BEGIN:VEVENT" not in calendar.content


# Question log ----------------------------------------------------------------------------


def test_question_log_filters_by_tag_company_and_kind(client_alice, alice):
    meta = CompanyFactory(owner=None, name="Meta")
    google = CompanyFactory(owner=None, name="Google")
    design = RoundFactory(owner=alice, kind="system_design",
                          process=ProcessFactory(owner=alice, company=meta))  # fmt: skip
    coding = RoundFactory(owner=alice, kind="coding",
                          process=ProcessFactory(owner=alice, company=google))  # fmt: skip
    QuestionFactory(round=design, text="Ads click aggregation", tags="system design,streaming")
    QuestionFactory(round=coding, text="Merge k streams", tags="heap,streaming")
    QuestionFactory(round=coding, text="Streaming median", tags="streaming median")
    url = reverse("interviews:question_log")

    def texts(**params):
        return [q.text for q in client_alice.get(url, params).context["questions"]]

    assert sorted(texts(tag="streaming")) == ["Ads click aggregation", "Merge k streams"]
    assert texts(tag="#Streaming", company=meta.pk) == ["Ads click aggregation"]
    assert texts(tag="streaming", kind="coding") == ["Merge k streams"]
    assert texts(text="median") == ["Streaming median"]
    assert texts(tag="stream") == []  # tags match whole, not as substrings
    page = client_alice.get(url)
    assert page.context["tags"] == ["heap", "streaming", "streaming median", "system design"]


def test_question_log_bad_filter_is_not_a_500(client_alice):
    response = client_alice.get(reverse("interviews:question_log"), {"company": "abc", "kind": "x"})
    assert response.status_code == 200
    assert response.context["form"].errors
