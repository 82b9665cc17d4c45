"""Issue 35 item 10, read on the pages: the level check, the conversion rates, a recruiter call's brief."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from django.urls import reverse

from compensation.models import Level
from interviews import services
from interviews.models import Round, Stage
from offers.models import Offer
from tests.factories import CompanyFactory
from tests.rendered_forms import post_as_rendered

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_client(client, demo_user):
    client.force_login(demo_user)
    return client


def _level_row(page: str, company: str) -> str:
    """Return the level check's row of a company's process, tags stripped."""
    table = page.split("<h2>Level check</h2>")[1].split("</section>")[0]
    (row,) = [r for r in table.split("<tr>") if f"<td>{company} —" in r]
    return " ".join(re.sub(r"<[^>]+>", " ", row).split())


# 1. The level check reads the offered level from the offer --------------------------------


def test_the_demos_google_loop_is_a_down_level_from_l6_to_l5(demo_client):
    page = demo_client.get(reverse("interviews:analytics")).content.decode()
    assert _level_row(page, "Google").startswith(
        "Google — Staff ML Engineer, Search Ranking L6 L5 down 1 level"
    )


def test_an_answer_that_re_levels_the_offer_reaches_the_level_check(demo_client):
    """Google answers the level ask with L6: the offer's package is L6, so the loop is as targeted."""
    google = Offer.objects.get(owner__username="demo", name__startswith="Google")
    l6 = Level.objects.get(company=google.package.company, code="L6")
    url = reverse("offers:negotiation_log", args=[google.pk])
    post_as_rendered(
        demo_client,
        url,
        asked_on="2026-11-30",
        contact="Jamie Park",
        topic="level",
        ask="Re-level to L6: the packet was strong.",
        outcome="accepted",
        answered_on="2026-12-01",
        revised_level=str(l6.pk),
    )
    google.package.refresh_from_db()
    assert google.package.level == l6
    page = demo_client.get(reverse("interviews:analytics")).content.decode()
    assert _level_row(page, "Google").startswith(
        "Google — Staff ML Engineer, Search Ranking L6 L6 as targeted"
    )


# 2. Conversion rates count only processes that ended -------------------------------------


def _loop(user, company, stages: list[str]) -> None:
    """A process with the history given: applied on 5 Jan 2026, then a stage a week."""
    start = dt.date(2026, 1, 5)
    process = services.process_create(user=user, company=company, role="ML", first_contact=start)
    for week, stage in enumerate(stages, start=1):
        services.process_move_stage(
            user=user, process=process, stage=stage, on=start + dt.timedelta(weeks=week)
        )


def _kpi(page: str, label: str) -> str:
    """Return a conversion card's figure and count ("67% 2 of 3")."""
    card = page.split(f'<div class="kpi-label">{label}</div>')[1].split('<div class="card">')[0]
    return " ".join(re.sub(r"<[^>]+>", " ", card).split())


def test_conversion_rates_count_the_processes_that_ended_never_those_still_open(
    client_alice, alice
):
    company = CompanyFactory(owner=alice, name="Acme")
    screen, onsite = Stage.RECRUITER_SCREEN, Stage.ONSITE
    # Ended after the onsite: two offers (one accepted, one declined) and one rejection.
    _loop(alice, company, [screen, onsite, Stage.OFFER, Stage.ACCEPTED])
    _loop(alice, company, [screen, onsite, Stage.OFFER, Stage.DECLINED])
    _loop(alice, company, [screen, onsite, Stage.REJECTED])
    # Ended after the screen: withdrawn.
    _loop(alice, company, [screen, Stage.WITHDRAWN])
    url = reverse("interviews:analytics")
    before = client_alice.get(url).content.decode()
    # Onsite -> offer: 2 offers of the 3 that ended after an onsite = 67 %.
    assert _kpi(before, "Onsite → offer") == "67% 2 of 3"
    # Recruiter screen -> onsite: 3 of the 4 screened went on (one withdrew) = 75 %.
    assert _kpi(before, "Recruiter screen → onsite") == "75% 3 of 4"

    # Two still open: one waiting after its onsite, one after its screen. Neither has failed.
    _loop(alice, company, [screen, onsite])
    _loop(alice, company, [screen])
    after = client_alice.get(url).content.decode()
    assert _kpi(after, "Onsite → offer") == "67% 2 of 3"
    # The one open after its onsite went on from the screen: 4 of 5 = 80 %; the one open
    # after its screen is left out.
    assert _kpi(after, "Recruiter screen → onsite") == "80% 4 of 5"


# 3. A recruiter call's prep brief ----------------------------------------------------------


def _section(page: str, section: str) -> str:
    body = page.split(f'id="{section}">')[1].split("</section>")[0]
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


def _brief(client, company: str, kind: str) -> str:
    round_ = Round.objects.get(
        owner__username="demo", process__company__name=company, kind=kind, order=1
    )
    return client.get(reverse("interviews:round_brief", args=[round_.pk])).content.decode()


def test_a_recruiter_call_brief_is_about_the_job_not_system_design(demo_client):
    """Google's recruiter call: Jamie Park is a recruiter of an infrastructure org."""
    page = _brief(demo_client, "Google", Round.Kind.RECRUITER_CALL)
    section = page.split('id="brief-topics">')[1].split("</section>")[0]
    topics = re.findall(r"<li><strong>(.*?)</strong>", section)
    assert topics == [
        "role and team",
        "level and scope",
        "compensation expectations",
        "timeline",
        "remote and location",
        "your other processes",
    ]
    # No interviewer "like this one" from a design round, and nothing of design to prepare
    # (the process's later rounds and their signals are still listed, as they went).
    assert 'id="brief-similar"' not in page
    prepare = _section(page, "brief-topics") + _section(page, "brief-checklist")
    for technical in ("design", "capacity", "failure modes", "infrastructure"):
        assert technical not in prepare.lower(), technical


def test_a_recruiter_calls_checklist_readies_your_answers_and_questions_on_the_job(demo_client):
    """A recruiter is not interviewed on their own work: you answer and ask about the role."""
    page = _brief(demo_client, "Google", Round.Kind.RECRUITER_CALL)
    checklist = html.unescape(_section(page, "brief-checklist"))
    assert "Have your answers ready: the level you are after, a start date" in checklist
    assert "never their figures" in checklist and "only once the level is set" in checklist
    assert "about the role: the team, the level's scope, the steps to an offer" in checklist
    assert "their own work" not in checklist and "Practise the likely topics" not in checklist
    # An interview keeps its own: who runs it and two questions on their work.
    design = _section(_brief_of(demo_client, "Google", Round.Kind.SYSTEM_DESIGN), "brief-checklist")
    assert "about their own work" in design and "Practise the likely topics" in design


def _brief_of(client, company: str, kind: str) -> str:
    round_ = Round.objects.filter(
        owner__username="demo", process__company__name=company, kind=kind
    ).first()
    return client.get(reverse("interviews:round_brief", args=[round_.pk])).content.decode()


def test_a_recruiter_call_in_your_own_zone_names_the_zone_once(demo_client):
    """The call is at 09:00 in Asia/Taipei, the demo's home zone."""
    page = _brief(demo_client, "Google", Round.Kind.RECRUITER_CALL)
    assert (
        _section(page, "brief-when")
        == "When Sun 4 Oct 2026 09:00 (your time, 30 min) Virtual · English"
    )
    assert page.count("Asia/Taipei") == 1
    assert "Check the time in Asia/Taipei, your own zone too, and the link or address." in page


def test_a_call_in_another_zone_gives_its_time_there_too(demo_client):
    """TikTok's recruiter call is at 11:00 in Singapore: the same hour in Taipei (UTC+8 both)."""
    when = _section(_brief(demo_client, "TikTok", Round.Kind.RECRUITER_CALL), "brief-when")
    assert when == (
        "When Thu 5 Nov 2026 11:00 (your time, 30 min) Thu 5 Nov 2026 11:00 Asia/Singapore "
        "Virtual · English"
    )


def test_a_recruiter_is_no_interviewer_like_a_design_rounds(demo_client, demo_user):
    """Google's design interviewer works on ranking infra; its recruiter is of an infra org."""
    design = Round.objects.get(
        owner=demo_user, process__company__name="Google", kind=Round.Kind.SYSTEM_DESIGN
    )
    page = demo_client.get(reverse("interviews:round_brief", args=[design.pk])).content.decode()
    similar = _section(page, "brief-similar")
    assert "Meta · System design" in similar
    assert "Recruiter call" not in similar and "Jamie Park" not in similar
