"""Liveness and readiness: `/healthz` reports the database, the broker and a worker."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


def database_status() -> str:
    """Return "ok" if a trivial query succeeds, else "error"."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        return "error"
    return "ok"


def broker_status() -> str:
    """Return "eager" without a broker, "ok" if the broker answers, else "error"."""
    if not settings.CELERY_BROKER_URL:
        return "eager"
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception:
        return "error"
    return "ok"


WORKER_CACHE_KEY = "healthz:worker"


def worker_status() -> str:
    """Return "eager" without a broker, "ok" if a worker answers a ping, else "no answer".

    The ping waits HEALTH_WORKER_TIMEOUT seconds; its answer is kept HEALTH_WORKER_CACHE
    seconds, so a load balancer polling /healthz does not ping the workers each time.
    """
    if not settings.CELERY_BROKER_URL:
        return "eager"
    cached = cache.get(WORKER_CACHE_KEY)
    if cached is not None:
        return str(cached)
    from config.celery import app

    try:
        replies = app.control.ping(timeout=settings.HEALTH_WORKER_TIMEOUT)
    except Exception:
        replies = []
    status = "ok" if replies else "no answer"
    cache.set(WORKER_CACHE_KEY, status, settings.HEALTH_WORKER_CACHE)
    return status


@login_not_required
@transaction.non_atomic_requests
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Return the status of the database, the broker and a worker; 503 when the first two fail.

    A worker that does not answer is reported, not a 503: pages still work (tasks wait in
    the queue), and a web server must not be restarted because the workers are down.
    """
    status = {"database": database_status(), "broker": broker_status()}
    status["worker"] = worker_status() if status["broker"] != "error" else "unknown"
    healthy = status["database"] == "ok" and status["broker"] != "error"
    status["status"] = "ok" if healthy else "unavailable"
    response = JsonResponse(status, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response
