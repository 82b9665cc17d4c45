"""Turn an unreachable database or broker into a clean 503 instead of a 500.

The cache is not one of them: pages reach it through config.cache, which turns its errors into
misses. A Redis error raised from Django's cache all the same (a call that bypassed
config.cache) is still a 503, but says the cache, not the job queue, is what failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from kombu.exceptions import OperationalError as BrokerOperationalError

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


class ServiceUnavailable(Exception):
    """Raised by a view when a backing service (database, broker) cannot be reached."""


def unavailable_response(request: HttpRequest, what: str) -> HttpResponse:
    """Return the 503 page for a service that is down."""
    try:
        body = render_to_string("503.html", {"what": what})
    except Exception:  # the template layer itself may need the database
        body = f"<h1>Service unavailable</h1><p>{what} is unreachable. Try again shortly.</p>"
    response = HttpResponse(body, status=503)
    response["Retry-After"] = "30"
    response["Cache-Control"] = "no-store"
    return response


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
        logger.warning("database unavailable: %s", type(exc).__name__)
        return unavailable_response(request, "The database")
    if isinstance(exc, BROKER_ERRORS) and raised_by_the_cache(exc):
        logger.warning("cache unavailable outside config.cache: %s", type(exc).__name__)
        return unavailable_response(request, "The cache")
    if isinstance(exc, BROKER_ERRORS):
        # The message may carry the broker URL; log the type only.
        logger.warning("broker unavailable: %s", type(exc).__name__)
        return unavailable_response(request, "The job queue")
    if isinstance(exc, ServiceUnavailable):
        return unavailable_response(request, str(exc) or "A backing service")
    return None


class ServiceUnavailableMiddleware:
    """Answer 503 when the database or the broker is down, so no half-done work is kept."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        except (*DATABASE_ERRORS, *BROKER_ERRORS, ServiceUnavailable) as exc:
            response = response_for(request, exc)
            assert response is not None
            return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return response_for(request, exception)
