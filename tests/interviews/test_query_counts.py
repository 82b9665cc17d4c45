"""Lists and the board use the same number of queries for 1 and 20 processes with rounds."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from interviews.models import Process
from tests.interviews.factories import ProcessFactory, QuestionFactory, RoundFactory

pytestmark = pytest.mark.django_db

# Every authenticated request costs four queries around the view:
#   1. SELECT django_session (the session row)
#   2. SELECT auth_user (the signed-in user)
#   3. SAVEPOINT and 4. RELEASE SAVEPOINT (ATOMIC_REQUESTS inside the test's transaction)
# The preference-driven time zone middleware looks Preferences up once (and saves the session)
# on a session's first request, then reads the zone from the session; a first, uncounted GET
# warms the session so that the counted request measures the steady state.
BASE = 4


def make_data(user, n):
    for i in range(n):
        process = ProcessFactory(owner=user, stage=("onsite", "offer", "team_match")[i % 3])
        for _ in range(3):
            QuestionFactory(round=RoundFactory(owner=user, process=process))


@pytest.mark.parametrize("n", [1, 20])
def test_board_queries(client_alice, alice, n, django_assert_num_queries):
    make_data(alice, n)
    url = reverse("interviews:board")
    client_alice.get(url)
    # + processes with company, levels, round count and next round, all in one query
    with django_assert_num_queries(BASE + 1):
        response = client_alice.get(url)
    assert response.context["process_count"] == n


@pytest.mark.parametrize("n", [1, 20])
def test_htmx_move_queries(client_alice, alice, n, django_assert_num_queries):
    make_data(alice, n)
    process = ProcessFactory(owner=alice, stage="onsite")
    url = reverse("interviews:process_move", args=[process.pk])
    client_alice.get(reverse("interviews:board"))
    ContentType.objects.get_for_model(Process)  # the content type cache is per process
    # + process, SAVEPOINT, INSERT stage change, is there a debrief, INSERT the pending debrief
    # (moving to "debrief" records one), UPDATE process, INSERT revision, RELEASE,
    # board (one query)
    with django_assert_num_queries(BASE + 9):
        client_alice.post(url, {"stage": "debrief"}, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("n", [1, 20])
def test_question_log_queries(client_alice, alice, n, django_assert_num_queries):
    make_data(alice, n)
    url = reverse("interviews:question_log")
    client_alice.get(url)
    # + companies for the filter, questions with round/process/company, tags
    with django_assert_num_queries(BASE + 3):
        response = client_alice.get(url)
    assert len(response.context["questions"]) == 3 * n


@pytest.mark.parametrize("n", [1, 20])
def test_analytics_queries(client_alice, alice, n, django_assert_num_queries):
    make_data(alice, n)
    url = reverse("interviews:analytics")
    client_alice.get(url)
    # + processes with levels and debrief, their stage changes, rounds as values
    with django_assert_num_queries(BASE + 3):
        response = client_alice.get(url)
    assert response.context["stats"]["round_count"] == 3 * n


@pytest.mark.parametrize("n", [1, 20])
def test_process_detail_queries_do_not_grow_with_rounds(
    client_alice, alice, n, django_assert_num_queries
):
    process = ProcessFactory(owner=alice)
    for _ in range(n):
        QuestionFactory(round=RoundFactory(owner=alice, process=process))
    url = reverse("interviews:process_detail", args=[process.pk])
    client_alice.get(url)
    # + process (with company, levels, debrief), rounds, questions, stage changes, team matches
    with django_assert_num_queries(BASE + 5):
        client_alice.get(url)


@pytest.mark.parametrize("n", [1, 20])
def test_calendar_queries(client_alice, alice, n, django_assert_num_queries, reauth):
    reauth(client_alice)  # a download asks for the password
    make_data(alice, n)
    url = reverse("interviews:calendar")
    client_alice.get(url)
    # + rounds with process and company
    with django_assert_num_queries(BASE + 1):
        client_alice.get(url)
