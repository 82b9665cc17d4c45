"""Without a broker the scenario Monte Carlo runs on a thread: the request that starts it
answers at once, and the page polls its progress until it is done."""

from __future__ import annotations

import threading
import time
from decimal import Decimal

import pytest
from django.db import OperationalError
from django.urls import reverse

from offers.models import Scenario
from offers.scenarios import montecarlo
from tests.factories import EquityGrantFactory, OfferFactory, PreferencesFactory, ScenarioFactory

PATHS = 8_000
CHUNK = 2_000  # four chunks: four steps of progress


# A thread writing to the database while the test polls it: alone, in the serial pass (under
# xdist on a loaded machine SQLite's lock made it flaky).
@pytest.mark.serial
@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_start_answers_before_the_simulation_ends(
    client_alice, alice, settings, monkeypatch
):
    settings.EAGER_TASKS_IN_BACKGROUND = True
    PreferencesFactory(owner=alice)
    mine = OfferFactory(owner=alice, name="Acme")
    EquityGrantFactory(package=mine.package)
    EquityGrantFactory(package=OfferFactory(owner=alice, name="Bigco").package)
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("30000"))

    go = threading.Event()
    started: list[str] = []
    real = montecarlo.mc_compute

    def held(scenario, input_hash, *, progress, **kw):
        started.append(threading.current_thread().name)
        go.wait(timeout=20)  # the simulation is held until the test has seen the answer
        return real(scenario, input_hash, progress=progress)

    monkeypatch.setattr("offers.scenarios.montecarlo.MC_PATHS", PATHS)
    monkeypatch.setattr("offers.scenarios.montecarlo.MC_CHUNK", CHUNK)
    monkeypatch.setattr("offers.scenarios.montecarlo.mc_compute", held)
    response = client_alice.post(
        reverse("offers:scenario_mc_start", args=[scenario.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    scenario.refresh_from_db()
    # Answered while the simulation waits: still to finish, and the partial polls.
    assert scenario.mc_status in (Scenario.McStatus.QUEUED, Scenario.McStatus.RUNNING)
    assert 'hx-trigger="every 1s"' in response.content.decode()
    go.set()
    status_url = reverse("offers:scenario_mc_status", args=[scenario.pk])
    # Wait for the background thread without reading the database meanwhile: a test read
    # beside its writes met SQLite's table lock ("database table is locked") on a loaded CI.
    deadline = time.monotonic() + 20
    while not started and time.monotonic() < deadline:
        time.sleep(0.05)
    worker = next((t for t in threading.enumerate() if started and t.name == started[0]), None)
    if worker is not None:  # None: it has ended already
        worker.join(timeout=60)
    scenario.refresh_from_db()
    assert scenario.mc_status == Scenario.McStatus.DONE, scenario.mc_error
    assert scenario.mc_progress == 100
    assert scenario.mc_result["paths"] == PATHS
    assert started and started[0] != threading.current_thread().name  # not in the request
    page = client_alice.get(status_url, HTTP_HX_REQUEST="true").content.decode()
    assert "every 1s" not in page  # done: the page stops polling


# SQLite's lock met by the thread's write (as on a loaded CI): the task's retry runs on the same
# thread after its countdown and the simulation ends, instead of the scenario staying queued.
@pytest.mark.serial
@pytest.mark.django_db(transaction=True)
def test_a_retry_the_task_asks_for_runs_again_on_its_thread(
    client_alice, alice, settings, monkeypatch
):
    settings.EAGER_TASKS_IN_BACKGROUND = True
    PreferencesFactory(owner=alice)
    mine = OfferFactory(owner=alice, name="Acme")
    EquityGrantFactory(package=mine.package)
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("30000"))
    calls: list[str] = []
    real = montecarlo.mc_compute

    def locked_once(scenario, input_hash, *, progress, **kw):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            raise OperationalError("database table is locked")
        return real(scenario, input_hash, progress=progress)

    monkeypatch.setattr("offers.scenarios.montecarlo.MC_PATHS", PATHS)
    monkeypatch.setattr("offers.scenarios.montecarlo.MC_CHUNK", CHUNK)
    monkeypatch.setattr("offers.scenarios.montecarlo.mc_compute", locked_once)
    client_alice.post(
        reverse("offers:scenario_mc_start", args=[scenario.pk]), HTTP_HX_REQUEST="true"
    )
    deadline = time.monotonic() + 20
    while not calls and time.monotonic() < deadline:
        time.sleep(0.05)
    worker = next((t for t in threading.enumerate() if calls and t.name == calls[0]), None)
    if worker is not None:
        worker.join(timeout=60)
    scenario.refresh_from_db()
    assert len(calls) == 2 and calls[0] == calls[1] != threading.current_thread().name
    assert scenario.mc_status == Scenario.McStatus.DONE, scenario.mc_error
    assert scenario.mc_result["paths"] == PATHS
