"""The level check reads the offered level from the offer (issue 35): Google L6 -> L5."""

from __future__ import annotations

import pytest
from django.urls import reverse

from interviews.models import Process
from interviews.selectors import analytics_input
from offers.models import Offer
from tests.factories import CompanyFactory, LevelFactory, PreferencesFactory
from tests.interviews.factories import ProcessFactory
from tests.rendered_forms import post_as_rendered

pytestmark = pytest.mark.django_db


@pytest.fixture
def google(alice):
    PreferencesFactory(owner=alice)
    company = CompanyFactory(owner=alice, name="Google")
    l5 = LevelFactory(company=company, code="L5", order=3, equivalence=5)
    l6 = LevelFactory(company=company, code="L6", order=4, equivalence=6)
    process = ProcessFactory(owner=alice, company=company, stage="team_match", target_level=l6)
    return company, l5, process


def _post_offer(client, company, level, process, *, status: str) -> None:
    url = reverse("offers:offer_create")
    post_as_rendered(
        client,
        url,
        name="Google L5",
        kind="external",
        status=status,
        company=str(company.pk),
        level=str(level.pk),
        process=str(process.pk),
        base="230,000",
    )


def test_an_offer_at_a_lower_level_shows_as_a_down_level(client_alice, alice, google):
    company, l5, process = google
    _post_offer(client_alice, company, l5, process, status=Offer.Status.RECEIVED)
    assert Process.objects.get(pk=process.pk).offered_level == l5
    processes, _rounds = analytics_input(user=alice)
    (google_process,) = processes
    assert google_process["offered_level"].code == "L5"
    page = client_alice.get(reverse("interviews:analytics")).content.decode()
    assert "<td>L6</td><td>L5</td>" in page
    assert "down 1 level" in page


def test_a_draft_offer_says_nothing_about_the_level(client_alice, google):
    company, l5, process = google
    _post_offer(client_alice, company, l5, process, status=Offer.Status.DRAFT)
    assert Process.objects.get(pk=process.pk).offered_level is None


def test_a_level_of_another_ladder_is_not_recorded(alice, google):
    from interviews.services import process_offered_level_follow

    _company, _l5, process = google
    other = LevelFactory(company=CompanyFactory(owner=alice, name="Meta"), code="E5")
    process_offered_level_follow(user=alice, process=process, level=other)
    assert Process.objects.get(pk=process.pk).offered_level is None
