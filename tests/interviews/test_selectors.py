"""Selectors other apps call, and the dashboard partial."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from interviews import selectors
from tests.interviews.factories import ProcessFactory, RoundFactory

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)


def test_upcoming_rounds_are_future_running_and_own(alice, bob):
    running = ProcessFactory(owner=alice, stage="onsite")
    ended = ProcessFactory(owner=alice, stage="rejected")
    later = RoundFactory(owner=alice, process=running, scheduled_at=NOW + dt.timedelta(days=3))
    soon = RoundFactory(owner=alice, process=running, scheduled_at=NOW + dt.timedelta(days=1))
    RoundFactory(owner=alice, process=running, scheduled_at=NOW - dt.timedelta(days=1))
    RoundFactory(owner=alice, process=ended, scheduled_at=NOW + dt.timedelta(days=2))
    RoundFactory(owner=bob, scheduled_at=NOW + dt.timedelta(days=2))
    rounds = selectors.upcoming_rounds(user=alice, now=NOW)
    assert list(rounds) == [soon, later]
    assert list(selectors.upcoming_rounds(user=alice, now=NOW, limit=1)) == [soon]


def test_upcoming_deadlines(alice):
    today = dt.date(2026, 3, 1)
    due = ProcessFactory(owner=alice, deadline=today + dt.timedelta(days=5))
    ProcessFactory(owner=alice, deadline=today - dt.timedelta(days=1))
    ProcessFactory(owner=alice, deadline=today + dt.timedelta(days=1), stage="declined")
    assert list(selectors.upcoming_deadlines(user=alice, today=today)) == [due]


def test_process_signals_in_round_order_with_and_without_prefetch(alice, django_assert_num_queries):
    process = ProcessFactory(owner=alice)
    RoundFactory(owner=alice, process=process, order=2, signal="strong_no_hire")
    RoundFactory(owner=alice, process=process, order=1, signal="strong_hire")
    assert selectors.process_signals(process=process) == ["strong_hire", "strong_no_hire"]
    fetched = selectors.process_get(user=alice, pk=process.pk)
    with django_assert_num_queries(0):
        assert selectors.process_signals(process=fetched) == ["strong_hire", "strong_no_hire"]


def test_active_processes_have_their_next_round(alice):
    future = timezone.now() + dt.timedelta(days=2)
    running = ProcessFactory(owner=alice, stage="onsite")
    RoundFactory(owner=alice, process=running, scheduled_at=future + dt.timedelta(hours=5))
    nxt = RoundFactory(owner=alice, process=running, scheduled_at=future, kind="ml_design")
    ProcessFactory(owner=alice, stage="accepted")
    (process,) = selectors.active_processes(user=alice)
    assert process == running
    assert process.next_round_at == future
    assert process.upcoming_round_list[0] == nxt


def test_process_get_is_owner_scoped(alice, bob):
    from django.http import Http404

    process = ProcessFactory(owner=alice)
    with pytest.raises(Http404):
        selectors.process_get(user=bob, pk=process.pk)
    assert selectors.process_list(user=bob).count() == 0


def test_upcoming_partial_renders(alice):
    running = ProcessFactory(owner=alice, stage="onsite", deadline=dt.date(2099, 1, 1),
                             next_step="Send references")  # fmt: skip
    RoundFactory(owner=alice, process=running, scheduled_at=timezone.now() + dt.timedelta(days=1),
                 interviewer_name="Kevin Zhou")  # fmt: skip
    html = render_to_string(
        "interviews/partials/upcoming.html",
        {
            "rounds": selectors.upcoming_rounds(user=alice),
            "deadlines": selectors.upcoming_deadlines(user=alice),
        },
    )
    assert "Kevin Zhou" in html and "Send references" in html
    assert "No interviews scheduled" in render_to_string(
        "interviews/partials/upcoming.html", {"rounds": [], "deadlines": []}
    )
