"""The negotiation log: asks, answers, revised offers as new versions, ownership, bad input."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.history import history_for, revision_restore, trash_list
from accounts.locking import StaleEditError
from accounts.models import Revision
from compensation.models import Package
from compensation.package_parts import EquityGrant, SignOn
from offers import services
from offers.board_cache import board_get
from offers.models import NegotiationEntry, Offer
from offers.services_negotiation import (
    negotiation_entry_answer,
    negotiation_entry_create,
    negotiation_entry_delete,
)
from offers.templatetags.offerdesk import basis_words
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    LevelFactory,
    OfferFactory,
    PreferencesFactory,
    SignOnFactory,
)

pytestmark = pytest.mark.django_db

ASK = {
    "asked_on": dt.date(2026, 11, 20),
    "channel": "recruiter",
    "contact": "Chris",
    "topic": "level",
    "ask": "Re-level to E6 with the debrief as evidence.",
}


@pytest.fixture
def offer(alice):
    PreferencesFactory(owner=alice)
    company = CompanyFactory(owner=alice, name="Meta")
    offer = OfferFactory(owner=alice, company=company, package__company=company)
    EquityGrantFactory(package=offer.package, value=Decimal("600000"), grant_price=Decimal("100"))
    SignOnFactory(package=offer.package, amount=Decimal("50000"))
    return Offer.objects.get(pk=offer.pk)


def headline(user, offer) -> Decimal:
    ev = board_get(user=user).evaluation(str(offer.pk))
    return Decimal(str(round(ev.value, 2)))


def counts() -> tuple[int, ...]:
    return (
        NegotiationEntry.objects.count(),
        Revision.objects.count(),
        EquityGrant.objects.count(),
        SignOn.objects.count(),
        *Package.objects.order_by("pk").values_list("version", flat=True),
        *Offer.objects.order_by("pk").values_list("version", flat=True),
    )


# A revised offer becomes a new version -----------------------------------------------------


def test_refused_with_more_stock_makes_a_new_version_of_the_offer(alice, offer):
    before = headline(alice, offer)
    entry = negotiation_entry_create(
        user=alice,
        offer=offer,
        data={
            **ASK,
            "outcome": "refused",
            "answered_on": dt.date(2026, 11, 25),
            "answer": "E5, but stock raised to the E6 band with VP approval.",
            "revised_stock": Decimal("720000"),
        },
    )
    offer.refresh_from_db()
    # The package now holds the revised grant; the sign-on is untouched.
    grant = offer.package.grants.get()
    assert grant.value == Decimal("720000.00")
    assert offer.package.sign_ons.get().amount == Decimal("50000")
    # The offer is a new version; its history shows the terms before and after.
    assert (entry.offer_version_before, entry.offer_version_after) == (1, offer.version)
    assert offer.version == 2
    assert offer.status == Offer.Status.NEGOTIATING
    old = entry.revision_before.snapshot
    new = entry.revision_after.snapshot
    assert {r["fields"]["value"] for r in old if r["model"] == "compensation.equitygrant"} == {
        "600000.00"
    }
    assert {r["fields"]["value"] for r in new if r["model"] == "compensation.equitygrant"} == {
        "720000.00"
    }
    assert {entry.revision_before, entry.revision_after} <= set(history_for(user=alice, obj=offer))
    # The value before and after are the board's headline before and after (not recomputed).
    after = headline(alice, offer)
    assert entry.value_before == before
    assert entry.value_after == after
    assert after > before
    assert entry.value_change == after - before
    assert entry.value_currency == "USD"
    assert entry.value_basis == board_get(user=alice).basis.key
    assert entry.terms_currency == "USD"


def test_restoring_the_earlier_version_brings_the_old_terms_back(alice, offer):
    entry = negotiation_entry_create(
        user=alice,
        offer=offer,
        data={
            **ASK,
            "outcome": "countered",
            "answered_on": dt.date(2026, 11, 21),
            "revised_base": Decimal("230000"),
            "revised_sign_on": Decimal("80000"),
        },
    )
    offer.refresh_from_db()
    assert offer.package.base == Decimal("230000")
    assert offer.package.sign_ons.get().amount == Decimal("80000")
    revision_restore(user=alice, revision=entry.revision_before)
    offer.refresh_from_db()
    assert offer.package.base == Decimal("200000")
    assert offer.package.sign_ons.get().amount == Decimal("50000")
    # The log keeps what happened: rolling the terms back does not erase the ask.
    assert NegotiationEntry.objects.filter(pk=entry.pk).exists()


def test_a_revised_level_moves_the_offer_and_its_package(alice, offer):
    e5 = LevelFactory(company=offer.company, code="E5", order=5)
    e6 = LevelFactory(company=offer.company, code="E6", order=6)
    Package.objects.filter(pk=offer.package.pk).update(level=e5)
    offer.refresh_from_db()
    negotiation_entry_create(
        user=alice,
        offer=offer,
        data={**ASK, "outcome": "accepted", "revised_level": e6},
    )
    offer.refresh_from_db()
    assert offer.level == e6
    assert offer.package.level == e6


def test_an_answer_without_revised_terms_leaves_the_offer_alone(alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    assert entry.outcome == "pending"
    assert entry.value_before == headline(alice, offer)
    assert entry.value_after is None
    negotiation_entry_answer(
        user=alice,
        entry=entry,
        data={"outcome": "refused", "answer": "No."},
        expected_version=entry.version,
    )
    entry.refresh_from_db()
    offer.refresh_from_db()
    assert entry.outcome == "refused"
    assert entry.answered_on is not None
    assert offer.version == 1
    assert entry.offer_version_before is None


def test_answering_twice_is_refused(alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    negotiation_entry_answer(
        user=alice, entry=entry, data={"outcome": "refused"}, expected_version=1
    )
    with pytest.raises(StaleEditError):
        negotiation_entry_answer(
            user=alice, entry=entry, data={"outcome": "accepted"}, expected_version=1
        )
    with pytest.raises(ValidationError, match="has its answer already"):
        negotiation_entry_answer(
            user=alice, entry=entry, data={"outcome": "accepted"}, expected_version=2
        )


def test_a_stale_package_version_writes_nothing(alice, offer):
    before = counts()
    with pytest.raises(StaleEditError):
        negotiation_entry_create(
            user=alice,
            offer=offer,
            data={**ASK, "outcome": "accepted", "revised_base": Decimal("250000")},
            expected_offer_version=1,
            expected_package_version=offer.package.version - 1 or 99,
        )
    assert counts() == before


def test_a_revised_grant_is_stated_in_its_own_currency_and_needs_no_rate(alice):
    """The grant is priced in USD, the pay in TWD, with no rate between them: the revised
    grant is the grant's own USD amount, so nothing is converted (it was refused before)."""
    PreferencesFactory(owner=alice)
    offer = OfferFactory(owner=alice, package__currency="TWD")
    EquityGrantFactory(package=offer.package, price_currency="USD")
    entry = negotiation_entry_create(
        user=alice,
        offer=offer,
        data={**ASK, "outcome": "accepted", "revised_stock": Decimal("500000")},
    )
    assert entry.stock_currency == "USD"
    grant = offer.package.grants.get()
    assert (grant.value, grant.price_currency) == (Decimal("500000"), "USD")


def test_a_level_of_another_company_is_refused(alice, offer):
    other = LevelFactory(company=CompanyFactory(owner=alice))
    before = counts()
    with pytest.raises(ValidationError, match="Choose a level of"):
        negotiation_entry_create(
            user=alice, offer=offer, data={**ASK, "outcome": "accepted", "revised_level": other}
        )
    assert counts() == before


def test_another_users_offer_or_entry_is_refused(alice, bob, offer):
    with pytest.raises(PermissionError):
        negotiation_entry_create(user=bob, offer=offer, data=ASK)
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    with pytest.raises(PermissionError):
        negotiation_entry_answer(
            user=bob, entry=entry, data={"outcome": "refused"}, expected_version=1
        )
    with pytest.raises(PermissionError):
        negotiation_entry_delete(user=bob, entry=entry)


# Trash and history ---------------------------------------------------------------------------


def test_a_deleted_entry_goes_to_the_trash_and_comes_back(alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    revision = negotiation_entry_delete(user=alice, entry=entry)
    assert not NegotiationEntry.objects.exists()
    assert revision in list(trash_list(user=alice))
    revision_restore(user=alice, revision=revision)
    assert NegotiationEntry.objects.get().ask == ASK["ask"]


def test_a_deleted_offer_comes_back_with_its_log(alice, offer):
    negotiation_entry_create(user=alice, offer=offer, data=ASK)
    pk = offer.pk
    services.offer_delete(user=alice, offer=offer)
    assert not NegotiationEntry.objects.exists()
    revision = trash_list(user=alice).get()
    revision_restore(user=alice, revision=revision)
    assert NegotiationEntry.objects.get(offer_id=pk).ask == ASK["ask"]


# Views ------------------------------------------------------------------------------------


def form_data(offer, **extra):
    return {
        "asked_on": "2026-11-20",
        "channel": "recruiter",
        "contact": "Chris",
        "topic": "stock",
        "ask": "More stock, at the E6 band.",
        "outcome": "pending",
        "offer_version": offer.version,
        "package_version": offer.package.version,
        **extra,
    }


def test_log_an_ask_through_the_page(client_alice, offer):
    url = reverse("offers:negotiation_log", args=[offer.pk])
    response = client_alice.post(url, form_data(offer))
    assert response.status_code == 302
    entry = NegotiationEntry.objects.get()
    assert entry.topic == "stock"
    page = client_alice.get(url)
    assert page.status_code == 200
    assert "More stock, at the E6 band." in page.content.decode()


def test_log_an_ask_with_htmx_returns_the_log(client_alice, offer):
    url = reverse("offers:negotiation_log", args=[offer.pk])
    response = client_alice.post(url, form_data(offer), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="negotiation-log"' in body
    assert "<html" not in body
    assert "More stock, at the E6 band." in body


def test_answer_with_revised_terms_through_the_page(client_alice, alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    url = reverse("offers:negotiation_entry_answer", args=[entry.pk])
    assert client_alice.get(url).status_code == 200
    response = client_alice.post(
        url,
        {
            "outcome": "countered",
            "answered_on": "2026-11-24",
            "answer": "Stock at the E6 band bottom.",
            "revised_stock": "720000",
            "version": 1,
            "offer_version": 1,
            "package_version": offer.package.version,
        },
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.offer_version_after == 2
    log = client_alice.get(reverse("offers:negotiation_log", args=[offer.pk])).content.decode()
    assert "data-revised-terms" in log
    change = entry.value_after - entry.value_before
    assert f"(+{entry.value_currency} {change:,.0f})" in log  # every amount says its currency
    assert basis_words(entry.value_basis) in log and "v1;" not in log


def test_an_answer_on_a_stale_offer_is_409_and_writes_nothing(client_alice, alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    url = reverse("offers:negotiation_entry_answer", args=[entry.pk])
    stale = offer.package.version
    services.offer_update(
        user=alice,
        offer=offer,
        fields={"notes": "edited in another tab"},
        package_fields={},
        expected_version=offer.version,
        expected_package_version=offer.package.version,
    )
    before = counts()
    response = client_alice.post(
        url,
        {
            "outcome": "accepted",
            "answered_on": "2026-11-24",
            "revised_base": "250000",
            "version": 1,
            "offer_version": 1,
            "package_version": stale,
        },
    )
    assert response.status_code == 409
    assert counts() == before
    assert NegotiationEntry.objects.get().outcome == "pending"


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"outcome": "countered", "revised_base": "-5"}, "revised_base", "Must be at least 0."),
        ({"outcome": "maybe"}, "outcome", "Select a valid choice"),
        ({"revised_stock": "100"}, "outcome", "Revised terms come with an answer"),
        (
            {"outcome": "refused", "answered_on": "2026-11-01"},
            "answered_on",
            "cannot come before the ask",
        ),
        ({"ask": ""}, "ask", "required"),
    ],
)
def test_bad_input_is_refused_with_a_message(client_alice, offer, extra, field, message):
    before = counts()
    response = client_alice.post(
        reverse("offers:negotiation_log", args=[offer.pk]), form_data(offer, **extra)
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert message in " ".join(errors.get(field, [])), errors
    assert counts() == before


def test_unknown_outcome_in_an_answer_is_refused(client_alice, alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    response = client_alice.post(
        reverse("offers:negotiation_entry_answer", args=[entry.pk]),
        {"outcome": "pending", "version": 1, "offer_version": 1, "package_version": 1},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in " ".join(response.context["form"].errors["outcome"])
    assert NegotiationEntry.objects.get().outcome == "pending"


def test_another_users_log_and_entries_are_404(client, alice, bob, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    client.force_login(bob)
    before = counts()
    for url in (
        reverse("offers:negotiation_log", args=[offer.pk]),
        reverse("offers:negotiation_entry_answer", args=[entry.pk]),
        reverse("offers:negotiation_entry_delete", args=[entry.pk]),
    ):
        assert client.get(url).status_code == 404, url
        assert client.post(url, {"outcome": "accepted", "version": 1}).status_code == 404, url
    assert counts() == before


def test_delete_through_the_page(client_alice, alice, offer):
    entry = negotiation_entry_create(user=alice, offer=offer, data=ASK)
    url = reverse("offers:negotiation_entry_delete", args=[entry.pk])
    assert client_alice.get(url).status_code == 200
    assert client_alice.post(url).status_code == 302
    assert not NegotiationEntry.objects.exists()


def test_the_negotiation_page_includes_the_log(client_alice, offer):
    body = client_alice.get(reverse("offers:negotiation", args=[offer.pk])).content.decode()
    assert reverse("offers:negotiation_log", args=[offer.pk]) in body
    assert reverse("offers:timeline") in body


# Query counts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 5])
def test_log_page_queries(client_alice, alice, offer, n, django_assert_num_queries):
    for i in range(n):
        negotiation_entry_create(
            user=alice,
            offer=Offer.objects.get(pk=offer.pk),
            data={**ASK, "outcome": "accepted", "revised_base": Decimal(200000 + i)},
        )
    url = reverse("offers:negotiation_log", args=[offer.pk])
    assert client_alice.get(url).status_code == 200
    # session, user, savepoint and release; the option (one query and three prefetches),
    # the entries with their levels, the levels of the form's "revised level"
    with django_assert_num_queries(4 + 4 + 1 + 1):
        assert client_alice.get(url).status_code == 200


def test_an_accepted_extension_moves_the_deadline_in_a_new_version(alice, offer):
    Offer.objects.filter(pk=offer.pk).update(deadline=dt.date(2026, 12, 5))
    offer.refresh_from_db()
    entry = negotiation_entry_create(
        user=alice,
        offer=offer,
        data={
            **ASK,
            "topic": "deadline",
            "ask": "Until a week after my last onsite",
            "outcome": "accepted",
            "revised_deadline": dt.date(2026, 12, 19),
        },
    )
    offer.refresh_from_db()
    assert offer.deadline == dt.date(2026, 12, 19)
    assert (entry.offer_version_before, entry.offer_version_after) == (1, 2)
    old = entry.revision_before.snapshot[0]["fields"]["deadline"]
    assert old == "2026-12-05"
    assert entry.value_after == entry.value_before  # the money did not move
    assert ("decision deadline", None, "", "19 Dec 2026") in entry.revised_terms


def test_a_new_deadline_before_the_ask_is_refused(alice, offer):
    before = counts()
    with pytest.raises(ValidationError) as info:
        negotiation_entry_create(
            user=alice,
            offer=offer,
            data={**ASK, "outcome": "accepted", "revised_deadline": dt.date(2026, 11, 1)},
        )
    assert "revised_deadline" in info.value.message_dict
    assert counts() == before
