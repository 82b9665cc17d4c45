"""Settings for the test suite: the development defaults (DEBUG=1 at import, as `make run`).

The variable is set in the environment, not only here, so that the subprocesses tests start
(workers, `manage.py` runs) inherit it. pytest-django still runs each test with DEBUG off.
"""

from __future__ import annotations

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402, F403

# Eager tasks run in the request that queues them, so a test sees their outcome at once (a test
# of the background thread turns it on).
EAGER_TASKS_IN_BACKGROUND = False

# Under pytest-xdist (`make pytest` runs the parallel-safe tests with -n) each worker process
# has its own test database (pytest-django), and here its own Redis cache database, counted on
# from CACHE_URL's (a test empties the cache it starts with: it must not empty another worker's,
# and a key prefix would not keep it out) and MEDIA_ROOT (user ids repeat between the workers'
# databases, and so would their export folders).
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _XDIST_WORKER:
    import urllib.parse

    _index = int(_XDIST_WORKER.removeprefix("gw") or "0")
    _cache = CACHES["default"]  # noqa: F405
    if str(_cache.get("LOCATION", "")).startswith(("redis://", "rediss://")):
        _parts = urllib.parse.urlsplit(str(_cache["LOCATION"]))
        _db = int(_parts.path.strip("/") or "0")
        _cache["LOCATION"] = _parts._replace(path=f"/{(_db + 1 + _index) % 16}").geturl()
    else:
        _cache["LOCATION"] = f"offerdesk-{_XDIST_WORKER}"
    MEDIA_ROOT = MEDIA_ROOT / "test-workers" / _XDIST_WORKER  # noqa: F405
