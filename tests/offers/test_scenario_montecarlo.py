"""The scenario Monte Carlo task: progress, one stored result per input hash, cancel."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest
from django.urls import reverse

from offers import services
from offers.models import Scenario
from offers.scenarios.montecarlo import MC_CHUNK, MC_PATHS, mc_compute, mc_input_hash
from offers.tasks import scenario_monte_carlo_task
from tests.factories import EquityGrantFactory, OfferFactory, PreferencesFactory, ScenarioFactory


def _scenario(user) -> Scenario:
    PreferencesFactory(owner=user)
    mine = OfferFactory(owner=user, name="Acme")
    EquityGrantFactory(package=mine.package)
    other = OfferFactory(owner=user, name="Bigco")
    EquityGrantFactory(package=other.package)
    return ScenarioFactory(owner=user, offer=mine, extra_stock_yearly=Decimal("30000"))


def _check_result(scenario: Scenario) -> None:
    result = scenario.mc_result
    assert result["paths"] == MC_PATHS
    assert result["chunks"] == MC_PATHS // MC_CHUNK
    assert result["input_hash"] == scenario.mc_input_hash
    # Its figures are simulated: the basis says so instead of naming the board's one price.
    assert "simulated share-price path" in result["basis_label"]
    assert "assumed" not in result["basis_label"]
    mine = next(o for o in result["options"] if o["is_scenario"])
    other = next(o for o in result["options"] if not o["is_scenario"])
    for kind in ("yearly", "cumulative"):
        p10, p50, p90 = (mine[kind][p] for p in ("p10", "p50", "p90"))
        assert len(p50) == 4
        assert all(a <= b <= c for a, b, c in zip(p10, p50, p90, strict=True))
    assert mine["cumulative"]["p50"] == sorted(mine["cumulative"]["p50"])
    assert 0.0 <= other["prob_scenario_beats"] <= 1.0
    # 30k more stock a year on the same package: the scenario wins on nearly every path.
    assert other["prob_scenario_beats"] > 0.9
    # Each figure comes with its standard error: the probability's is sqrt(p (1 - p) / n).
    p = other["prob_scenario_beats"]
    assert other["prob_se"] == pytest.approx((p * (1 - p) / result["paths"]) ** 0.5, abs=1e-4)
    for option in (mine, other):
        ses = option["cumulative_se"]
        assert set(ses) == {"p10", "p50", "p90"} and all(v > 0 for v in ses.values())
        # Far smaller than the spread between P10 and P90 over 200,000 paths.
        spread = option["cumulative"]["p90"][-1] - option["cumulative"]["p10"][-1]
        assert max(ses.values()) < spread / 50


@pytest.mark.django_db
def test_eager_run_stores_one_result_even_when_enqueued_twice(
    client_alice, alice, django_capture_on_commit_callbacks
):
    scenario = _scenario(alice)
    url = reverse("offers:scenario_mc_start", args=[scenario.pk])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client_alice.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert len(callbacks) == 1
    scenario.refresh_from_db()
    assert scenario.mc_status == Scenario.McStatus.DONE
    assert scenario.mc_progress == 100
    assert scenario.mc_runs == 1
    _check_result(scenario)
    first = scenario.mc_result
    # The same inputs again: the task finds nothing to claim; the start button queues nothing.
    assert scenario_monte_carlo_task.delay(scenario.pk, scenario.mc_input_hash).get() == "skipped"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        client_alice.post(url)
    assert callbacks == []
    scenario.refresh_from_db()
    assert scenario.mc_runs == 1
    assert scenario.mc_result == first
    status = client_alice.get(reverse("offers:scenario_mc_status", args=[scenario.pk]))
    assert 'data-chart="fig-scenario-mc"' in status.content.decode()
    page = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk]))
    assert 'data-chart="fig-scenario-mc"' in page.content.decode()
    # Every simulated figure of the table shows its standard error: 3 percentiles an option
    # and the probability for each other option.
    options = scenario.mc_result["options"]
    assert page.content.decode().count("data-se") == 3 * len(options) + len(options) - 1
    assert "200,000 share-price paths" in page.content.decode()


@pytest.mark.django_db
def test_progress_bar_and_cancel(client_alice, alice):
    scenario = _scenario(alice)
    input_hash = mc_input_hash(scenario)
    Scenario.objects.filter(pk=scenario.pk).update(
        mc_status=Scenario.McStatus.RUNNING, mc_progress=40, mc_input_hash=input_hash
    )
    status = client_alice.get(reverse("offers:scenario_mc_status", args=[scenario.pk]))
    html = status.content.decode()
    assert 'hx-trigger="every 1s"' in html
    assert '<div class="progress"' in html and 'style="width: 40%"' in html
    response = client_alice.post(reverse("offers:scenario_mc_cancel", args=[scenario.pk]))
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.mc_status == Scenario.McStatus.CANCELLED
    # A task still holding the run stops at its next chunk and stores nothing.
    assert not services.scenario_mc_progress(
        scenario_id=scenario.pk, input_hash=input_hash, progress=50
    )
    assert not services.scenario_mc_store(scenario_id=scenario.pk, input_hash=input_hash, result={})
    scenario.refresh_from_db()
    assert scenario.mc_runs == 0 and scenario.mc_result is None


@pytest.mark.django_db
def test_compute_stops_between_chunks_when_told(alice):
    scenario = _scenario(alice)
    calls = []

    def progress(pct: int) -> bool:
        calls.append(pct)
        return len(calls) < 3

    assert mc_compute(scenario, "ab" * 32, progress=progress) is None
    assert calls == [10, 20, 30]


@pytest.mark.django_db
def test_editing_the_scenario_invalidates_the_result(alice, django_capture_on_commit_callbacks):
    scenario = _scenario(alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.scenario_mc_start(user=alice, scenario=scenario)
    scenario.refresh_from_db()
    old_hash = scenario.mc_input_hash
    services.scenario_update(
        user=alice,
        scenario=scenario,
        data={"extra_stock_yearly": Decimal("1000")},
        expected_version=None,
        record=False,
    )
    scenario.refresh_from_db()
    assert scenario.mc_status == Scenario.McStatus.NONE and scenario.mc_result is None
    assert mc_input_hash(scenario) != old_hash


@pytest.mark.broker
def test_real_worker_reports_progress_and_stores_once(celery_worker_process, django_user_model):
    from config.celery import app

    assert not app.conf.task_always_eager
    user = django_user_model.objects.create_user("mc-worker", password="x" * 14)
    scenario = _scenario(user)  # committed: transactional_db, so the worker sees it
    input_hash = mc_input_hash(scenario)
    Scenario.objects.filter(pk=scenario.pk).update(
        mc_status=Scenario.McStatus.QUEUED, mc_input_hash=input_hash
    )
    scenario_monte_carlo_task.delay(scenario.pk, input_hash)
    scenario_monte_carlo_task.delay(scenario.pk, input_hash)
    seen: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        scenario.refresh_from_db()
        seen.add(scenario.mc_progress)
        if scenario.mc_status in (Scenario.McStatus.DONE, Scenario.McStatus.FAILED):
            break
        time.sleep(0.1)
    assert scenario.mc_status == Scenario.McStatus.DONE, scenario.mc_error
    assert any(0 < p < 100 for p in seen), seen
    time.sleep(2)  # let the second delivery run: it must find nothing to claim
    scenario.refresh_from_db()
    assert scenario.mc_runs == 1
    _check_result(scenario)


@pytest.mark.django_db
def test_redelivered_task_reclaims_its_own_dead_attempt_only(alice):
    """A message redelivered after a worker died (same task id) takes over its 'running' row."""
    from offers import services
    from offers.models import Scenario
    from tests.factories import ScenarioFactory

    scenario = ScenarioFactory(owner=alice)
    Scenario.objects.filter(pk=scenario.pk).update(
        mc_status="running", mc_input_hash="h", mc_task_id="task-1"
    )
    assert not services.scenario_mc_claim(scenario_id=scenario.pk, input_hash="h", task_id="other")
    assert not services.scenario_mc_claim(scenario_id=scenario.pk, input_hash="h")
    assert services.scenario_mc_claim(scenario_id=scenario.pk, input_hash="h", task_id="task-1")
    assert not services.scenario_mc_claim(
        scenario_id=scenario.pk, input_hash="other", task_id="task-1"
    )
