"""The prep brief of an upcoming round, on the demo's next round (TikTok's design round)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from interviews import demo, prep, selectors
from interviews.models import Round
from tests.interviews.factories import ProcessFactory, QuestionFactory, RoundFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def next_round(alice_taipei, reference):
    demo.seed_user(alice_taipei, {"companies": reference})
    return selectors.upcoming_rounds(user=alice_taipei).first()


def test_the_demos_next_round_is_tiktoks_design_round_with_a_kernels_ci_interviewer(next_round):
    assert next_round.process.company.name == "TikTok"
    assert next_round.kind == Round.Kind.SYSTEM_DESIGN
    assert "CI for numerical kernels" in next_round.interviewer_background


def test_likely_topics_follow_the_round_kind_then_the_background():
    topics = prep.likely_topics(
        background="Runs the CI for numerical kernels (CUDA, HPC).",
        team="Global Recommendation",
        kind=Round.Kind.SYSTEM_DESIGN,
    )
    tags = [t.tag for t in topics]
    assert tags[:2] == ["system design", "capacity"]  # the kind's topics first
    # then those two rules suggest: benchmarking (numerical code and CI), performance
    # (numerical code and CUDA)
    assert set(tags[2:4]) == {"benchmarking", "performance"}
    for expected in ("numerical kernels", "ci", "testing", "gpu", "benchmarking", "ranking"):
        assert expected in tags
    assert len(tags) == len(set(tags))
    why = {t.tag: t.reasons for t in topics}
    assert any("numerical" in r for r in why["benchmarking"])
    assert any("CI" in r for r in why["benchmarking"])  # two rules, both reasons kept


def test_likely_topics_need_whole_words():
    # "ci" inside "special" or "decision" is not continuous integration.
    topics = prep.likely_topics(background="Special projects, decision science", team="", kind="")
    assert "ci" not in [t.tag for t in topics]
    assert prep.likely_topics(background="", team="", kind=Round.Kind.OTHER) == []


def test_brief_of_the_demos_next_round(next_round, alice_taipei):
    brief = prep.round_brief(user=alice_taipei, round_=next_round)
    assert brief.round.interviewer_name == "Ivan Petrov"
    assert "numerical kernels" in brief.round.interviewer_background
    assert brief.round.process.team == "Global Recommendation"
    assert {"system design", "numerical kernels", "ci", "gpu"} <= {t.tag for t in brief.topics}

    # Past questions with the same tags, from other processes, with how they went.
    by_text = {q.text: q for q in brief.past_questions}
    meta = by_text["Design an ads click aggregation pipeline"]
    assert (meta.company, meta.signal, meta.self_assessment) == ("Meta", "strong_no_hire", 2)
    assert meta.went == "bad" and set(meta.matching) == {"system design", "capacity"}
    google = by_text["Design a feature store serving 1M QPS for ranking"]
    assert (google.company, google.signal, google.went) == ("Google", "hire", "good")
    assert all(set(q.matching) for q in brief.past_questions)  # every one shares a tag
    assert brief.weak_topics == ["system design", "capacity"]

    # Signals so far in this TikTok process: the phone screen's Hire (the recruiter call has none).
    assert [(s.kind, s.signal, s.self_assessment) for s in brief.signals] == [
        ("Phone screen", "hire", 4)
    ]

    # The design round lost at Meta had an interviewer from the same kind of team.
    (similar,) = [r for r in brief.similar_rounds if r.company == "Meta"]
    assert (similar.interviewer, similar.kind, similar.signal) == (
        "Sam O'Neill",
        "System design",
        "strong_no_hire",
    )
    assert any("numerical" in why for why in similar.shared)
    assert any("CI" in why for why in similar.shared)

    keys = [c.key for c in brief.checklist]
    assert keys == ["background", "questions", "practise", "weak", "similar", "time"]
    assert "Meta System design round (Strong No Hire)" in brief.checklist[4].text
    texts = " ".join(c.text for c in brief.checklist)
    assert "Ivan Petrov" in texts and "Asia/Singapore" in texts and "numerical kernels" in texts


def test_brief_page_shows_the_brief_and_is_printable(client, next_round, alice_taipei):
    client.force_login(alice_taipei)
    response = client.get(reverse("interviews:round_brief", args=[next_round.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ivan Petrov" in html and "CI for numerical kernels" in html
    assert "numerical kernels" in html and "benchmarking" in html
    assert "Design an ads click aggregation pipeline" in html and "Strong No Hire" in html
    assert "Signals so far in this process" in html and "Phone screen" in html
    assert "Interviewers like this one before" in html and "Sam O&#x27;Neill" in html
    assert 'data-check="practise"' in html and 'data-check="time"' in html
    assert 'class="small muted no-print"' in html  # navigation left off the printout
    assert "interviews.css" in html  # the brief's print rules


def test_brief_is_linked_from_the_process_page_and_the_calendar(
    client, next_round, alice_taipei, reauth
):
    client.force_login(alice_taipei)
    reauth(client)
    url = reverse("interviews:round_brief", args=[next_round.pk])
    page = client.get(reverse("interviews:process_detail", args=[next_round.process_id]))
    assert url in page.content.decode()
    ics = client.get(reverse("interviews:calendar")).content.decode()
    unfolded = ics.replace("\r\n ", "")
    assert f"URL:http://testserver{url}\r\n" in unfolded
    assert f"Prep brief: http://testserver{url}" in unfolded


def test_another_users_round_brief_is_a_404(client, bob):
    round_ = RoundFactory()
    QuestionFactory(round=round_)
    client.force_login(bob)
    assert client.get(reverse("interviews:round_brief", args=[round_.pk])).status_code == 404


def test_brief_in_traditional_chinese_renders(client, next_round, alice_taipei):
    client.force_login(alice_taipei)
    with translation.override("zh-hant"):
        response = client.get(
            reverse("interviews:round_brief", args=[next_round.pk]),
            headers={"accept-language": "zh-hant"},
        )
    assert response.status_code == 200
    assert "Ivan Petrov" in response.content.decode()


def test_brief_of_a_bare_round_says_what_is_missing(client_alice, alice):
    round_ = RoundFactory(
        owner=alice, process=ProcessFactory(owner=alice, team=""), scheduled_at=None,
        interviewer_name="", interviewer_background="", kind=Round.Kind.OTHER,
    )  # fmt: skip
    response = client_alice.get(reverse("interviews:round_brief", args=[round_.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Their background is not recorded" in html
    assert "Not scheduled yet" in html
    assert "You have not logged a question on these topics yet." in html
    brief = response.context["brief"]
    assert [c.key for c in brief.checklist] == ["background", "questions", "time"]
    assert "ask the recruiter" in brief.checklist[0].text


def test_brief_query_count_does_not_grow_with_the_history(client_alice, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(n: int) -> int:
        process = ProcessFactory(owner=alice)
        target = RoundFactory(
            owner=alice, process=process, kind=Round.Kind.SYSTEM_DESIGN,
            interviewer_background="Runs CI for numerical kernels",
        )  # fmt: skip
        for _ in range(n):
            past = RoundFactory(
                owner=alice, kind=Round.Kind.SYSTEM_DESIGN, signal="hire",
                interviewer_background="HPC kernels team",
            )  # fmt: skip
            QuestionFactory(round=past, tags="system design,capacity")
            RoundFactory(owner=alice, process=process, signal="hire")
        url = reverse("interviews:round_brief", args=[target.pk])
        client_alice.get(url)
        with CaptureQueriesContext(connection) as queries:
            response = client_alice.get(url)
        assert len(response.context["brief"].past_questions) >= n
        return len(queries)

    assert count(1) == count(8)


def test_untagged_questions_are_matched_by_their_words_or_the_round_kind(client, alice):
    # Issue 28: a logged "Design LLM inference... latency vs cost" without tags sat beside
    # "You have not logged a question on these topics yet".
    upcoming = RoundFactory(
        owner=alice,
        kind=Round.Kind.ML_DESIGN,
        interviewer_background="Leads LLM inference serving",
        scheduled_at=timezone.now() + dt.timedelta(days=3),
    )
    before = timezone.now() - dt.timedelta(days=20)
    past_design = RoundFactory(owner=alice, kind=Round.Kind.SYSTEM_DESIGN, scheduled_at=before)
    past_ml = RoundFactory(owner=alice, kind=Round.Kind.ML_DESIGN, scheduled_at=before)
    past_coding = RoundFactory(owner=alice, kind=Round.Kind.CODING, scheduled_at=before)
    QuestionFactory(
        round=past_design, text="Design LLM inference for a chat product: latency vs cost", tags=""
    )
    QuestionFactory(round=past_ml, text="Pick a loss for click prediction", tags="")
    QuestionFactory(round=past_coding, text="Merge k sorted lists", tags="")
    brief = prep.round_brief(user=alice, round_=upcoming)
    by_text = {q.text: q for q in brief.past_questions}
    llm = by_text["Design LLM inference for a chat product: latency vs cost"]
    assert (llm.matched_by, set(llm.matching)) == ("words", {"llm", "inference", "cost"})
    same_kind = by_text["Pick a loss for click prediction"]
    assert (same_kind.matched_by, same_kind.matching) == ("kind", ())
    assert "Merge k sorted lists" not in by_text  # another kind, no topic named
    client.force_login(alice)
    html = client.get(reverse("interviews:round_brief", args=[upcoming.pk])).content.decode()
    assert "You have not logged a question on these topics yet" not in html
    assert "latency vs cost" in html and 'data-matched="words"' in html
    assert "no tags; it mentions llm, inference, cost" in html


def test_every_suggested_topic_has_a_label_in_the_registry():
    suggested = {t for rule in prep.TOPIC_RULES for t in rule.topics}
    suggested |= {t for tags in prep.KIND_TOPICS.values() for t in tags}
    assert sorted(suggested - set(prep.TOPIC_LABELS)) == []


def test_the_brief_names_its_topics_in_the_pages_language(client, next_round, alice_taipei):
    # The demo's next round: a CI-for-numerical-kernels interviewer, a system design round.
    with translation.override("zh-hant"):
        brief = prep.round_brief(user=alice_taipei, round_=next_round)
        labels = [t.label for t in brief.topics]
        checklist = " ".join(c.text for c in brief.checklist)
    assert "數值運算核心" in labels and "系統設計" in labels
    assert "numerical kernels" not in checklist and "數值運算核心" in checklist
    assert "、" in checklist  # the list joined the Chinese way
    # A tag the person typed is their own word, shown as typed.
    assert prep.topic_label("my own tag") == "my own tag"
    client.force_login(alice_taipei)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    html = client.get(reverse("interviews:round_brief", args=[next_round.pk])).content.decode()
    assert (
        "<strong>數值運算核心</strong>" in html and "<strong>numerical kernels</strong>" not in html
    )
    # A topic's reasons are Chinese sentences: joined by a full-width semicolon.
    topics = html.split('id="brief-topics"')[1].split("</section>")[0]
    assert "；" in topics and "; " not in topics


def test_a_recruiter_call_brief_has_recruiter_call_topics_not_technical_ones(client, alice):
    """Issue 35: a recruiter with an infrastructure background got system-design topics."""
    topics = prep.likely_topics(
        background="Technical recruiter for infrastructure and ML platform teams",
        team="Ranking infra",
        kind=Round.Kind.RECRUITER_CALL,
    )
    assert [t.tag for t in topics] == [
        "role and team",
        "level and scope",
        "compensation expectations",
        "timeline",
        "remote and location",
        "your other processes",
    ]
    call = RoundFactory(
        owner=alice,
        kind=Round.Kind.RECRUITER_CALL,
        interviewer_background="Technical recruiter for infrastructure",
        timezone="Asia/Taipei",
        scheduled_at=timezone.now() + dt.timedelta(days=2),
    )
    client.force_login(alice)
    html = client.get(reverse("interviews:round_brief", args=[call.pk])).content.decode()
    assert "system design" not in html and "capacity" not in html
    assert "level and scope" in html


def test_the_time_check_names_a_zone_once_when_it_is_your_own(alice):
    call = RoundFactory(
        owner=alice, timezone="Asia/Taipei", scheduled_at=timezone.now() + dt.timedelta(days=2)
    )
    with timezone.override("Asia/Taipei"):
        (same,) = [
            c.text for c in prep.round_brief(user=alice, round_=call).checklist if c.key == "time"
        ]
    with timezone.override("America/Los_Angeles"):
        (other,) = [
            c.text for c in prep.round_brief(user=alice, round_=call).checklist if c.key == "time"
        ]
    assert same == "Check the time in Asia/Taipei, your own zone too, and the link or address."
    assert other == "Check the time in Asia/Taipei and in your own zone, and the link or address."
