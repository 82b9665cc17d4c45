"""Liveness and readiness: `/healthz` reports the database and the broker."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
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


@login_not_required
@transaction.non_atomic_requests
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Return the status of the database and the broker; 503 when either is down."""
    status = {"database": database_status(), "broker": broker_status()}
    healthy = status["database"] == "ok" and status["broker"] != "error"
    status["status"] = "ok" if healthy else "unavailable"
    response = JsonResponse(status, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response
