"""Consistent states: a process's stage follows its offer's status and its debrief record."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from interviews import services as interview_services
from interviews.models import Debrief, Process
from offers import services
from offers.models import Offer
from tests.factories import OfferFactory
from tests.interviews.factories import ProcessFactory

pytestmark = pytest.mark.django_db


def _history(process: Process) -> list[str]:
    return list(process.stage_changes.order_by("changed_on", "id").values_list("stage", flat=True))


# Debrief ---------------------------------------------------------------------------------


def test_moving_to_debrief_records_a_pending_debrief_held_that_day(alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    interview_services.process_move_stage(
        user=alice, process=process, stage="debrief", on=dt.date(2026, 2, 1)
    )
    debrief = Debrief.objects.get(process=process)
    assert (debrief.decision, debrief.held_on, debrief.owner) == (
        "pending",
        dt.date(2026, 2, 1),
        alice,
    )
    # Moving on and back does not add a second one.
    interview_services.process_move_stage(user=alice, process=process, stage="team_match")
    interview_services.process_move_stage(user=alice, process=process, stage="debrief")
    assert Debrief.objects.filter(process=process).count() == 1


def test_recording_a_debrief_moves_the_process_to_debrief_once(alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    interview_services.debrief_save(
        user=alice, process=process, data={"decision": "hire", "held_on": dt.date(2026, 2, 3)}
    )
    process.refresh_from_db()
    assert process.stage == "debrief"
    assert process.stage_changes.get(stage="debrief").changed_on == dt.date(2026, 2, 3)
    # A later process is not moved back.
    later = ProcessFactory(owner=alice, stage="offer")
    interview_services.debrief_save(user=alice, process=later, data={"decision": "hire"})
    later.refresh_from_db()
    assert later.stage == "offer" and "debrief" not in _history(later)


def test_the_process_page_agrees_with_its_history(client_alice, alice):
    process = ProcessFactory(owner=alice, stage="onsite")
    interview_services.process_move_stage(user=alice, process=process, stage="debrief")
    html = client_alice.get(
        reverse("interviews:process_detail", args=[process.pk])
    ).content.decode()
    assert "No debrief yet." not in html
    assert "Pending" in html


# Offer status ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "stage_before", "stage_after"),
    [
        (Offer.Status.RECEIVED, "team_match", "offer"),
        (Offer.Status.NEGOTIATING, "offer", "negotiating"),
        (Offer.Status.ACCEPTED, "negotiating", "accepted"),
        (Offer.Status.DECLINED, "offer", "declined"),
        (Offer.Status.RECEIVED, "negotiating", "negotiating"),  # never backwards
        (Offer.Status.RECEIVED, "withdrawn", "withdrawn"),  # an ending stays
        (Offer.Status.DRAFT, "onsite", "onsite"),  # a draft says nothing
        (Offer.Status.EXPIRED, "offer", "offer"),
    ],
)
def test_offer_status_moves_its_process_forward(alice, status, stage_before, stage_after):
    process = ProcessFactory(owner=alice, stage=stage_before)
    offer = OfferFactory(owner=alice, process=process, status=status)
    services.offer_process_follow(user=alice, offer=offer)
    process.refresh_from_db()
    assert process.stage == stage_after
    assert _history(process)[-1] == stage_after


def test_offer_form_with_a_received_offer_moves_the_board(client_alice, alice):
    from tests.offers.test_views_offers import offer_post

    process = ProcessFactory(owner=alice, stage="team_match")
    response = client_alice.post(
        reverse("offers:offer_create"), offer_post(process=process.pk, status="received")
    )
    assert response.status_code == 302
    process.refresh_from_db()
    assert process.stage == "offer"
    board = client_alice.get(reverse("interviews:board")).context["columns"]
    column = {c["stage"]: [p.pk for p in c["processes"]] for c in board}
    assert process.pk in column["offer"] and process.pk not in column["team_match"]


def test_another_users_process_is_not_moved(alice, bob):
    process = ProcessFactory(owner=bob, stage="team_match")
    offer = OfferFactory(owner=alice, status=Offer.Status.RECEIVED)
    offer.process = process  # not saved: the service must refuse it anyway
    services.offer_process_follow(user=alice, offer=offer)
    process.refresh_from_db()
    assert process.stage == "team_match"


# The demo --------------------------------------------------------------------------------


def test_demo_google_sits_in_offer_with_its_debrief_recorded(client):
    call_command("seed_demo", force=True)
    demo = get_user_model().objects.get(username="demo")
    google = Process.objects.get(owner=demo, company__name="Google")
    offer = Offer.objects.get(owner=demo, process=google)
    assert offer.status == "received" and google.stage == "offer"
    assert "debrief" in _history(google)
    assert google.debrief.decision == "hire"
    # Every demo process with an offer in hand sits at or after "offer".
    for o in Offer.objects.filter(owner=demo, process__isnull=False).select_related("process"):
        if o.status in services.OFFER_STATUS_STAGE:
            assert interview_services.stage_reached(
                o.process.stage, services.OFFER_STATUS_STAGE[o.status]
            ), o.name
        if "debrief" in _history(o.process):
            assert Debrief.objects.filter(process=o.process).exists(), o.name
