"""The plan follows the conversation: an answer logged on a page reaches the next page at once.

Each test warms the board first (a cached board is what a second visit reads), writes through
the page a browser posts, with its on-commit callbacks run, then reads the negotiation page.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from offers import board_cache
from offers.logic.rules.base import DEADLINE, REMOTE
from offers.models import NegotiationEntry, Offer
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def meta(demo_user, client):
    # The demo is seeded inside the tests' outer transaction: run its token replacements as a
    # commit would, so that a page caches the board and the next one reads it.
    for entry in connection.run_on_commit:
        if isinstance(entry[1], board_cache._Replace) and not entry[1].done:
            entry[1]()
    client.force_login(demo_user)
    return Offer.objects.get(owner=demo_user, name__startswith="Meta")


def _plan(client, offer):
    response = client.get(reverse("offers:negotiation", args=[offer.pk]))
    assert response.status_code == 200
    return response.context["plan"], response.context["drafts"]


def _warm(client, offer, user):
    plan, drafts = _plan(client, offer)
    assert board_cache.board_cached(user=user) is not None  # the next page reads this board
    return plan, drafts


def _post(client, url, page, django_capture_on_commit_callbacks, **values):
    data = {**form_values(client.get(page).content, action=url, page=page), **values}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_a_refusal_logged_on_the_log_page_reaches_the_plan_at_once(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    plan, drafts = _warm(client, meta, demo_user)
    assert REMOTE in [a.component for a in plan.asks]
    assert "remotely 8 weeks" in drafts[0].text

    url = reverse("offers:negotiation_log", args=[meta.pk])
    _post(
        client,
        url,
        url,
        django_capture_on_commit_callbacks,
        asked_on="2026-11-30",
        topic="remote",
        ask="8 weeks remote a year, in writing.",
        outcome="refused",
        answered_on="2026-12-01",
        answer="Four weeks is the policy; no exceptions",
    )

    plan, drafts = _plan(client, meta)
    assert REMOTE not in [a.component for a in plan.asks]
    refused = [b.note for b in plan.background if b.point.component == REMOTE]
    assert refused and all("Refused on" in n and "no exceptions" in n for n in refused)
    assert "remotely" not in drafts[0].text


def test_an_answer_recorded_on_the_answer_page_reaches_the_plan_at_once(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    plan, _drafts = _warm(client, meta, demo_user)
    deadline = next(a for a in plan.asks if a.component == DEADLINE)
    assert deadline.status == "waiting"
    entry = NegotiationEntry.objects.get(offer=meta, topic="deadline", outcome="pending")

    url = reverse("offers:negotiation_entry_answer", args=[entry.pk])
    _post(
        client,
        url,
        url,
        django_capture_on_commit_callbacks,
        outcome="refused",
        answer="The deadline stands",
    )

    plan, drafts = _plan(client, meta)
    assert DEADLINE not in [a.component for a in plan.asks]
    assert any("The deadline stands" in b.note for b in plan.background)
    assert not plan.waiting


def test_deleting_a_logged_refusal_brings_its_ask_back_at_once(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    log = reverse("offers:negotiation_log", args=[meta.pk])
    _post(
        client,
        log,
        log,
        django_capture_on_commit_callbacks,
        asked_on="2026-11-30",
        topic="remote",
        ask="8 weeks remote a year, in writing.",
        outcome="refused",
        answered_on="2026-12-01",
        answer="No",
    )
    plan, _drafts = _warm(client, meta, demo_user)
    assert REMOTE not in [a.component for a in plan.asks]
    entry = NegotiationEntry.objects.get(offer=meta, topic="remote")

    url = reverse("offers:negotiation_entry_delete", args=[entry.pk])
    _post(client, url, url, django_capture_on_commit_callbacks)

    plan, _drafts = _plan(client, meta)
    assert REMOTE in [a.component for a in plan.asks]


# Answers read as answers ---------------------------------------------------------------------


def test_a_counter_in_words_is_thanked_for_and_its_ask_not_made_again(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    _plan_before, drafts = _warm(client, meta, demo_user)
    assert "Could we add USD 60,000 a year in stock?" in drafts[0].text

    url = reverse("offers:negotiation_log", args=[meta.pk])
    _post(
        client,
        url,
        url,
        django_capture_on_commit_callbacks,
        asked_on="2026-11-30",
        topic="stock",
        ask="USD 60,000 a year more stock, at the E6 band.",
        outcome="countered",
        answered_on="2026-12-01",
        answer="Stock stays at USD 720,000; sign-on to USD 70,000.",
    )

    plan, drafts = _plan(client, meta)
    english = drafts[0].text
    assert english.splitlines()[2] == "Thank you for coming back to me on the stock."
    assert "in stock" not in english and "60,000" not in english
    assert len(plan.to_send) <= 1 and all(a.component != "stock" for a in plan.asks)
    assert "60,000" not in drafts[1].text  # zh-Hant
    note = next(b.note for b in plan.background if b.point.component == "stock")
    assert "Stock stays at USD 720,000; sign-on to USD 70,000" in note


def test_a_pending_ask_is_not_repeated_in_the_next_draft(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    _warm(client, meta, demo_user)
    url = reverse("offers:negotiation_log", args=[meta.pk])
    _post(
        client,
        url,
        url,
        django_capture_on_commit_callbacks,
        asked_on="2026-12-01",
        topic="remote",
        ask="8 weeks remote a year, in writing.",
        outcome="pending",
    )

    plan, drafts = _plan(client, meta)
    remote = next(a for a in plan.asks if a.component == REMOTE)
    # Tuesday 1 Dec + 4 working days (Wed 2, Thu 3, Fri 4, Mon 7) = Monday 7 Dec, but Meta's
    # deadline is Monday 7 Dec (today + 6 days): at the latest the working day before it, Fri 4.
    assert remote.status == "waiting" and str(remote.state.follow_up_on) == "2026-12-04"
    assert "remotely 8 weeks" not in drafts[0].text


def _exclusions(user, offer) -> tuple[str, ...]:
    board = board_cache.board_get(user=user)
    return next(r.exclusion_reasons for r in board.ranking if r.key == str(offer.pk))


def _google(demo_user):
    return Offer.objects.get(owner=demo_user, name__startswith="Google")


def _log_remote_counter(client, google, capture, **remote):
    url = reverse("offers:negotiation_log", args=[google.pk])
    _post(
        client,
        url,
        url,
        capture,
        asked_on="2026-11-30",
        topic="remote",
        ask="8 weeks remote a year from Taipei, in writing.",
        outcome="countered",
        answered_on="2026-12-01",
        answer="We can do remote from Taipei.",
        **remote,
    )


def test_a_remote_counter_is_logged_with_its_terms_and_changes_the_option(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    """Google's 4 weeks break the 8-week floor; 12 weeks a year from Taipei, in writing, meet it."""
    google = _google(demo_user)
    assert any("remote" in r for r in _exclusions(demo_user, google))  # 4 weeks: below the 8
    _log_remote_counter(
        client,
        google,
        django_capture_on_commit_callbacks,
        revised_remote_weeks="12",
        remote_from="Taipei",
        remote_in_writing="on",
    )
    google.refresh_from_db()
    assert google.remote_weeks_per_year == 12
    entry = NegotiationEntry.objects.get(offer=google, topic="remote")
    assert entry.remote_words() == "12 weeks a year, from Taipei, in writing"
    log = client.get(reverse("offers:negotiation_log", args=[google.pk])).content.decode()
    assert "12 weeks a year, from Taipei, in writing" in log
    with translation.override("zh-hant"):
        assert entry.remote_words() == "每年 12 週、自Taipei、有書面承諾"
    assert not any("remote" in r for r in _exclusions(demo_user, google))  # the board follows
    plan, drafts = _plan(client, google)
    assert all(a.component != REMOTE for a in plan.asks)
    assert "remotely 8 weeks" not in drafts[0].text


def test_remote_weeks_for_fewer_years_than_the_horizon_leave_the_option_but_answer_the_ask(
    meta, client, demo_user, django_capture_on_commit_callbacks
):
    """Three months from Taipei in year 1 only: the 4-year floor of 8 weeks a year is not met."""
    google = _google(demo_user)
    _log_remote_counter(
        client,
        google,
        django_capture_on_commit_callbacks,
        revised_remote_weeks="13",
        remote_from="Taipei",
        remote_years="1",
    )
    google.refresh_from_db()
    assert google.remote_weeks_per_year == 4  # the option's policy after year 1 is unchanged
    entry = NegotiationEntry.objects.get(offer=google, topic="remote")
    assert entry.remote_words() == "13 weeks a year, from Taipei, for 1 year, not in writing"
    plan, drafts = _plan(client, google)
    assert "remotely 8 weeks" not in drafts[0].text  # the counter is read as an answer


def test_remote_weeks_cannot_come_with_an_ask_still_waiting(meta, client, demo_user):
    google = _google(demo_user)
    url = reverse("offers:negotiation_log", args=[google.pk])
    data = {
        **form_values(client.get(url).content, action=url, page=url),
        "asked_on": "2026-11-30",
        "topic": "remote",
        "ask": "8 weeks remote a year.",
        "outcome": "pending",
        "revised_remote_weeks": "60",
    }
    response = client.post(url, data)
    assert response.status_code == 400
    assert not NegotiationEntry.objects.filter(offer=google, topic="remote").exists()
