"""Liveness and readiness: `/healthz` reports the database, the broker, the cache and a worker.

Always JSON, whatever is down: each part is asked on its own and a part that fails is reported,
never raised. The answer is 200 when the parts a page needs are there (the database, with every
migration applied, and the broker unless tasks run eagerly), else 503, so a load balancer only
sends requests to an instance that can serve them. The cache and the workers are reported, never
a 503: without the cache pages are built uncached, without a worker tasks wait in the queue, and
restarting the web server would mend neither. Job pages ask `worker_missing` with the same
ping, so a job no worker picks up says why.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from config.cache import cache_get, cache_set


class _Migrations:
    """Whether every migration on disk is applied (remembered once it is: it stays so)."""

    def __init__(self) -> None:
        self.applied = False

    def all_applied(self) -> bool:
        if not self.applied:
            executor = MigrationExecutor(connection)
            self.applied = not executor.migration_plan(executor.loader.graph.leaf_nodes())
        return self.applied


MIGRATIONS = _Migrations()


def database_status() -> str:
    """Return "ok", "migrations pending" (not every migration applied) or "error" (unreachable)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        if not MIGRATIONS.all_applied():
            return "migrations pending"
    except Exception:
        return "error"
    return "ok"


class _Answer:
    """A part's last answer in this process, and the lock of the one thread that asks for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.status: str | None = None
        self.expires_at = 0.0

    def fresh(self) -> str | None:
        """Return the answer kept, or None once it is older than HEALTH_WORKER_CACHE."""
        return self.status if time.monotonic() < self.expires_at else None

    def keep(self, status: str) -> None:
        self.status = status
        self.expires_at = time.monotonic() + settings.HEALTH_WORKER_CACHE

    def reset(self) -> None:
        self.status, self.expires_at = None, 0.0

    def asked(self, ask: Callable[[], str]) -> str:
        """Return ``ask()``, asked by one thread at a time: the others get the last answer.

        Ten health checks of a broker or cache that hangs held ten server threads for its socket
        timeouts each, and the pages queued behind them; now one waits, the others answer at once.
        """
        if not self.lock.acquire(blocking=False):
            return self.status or "unknown"
        try:
            self.status = ask()
        finally:
            self.lock.release()
        return self.status


BROKER_ANSWER, CACHE_ANSWER, WORKER_ANSWER = _Answer(), _Answer(), _Answer()


def broker_status() -> str:
    """Return "eager" without a broker, "ok" if the broker answers, else "error"."""
    if not settings.CELERY_BROKER_URL:
        return "eager"
    return BROKER_ANSWER.asked(_broker_connect)


def _broker_connect() -> str:
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception:
        return "error"
    return "ok"


CACHE_PROBE_KEY = "healthz:cache"


def cache_status() -> str:
    """Return "local" (each process's own memory), "ok" if the shared cache answers, else "error".

    A cache that failed a moment ago is not asked again before config.cache retries it.
    """
    if isinstance(caches[DEFAULT_CACHE_ALIAS], LocMemCache):
        return "local"
    return CACHE_ANSWER.asked(_cache_probe)


def _cache_probe() -> str:
    if cache_set(CACHE_PROBE_KEY, "ok", timeout=60) and cache_get(CACHE_PROBE_KEY) == "ok":
        return "ok"
    return "error"


WORKER_CACHE_KEY = "healthz:worker"


def worker_ping() -> str:
    """Return "ok" if a worker answers a ping within HEALTH_WORKER_TIMEOUT, else "no answer"."""
    from config.celery import app

    try:
        # limit=1: the first answer is enough, so a healthy ping takes milliseconds, not the
        # whole timeout; a broker that hangs raises after its socket timeout (SERVICE_TIMEOUT).
        replies = app.control.ping(timeout=settings.HEALTH_WORKER_TIMEOUT, limit=1)
    except Exception:
        replies = []
    return "ok" if replies else "no answer"


def worker_status() -> str:
    """Return "eager" without a broker, "ok" if a worker answers a ping, else "no answer".

    The answer is kept HEALTH_WORKER_CACHE seconds, in this process and in the shared cache, so
    a load balancer polling /healthz does not ping the workers each time. One thread of a
    process pings at a time: the others answer at once with the last answer known ("unknown"
    before the first), so requests never queue up behind a ping to a broker that hangs.
    """
    if not settings.CELERY_BROKER_URL:
        return "eager"
    kept = WORKER_ANSWER.fresh()
    if kept is not None:
        return kept
    cached = cache_get(WORKER_CACHE_KEY)
    if cached is not None:
        WORKER_ANSWER.keep(str(cached))
        return str(cached)
    return WORKER_ANSWER.asked(_worker_ping_kept)


def _worker_ping_kept() -> str:
    status = worker_ping()
    WORKER_ANSWER.keep(status)
    cache_set(WORKER_CACHE_KEY, status, timeout=settings.HEALTH_WORKER_CACHE)
    return status


def worker_missing(*, queued_at: datetime | None) -> bool:
    """Return True when a job queued at ``queued_at`` still waits and no worker answers a ping.

    A job queued less than JOB_WORKER_WAIT_SECONDS ago is not asked about (a worker may be on
    its way), so only a late job's page pings, with the answer kept like /healthz's. Eager tasks
    always have a worker: the web process runs them.
    """
    if not settings.CELERY_BROKER_URL or queued_at is None:
        return False
    if timezone.now() - queued_at < timedelta(seconds=settings.JOB_WORKER_WAIT_SECONDS):
        return False
    return worker_status() == "no answer"


RETRY_AFTER = "30"  # seconds


def unavailable(response: HttpResponse) -> HttpResponse:
    """Mark a 503, /healthz's or config.middleware's: Retry-After, no-store, no error line."""
    response["Retry-After"] = RETRY_AFTER
    response["Cache-Control"] = "no-store"
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own mark
    return response


@login_not_required
@transaction.non_atomic_requests
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Return each part's status as JSON; 503 when the database or the broker is not usable."""
    return health_response()


def health_response() -> HttpResponse:
    """Return /healthz's answer (also ServiceUnavailableMiddleware's there, the database down)."""
    status = {
        "database": database_status(),
        "broker": broker_status(),
        "cache": cache_status(),
    }
    status["worker"] = worker_status() if status["broker"] != "error" else "unknown"
    healthy = status["database"] == "ok" and status["broker"] != "error"
    status["status"] = "ok" if healthy else "unavailable"
    response = JsonResponse(status, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response if healthy else unavailable(response)  # Retry-After, no error line a probe
