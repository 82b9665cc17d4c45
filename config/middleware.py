"""Turn an unreachable database or broker into a clean 503 instead of a 500.

The cache is not one of them: pages reach it through config.cache, which turns its errors into
misses. A Redis error raised from Django's cache all the same (a call that bypassed
config.cache) is still a 503, but says the cache, not the job queue, is what failed.

Django turns an exception raised in a middleware into a 500 at that middleware's own layer, so
no middleware above it ever sees it. ServiceUnavailableMiddleware therefore sits right after
AuthenticationMiddleware and is the first to touch the session and the user: with the database
down, a signed-in user's request is a 503 there, before SessionTimeoutMiddleware or any other
reads them. A view's errors reach it through `process_exception`. Each answer logs one warning
a minute at most (per kind and process), never a traceback a request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from kombu.exceptions import OperationalError as BrokerOperationalError

from config.health import health_response, unavailable

try:  # the Redis client is only there when the broker is Redis
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
except ImportError:  # pragma: no cover
    RedisConnectionError = RedisTimeoutError = BrokerOperationalError  # type: ignore[misc]

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
BROKER_ERRORS = (BrokerOperationalError, RedisConnectionError, RedisTimeoutError)
# The errors a publish raises when the broker is unreachable: the broker errors above, and a
# refused socket (OSError) that a publish can also raise.
PUBLISH_ERRORS: tuple[type[BaseException], ...] = (*BROKER_ERRORS, OSError)


class Middleware:
    """A middleware's start: the rest of the chain, ``get_response``, is what it calls on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response


class ServiceUnavailable(Exception):
    """Raised by a view when a backing service (database, broker) cannot be reached."""


WARN_EVERY_SECONDS = 60.0


class _WarnedAt:
    """When each kind of outage was last logged in this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at: dict[str, float] = {}

    def due(self, what: str) -> bool:
        """Return True (and note the time) if ``what`` was not logged in the last minute."""
        now = time.monotonic()
        with self.lock:
            if now - self.at.get(what, -WARN_EVERY_SECONDS) < WARN_EVERY_SECONDS:
                return False
            self.at[what] = now
            return True

    def reset(self) -> None:
        with self.lock:
            self.at.clear()


WARNED_AT = _WarnedAt()


def _warn(what: str, exc: BaseException) -> None:
    """Log that ``what`` is unavailable, once a minute at most (the type only: no URL)."""
    if WARNED_AT.due(what):
        logger.warning("%s unavailable: %s", what, type(exc).__name__)


def unavailable_response(request: HttpRequest, what: str) -> HttpResponse:
    """Return the 503 page for a service that is down."""
    try:
        body = render_to_string("503.html", {"what": what})
    except Exception:  # the template layer itself may need the database
        body = f"<h1>Service unavailable</h1><p>{what} is unreachable. Try again shortly.</p>"
    return unavailable(HttpResponse(body, status=503))


def database_down_response(request: HttpRequest) -> HttpResponse:
    """Return the 503 for a database that is down: /healthz's JSON body there, else the page."""
    if request.path_info == reverse("healthz"):
        return health_response()
    return unavailable_response(request, "The database")


def raised_by_the_cache(exc: BaseException) -> bool:
    """Return True if the error was raised inside Django's cache backends."""
    tb = exc.__traceback__
    while tb is not None:
        if str(tb.tb_frame.f_globals.get("__name__", "")).startswith("django.core.cache."):
            return True
        tb = tb.tb_next
    return False


def response_for(request: HttpRequest, exc: BaseException) -> HttpResponse | None:
    """Return the 503 for an unreachable backing service, or None for any other error."""
    if isinstance(exc, DATABASE_ERRORS):
        _warn("database", exc)
        return database_down_response(request)
    if isinstance(exc, BROKER_ERRORS) and raised_by_the_cache(exc):
        _warn("cache (outside config.cache)", exc)
        return unavailable_response(request, "The cache")
    if isinstance(exc, BROKER_ERRORS):
        # The message may carry the broker URL; _warn logs the type only.
        _warn("broker", exc)
        return unavailable_response(request, "The job queue")
    if isinstance(exc, ServiceUnavailable):
        return unavailable_response(request, str(exc) or "A backing service")
    return None


class ServiceUnavailableMiddleware(Middleware):
    """Answer 503 when the database or the broker is down, so no half-done work is kept.

    Placed right after AuthenticationMiddleware: it loads the session and the user first.
    """

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            # Evaluates the lazy user: the session's row, then the user's.
            request.user.is_authenticated  # noqa: B018
        except DATABASE_ERRORS as exc:
            response = response_for(request, exc)
            assert response is not None
            return response
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return response_for(request, exception)


class HealthCheckMiddleware(Middleware):
    """Let ``/healthz`` answer a probe by address (127.0.0.1), whatever its Host header.

    A load balancer or a container probe asks by address, not by the site's name: such a
    request met ALLOWED_HOSTS (a 400, and an ERROR with a traceback in the log). For this one
    path an unknown Host is read as the site's first allowed name, so the probe gets the health
    answer through every middleware as any page does (its security headers, the 503 with
    Retry-After while the database is down); the HTTPS redirect exempts it already
    (SECURE_REDIRECT_EXEMPT). The answer holds the parts' states alone.
    """

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/healthz":
            from django.conf import settings
            from django.http.request import validate_host

            host = request.META.get("HTTP_HOST", "").rsplit(":", 1)[0]
            allowed = [h for h in settings.ALLOWED_HOSTS if h != "*"]
            if allowed and not validate_host(host, settings.ALLOWED_HOSTS):
                request.META["HTTP_HOST"] = allowed[0].lstrip(".")
        return self.get_response(request)
