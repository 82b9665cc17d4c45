"""Django's cache, guarded: an unreachable cache is a miss or a skipped write, never an error.

Pages read and write the cache only through these functions, so a Redis that is down, slow or
refusing writes costs speed (pages are built uncached), never a page. The first error of an
outage is logged once at warning, with the error's type only (its message may hold the URL and
its password); for RETRY_SECONDS after an error the cache is not asked at all, so a cache that
drops packets costs one socket timeout per process every few seconds, not one per call. Its
return is logged at info.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache

try:  # the Redis client is only there when the cache or the broker is Redis
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover
    RedisError = OSError  # type: ignore[assignment, misc]

# Connection refused or reset, timeouts, a full or read-only Redis; not a programming error.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
RETRY_SECONDS = 5.0

logger = logging.getLogger(__name__)


class _Outage:
    """Whether the cache failed lately (per process, shared by its threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down = False
        self.retry_at = 0.0

    def skip(self) -> bool:
        """Return True while the cache is left alone after an error."""
        return self.down and time.monotonic() < self.retry_at

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            first = not self.down
            self.down = True
            self.retry_at = time.monotonic() + RETRY_SECONDS
        if first:
            logger.warning(
                "cache unreachable (%s): pages are built uncached until it answers",
                type(exc).__name__,
            )

    def answered(self) -> None:
        if self.down:
            with self.lock:
                was_down, self.down = self.down, False
            if was_down:
                logger.info("cache reachable again")

    def reset(self) -> None:
        with self.lock:
            self.down = False
            self.retry_at = 0.0


_OUTAGE = _Outage()


def reset() -> None:
    """Forget an outage: the next call asks the cache (a test starts afresh)."""
    _OUTAGE.reset()


def _guarded(call: Callable[[], Any], unreachable: Any) -> Any:
    """Return ``call()``, or ``unreachable`` while the cache cannot be reached (logged once)."""
    if _OUTAGE.skip():
        return unreachable
    try:
        value = call()
    except CACHE_ERRORS as exc:
        _OUTAGE.failed(exc)
        return unreachable
    _OUTAGE.answered()
    return value


def cache_get(key: str) -> Any:
    """Return the cached value, or None on a miss or when the cache is unreachable."""
    return _guarded(lambda: cache.get(key), None)


def cache_get_many(keys: Iterable[str]) -> dict[str, Any] | None:
    """Return the cached values found (a dict), or None when the cache is unreachable."""
    return _guarded(lambda: cache.get_many(keys), None)


def cache_set(key: str, value: Any, *, timeout: float | None) -> bool:
    """Store a value; return False if the cache is unreachable (nothing stored)."""
    return bool(_guarded(lambda: cache.set(key, value, timeout=timeout) or True, False))


def cache_add(key: str, value: Any, *, timeout: float | None) -> bool:
    """Store a value unless the key exists; return True if it was stored."""
    return bool(_guarded(lambda: cache.add(key, value, timeout=timeout), False))


def cache_incr(key: str, *, timeout: float | None) -> int | None:
    """Add one to a counter that starts at 0 and lives `timeout` seconds; None if unreachable."""

    def incr() -> int:
        cache.add(key, 0, timeout=timeout)
        return int(cache.incr(key))

    result = _guarded(incr, None)
    return None if result is None else int(result)
