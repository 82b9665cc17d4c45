"""Every editing form, posted exactly as its page rendered it after another edit, is refused.

A service-level test of the version check let a lost update through once: the offer form never
rendered `package_version` and the view fell back to the current version. These tests read the
form from the page (tests/rendered_forms.py), make another edit, post the stale form through
the test client and expect a refusal (409) with the other edit kept.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from compensation.models import Package
from interviews.models import Process, Round
from offers.models import NegotiationEntry, Offer, Scenario
from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    ProcessFactory,
    RoundFactory,
    ScenarioFactory,
)
from tests.rendered_forms import form_values

pytestmark = pytest.mark.django_db


@pytest.fixture
def offer(alice):
    PreferencesFactory(owner=alice)
    offer = OfferFactory(owner=alice, package__base=Decimal("200000"))
    EquityGrantFactory(package=offer.package)
    return Offer.objects.get(pk=offer.pk)


def page_form(client, url: str, action: str | None = None) -> dict[str, str]:
    response = client.get(url)
    assert response.status_code == 200
    return form_values(response.content, action=action or url, page=url)


def test_offer_form_opened_before_a_package_edit_is_refused(client_alice, offer):
    edit = reverse("offers:offer_edit", args=[offer.pk])
    stale = page_form(client_alice, edit)
    assert stale["package_version"] == str(offer.package.version)

    package_url = reverse("compensation:package_edit", args=[offer.package_id])
    newer = page_form(client_alice, package_url)
    newer["base"] = "999999"
    assert client_alice.post(package_url, newer).status_code == 302

    stale["base"] = "123456"
    response = client_alice.post(edit, stale)
    assert response.status_code == 409
    assert Package.objects.get(pk=offer.package_id).base == Decimal("999999")


def test_offer_form_posted_without_its_package_version_is_refused(client_alice, offer):
    edit = reverse("offers:offer_edit", args=[offer.pk])
    data = page_form(client_alice, edit)
    del data["package_version"]
    data["base"] = "123456"
    response = client_alice.post(edit, data)
    assert response.status_code == 400
    assert Package.objects.get(pk=offer.package_id).base == Decimal("200000")


def test_package_form_opened_before_an_offer_edit_is_refused(client_alice, offer):
    package_url = reverse("compensation:package_edit", args=[offer.package_id])
    stale = page_form(client_alice, package_url)

    edit = reverse("offers:offer_edit", args=[offer.pk])
    newer = page_form(client_alice, edit)
    newer["base"] = "999999"
    assert client_alice.post(edit, newer).status_code == 302

    stale["base"] = "123456"
    response = client_alice.post(package_url, stale)
    assert response.status_code == 409
    assert Package.objects.get(pk=offer.package_id).base == Decimal("999999")


def test_grant_edit_opened_before_another_grant_edit_is_refused(client_alice, offer):
    package_url = reverse("compensation:package_edit", args=[offer.package_id])
    stale = page_form(client_alice, package_url)
    newer = dict(stale)
    newer["grants-0-value"] = "700000"
    assert client_alice.post(package_url, newer).status_code == 302

    stale["grants-0-value"] = "100"
    response = client_alice.post(package_url, stale)
    assert response.status_code == 409
    assert offer.package.grants.get().value == Decimal("700000")


def test_scenario_form_opened_before_another_save_is_refused(client_alice, offer, alice):
    scenario = ScenarioFactory(owner=alice, offer=offer)
    url = reverse("offers:scenario_update", args=[scenario.pk])
    stale = page_form(client_alice, reverse("offers:scenario_detail", args=[scenario.pk]), url)
    newer = dict(stale, base="250000")
    assert client_alice.post(url, newer).status_code == 302

    stale["base"] = "150000"
    response = client_alice.post(url, stale)
    assert response.status_code == 409
    assert Scenario.objects.get(pk=scenario.pk).base == Decimal("250000")


def test_scenario_accept_opened_before_a_scenario_save_is_refused(client_alice, offer, alice):
    scenario = ScenarioFactory(owner=alice, offer=offer)
    detail = reverse("offers:scenario_detail", args=[scenario.pk])
    accept = reverse("offers:scenario_accept", args=[scenario.pk])
    stale = page_form(client_alice, detail, accept)
    update = reverse("offers:scenario_update", args=[scenario.pk])
    newer = dict(page_form(client_alice, detail, update), extra_stock_yearly="90000")
    assert client_alice.post(update, newer).status_code == 302

    response = client_alice.post(accept, stale)
    assert response.status_code == 409
    assert offer.package.grants.count() == 1  # nothing accepted


def test_negotiation_answer_opened_before_an_offer_edit_is_refused(client_alice, offer, alice):
    entry = NegotiationEntry.objects.create(
        owner=alice,
        offer=offer,
        asked_on=dt.date(2026, 11, 20),
        channel="recruiter",
        topic="base",
        ask="Base 220,000?",
    )
    url = reverse("offers:negotiation_entry_answer", args=[entry.pk])
    stale = page_form(client_alice, url, url)

    edit = reverse("offers:offer_edit", args=[offer.pk])
    newer = page_form(client_alice, edit)
    newer["base"] = "999999"
    assert client_alice.post(edit, newer).status_code == 302

    stale.update(outcome="countered", revised_base="210000")
    response = client_alice.post(url, stale)
    assert response.status_code == 409
    assert Package.objects.get(pk=offer.package_id).base == Decimal("999999")
    assert NegotiationEntry.objects.get(pk=entry.pk).outcome == NegotiationEntry.Outcome.PENDING


def test_process_edit_opened_before_another_edit_is_refused(client_alice, alice):
    process = ProcessFactory(owner=alice, team="Ranking")
    url = reverse("interviews:process_edit", args=[process.pk])
    stale = page_form(client_alice, url)
    assert client_alice.post(url, dict(stale, team="Ads")).status_code == 302

    response = client_alice.post(url, dict(stale, team="Search"))
    assert response.status_code == 409
    assert Process.objects.get(pk=process.pk).team == "Ads"


def test_round_edit_opened_before_another_edit_is_refused(client_alice, alice):
    round_ = RoundFactory(owner=alice, interviewer_name="Ana")
    url = reverse("interviews:round_edit", args=[round_.pk])
    stale = page_form(client_alice, url)
    assert client_alice.post(url, dict(stale, interviewer_name="Bo")).status_code == 302

    response = client_alice.post(url, dict(stale, interviewer_name="Cy"))
    assert response.status_code == 409
    assert Round.objects.get(pk=round_.pk).interviewer_name == "Bo"
