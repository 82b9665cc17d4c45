"""No lost updates: stale edits are refused, concurrent read-modify-writes all land."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from accounts.locking import StaleEditError, save_if_unchanged
from offers.models import Offer
from tests.factories import OfferFactory


def _form_post(client: Client, offer: Offer, **changes: str) -> dict[str, str]:
    """Return the edit form's current values (as the browser would send them) with changes."""
    response = client.get(reverse("offers:offer_edit", kwargs={"pk": offer.pk}))
    assert response.status_code == 200
    form = response.context["form"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = str(value)
    data.update(changes)
    return data


@pytest.mark.django_db
def test_second_of_two_concurrent_edits_is_refused(alice):
    offer = OfferFactory(owner=alice, notes="original")
    tab1, tab2 = Client(), Client()
    tab1.force_login(alice)
    tab2.force_login(alice)
    first = _form_post(tab1, offer, notes="first edit", name="First")
    second = _form_post(tab2, offer, notes="second edit", name="Second")
    assert first["version"] == second["version"] == str(offer.version)

    url = reverse("offers:offer_edit", kwargs={"pk": offer.pk})
    assert tab1.post(url, first).status_code == 302
    refused = tab2.post(url, second)
    assert refused.status_code == 409
    assert "changed since you opened it" in refused.content.decode()

    offer.refresh_from_db()
    assert offer.notes == "first edit"
    assert offer.name == "First"
    assert offer.version == int(first["version"]) + 1


@pytest.mark.django_db
def test_stale_version_is_refused_by_the_helper(alice):
    offer = OfferFactory(owner=alice)
    version = offer.version
    offer.notes = "a"
    save_if_unchanged(offer, expected_version=version, fields=["notes"])
    offer.notes = "b"
    with pytest.raises(StaleEditError):
        save_if_unchanged(offer, expected_version=version, fields=["notes"])
    offer.refresh_from_db()
    assert offer.notes == "a"


THREADS = 2
UPDATES = 100


def _append_notes(offer_pk: int, tag: str, errors: list[BaseException]) -> None:
    """Append `tag-i` to the offer's notes UPDATES times, retrying on stale versions."""
    try:
        for i in range(UPDATES):
            for _attempt in range(1000):
                offer = Offer.objects.get(pk=offer_pk)
                offer.notes = f"{offer.notes}{tag}-{i};"
                try:
                    save_if_unchanged(offer, expected_version=offer.version, fields=["notes"])
                    break
                except StaleEditError:
                    continue
            else:
                raise AssertionError(f"{tag}-{i} never landed")
    except BaseException as exc:  # reported to the main thread
        errors.append(exc)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_two_threads_lose_no_update(alice):
    if connection.vendor == "sqlite":
        pytest.skip("needs a database with real concurrent connections (PostgreSQL pass)")
    offer = OfferFactory(owner=alice, notes="")
    start_version = offer.version
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=_append_notes, args=(offer.pk, f"t{n}", errors))
        for n in range(THREADS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    offer.refresh_from_db()
    entries = [e for e in offer.notes.split(";") if e]
    expected = {f"t{n}-{i}" for n in range(THREADS) for i in range(UPDATES)}
    assert len(entries) == THREADS * UPDATES
    assert set(entries) == expected
    assert offer.version == start_version + THREADS * UPDATES
    for n in range(THREADS):  # each thread's own updates stay in order
        mine = [int(e.split("-")[1]) for e in entries if e.startswith(f"t{n}-")]
        assert mine == sorted(mine)
