"""Accepting a scenario twice, at once or in a row, adds its money once (issue 18)."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection, connections
from django.urls import reverse

from accounts.locking import StaleEditError
from compensation.package_parts import EquityGrant, SignOn
from offers import services
from offers.models import Scenario
from tests.factories import EquityGrantFactory, OfferFactory, ScenarioFactory


def _scenario(user) -> Scenario:
    offer = OfferFactory(owner=user)
    EquityGrantFactory(package=offer.package)
    return ScenarioFactory(
        owner=user,
        offer=offer,
        extra_sign_on=Decimal("25000"),
        extra_stock_yearly=Decimal("10000"),
    )


@pytest.mark.django_db(transaction=True)
def test_scenario_accept_twice_at_once_creates_one_sign_on(alice):
    if connection.vendor == "sqlite":
        pytest.skip("needs a database with real concurrent connections (PostgreSQL pass)")
    for _trial in range(3):
        scenario = _scenario(alice)
        package = scenario.offer.package
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def accept(scenario=scenario, barrier=barrier, errors=errors) -> None:
            try:
                stale = Scenario.objects.get(pk=scenario.pk)  # read before the other commits
                barrier.wait(timeout=10)
                services.scenario_accept(user=alice, scenario=stale)
            except BaseException as exc:
                errors.append(exc)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=accept) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not errors, errors
        assert SignOn.objects.filter(package=package, amount=Decimal("25000")).count() == 1
        assert (
            EquityGrant.objects.filter(package=package, label__startswith="Negotiated").count() == 1
        )


@pytest.mark.django_db(transaction=True)
def test_scenario_accept_twice_at_once_with_the_page_version_refuses_one(alice):
    if connection.vendor == "sqlite":
        pytest.skip("needs a database with real concurrent connections (PostgreSQL pass)")
    scenario = _scenario(alice)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def accept() -> None:
        try:
            barrier.wait(timeout=10)
            services.scenario_accept(user=alice, scenario=scenario, expected_version=1)
            outcomes.append("accepted")
        except StaleEditError:
            outcomes.append("stale")
        except BaseException as exc:
            outcomes.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=accept) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == ["accepted", "stale"]
    assert SignOn.objects.filter(package=scenario.offer.package).count() == 1


@pytest.mark.django_db
def test_scenario_accept_with_a_stale_object_adds_the_money_once(alice):
    scenario = _scenario(alice)
    stale = Scenario.objects.get(pk=scenario.pk)
    services.scenario_accept(user=alice, scenario=scenario)
    services.scenario_accept(user=alice, scenario=stale)  # read before the first accept
    assert SignOn.objects.filter(package=scenario.offer.package).count() == 1


@pytest.mark.django_db
def test_scenario_accept_page_posted_twice_is_refused_the_second_time(client_alice, alice):
    scenario = _scenario(alice)
    page = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk]))
    assert f'name="version" value="{scenario.version}"' in page.content.decode()
    url = reverse("offers:scenario_accept", args=[scenario.pk])
    first = client_alice.post(url, {"version": str(scenario.version)})
    assert first.status_code == 302
    assert first["Location"] == reverse("offers:offer_detail", args=[scenario.offer_id])
    second = client_alice.post(url, {"version": str(scenario.version)}, follow=True)
    assert "changed since you opened it" in second.content.decode()
    assert SignOn.objects.filter(package=scenario.offer.package).count() == 1
