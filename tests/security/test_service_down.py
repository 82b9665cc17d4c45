"""With the broker (or the database) down, pages answer a clean 503 and leave no job half-done."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.urls import path, reverse
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from config.middleware import ServiceUnavailable

CLOSED_PORT_BROKER = "redis://127.0.0.1:1/0"


@pytest.fixture
def broker_down(monkeypatch):
    """Point this process's Celery app at a closed port, really publishing (not eager)."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setitem(app.conf, "broker_url", CLOSED_PORT_BROKER)
    # Celery's conf prefers the CELERY_BROKER_URL environment variable over the setting.
    monkeypatch.setenv("CELERY_BROKER_URL", CLOSED_PORT_BROKER)
    monkeypatch.setitem(app.conf, "broker_connection_timeout", 1)
    # Forget any pooled connection to the real broker so the closed port is used.
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    return app


def _enqueue_view(request):
    """A view with the recommended enqueue pattern: claim, publish on commit, undo on failure."""
    from accounts.tasks import trash_purge_task
    from offers.models import Scenario

    pk = int(request.POST["pk"])
    Scenario.objects.filter(pk=pk).update(mc_status="queued", mc_input_hash="h")

    def publish() -> None:
        try:
            trash_purge_task.apply_async(retry=False)
        except (BrokerOperationalError, RedisConnectionError) as exc:
            # The claim was committed: give it back so no job is left "queued" forever.
            Scenario.objects.filter(pk=pk, mc_status="queued", mc_input_hash="h").update(
                mc_status="none", mc_input_hash=""
            )
            raise ServiceUnavailable("The job queue") from exc

    transaction.on_commit(publish)
    return HttpResponse("queued")


def _raw_cache_view(request):
    """A view that reads Django's cache directly instead of through config.cache."""
    from django.core.cache import cache

    return HttpResponse(str(cache.get("anything")))


def _raising_view(exc: Exception):
    def view(request):
        raise exc

    return view


urlpatterns = [
    path("enqueue/", _enqueue_view),
    path("kombu-down/", _raising_view(BrokerOperationalError("Error 111 connecting"))),
    path("redis-down/", _raising_view(RedisConnectionError("Connection refused"))),
    path("other-error/", _raising_view(ValueError("a bug"))),
    path("raw-cache/", _raw_cache_view),
]


@pytest.mark.django_db
@pytest.mark.urls("tests.security.test_service_down")
@pytest.mark.parametrize("url", ["/kombu-down/", "/redis-down/"])
def test_broker_errors_are_a_clean_503(client_alice, url):
    response = client_alice.post(url)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert "no-store" in response["Cache-Control"]
    assert b"unreachable" in response.content
    assert b"Traceback" not in response.content


@pytest.mark.django_db
@pytest.mark.urls("tests.security.test_service_down")
def test_a_cache_error_that_escapes_does_not_blame_the_job_queue(client_alice, settings):
    from config.settings import cache_settings

    caches = cache_settings("redis://127.0.0.1:1/0", "offerdesk")
    caches["default"]["OPTIONS"] = {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}
    settings.CACHES = caches
    response = client_alice.get("/raw-cache/")
    assert response.status_code == 503
    assert b"The cache is unreachable" in response.content
    assert b"job queue" not in response.content


@pytest.mark.django_db
@pytest.mark.urls("tests.security.test_service_down")
def test_other_errors_are_still_errors(client_alice):
    with pytest.raises(ValueError):
        client_alice.post("/other-error/")


@pytest.mark.django_db(transaction=True)
@pytest.mark.urls("tests.security.test_service_down")
def test_recommended_enqueue_pattern_leaves_no_queued_job(client_alice, alice, broker_down):
    from offers.models import Scenario
    from tests.factories import ScenarioFactory

    scenario = ScenarioFactory(owner=alice)
    response = client_alice.post("/enqueue/", {"pk": scenario.pk})
    assert response.status_code == 503
    scenario.refresh_from_db()
    assert scenario.mc_status == Scenario.McStatus.NONE


@pytest.mark.django_db(transaction=True)
def test_monte_carlo_start_with_broker_down_is_503_and_leaves_no_queued_job(
    client_alice, alice, broker_down
):
    from offers.models import Scenario
    from tests.factories import FxRateFactory, PreferencesFactory, ScenarioFactory

    FxRateFactory(owner=None, currency="SGD", to_currency="USD", rate="0.74")
    PreferencesFactory(owner=alice)
    scenario = ScenarioFactory(owner=alice)
    response = client_alice.post(reverse("offers:scenario_mc_start", kwargs={"pk": scenario.pk}))
    assert response.status_code == 503, response.status_code
    assert b"unreachable" in response.content
    scenario.refresh_from_db()
    assert scenario.mc_status == Scenario.McStatus.NONE


@pytest.mark.django_db
def test_database_down_is_a_clean_503(client_alice, monkeypatch):
    from django.db import OperationalError

    from offers import views

    def boom(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(views.selectors, "offer_list", boom)
    response = client_alice.get(reverse("offers:offer_list"))
    assert response.status_code == 503
    assert b"unreachable" in response.content
