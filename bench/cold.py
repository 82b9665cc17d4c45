"""A cold worker: every cache this process keeps cleared, as in a worker that has not valued
this user yet (bench_edit's and bench_pages' cold figures).

Cleared: Django's cache where it is the process's own memory (`LocMemCache`, the benchmarks'
default: the boards, their tokens, the Monte Carlo summaries; a shared Redis is left alone, as
a new worker finds it), every `functools` cache of the app's modules (the engine's remembered
segment values and taxes, vesting fractions and tranche dates, month arithmetic, the tax
regimes, the time-zone overlaps, the choice labels...), every `offers.recent.Recent` they keep
(the kept boards of offers/board_cache.py, the kept Monte Carlo paths of offers/board_paths.py),
the module-level dicts used as memos (``DICTS``: the number separators) and the installed
gettext's memo of translations (offers/apps.py). The first two kinds are found by walking the
loaded modules, so a cache added later is cleared too without a line here.
"""

from __future__ import annotations

import sys
from typing import Any

APPS = ("accounts", "compensation", "config", "interviews", "offers")
# Module-level dicts used as memos: (module, name). Nothing else marks them as caches.
DICTS = (("offers.templatetags.offerdesk", "_SEPARATORS"),)


def _app_modules() -> list[Any]:
    return [m for name, m in list(sys.modules.items()) if m and name.split(".")[0] in APPS]


def cold_worker() -> list[str]:
    """Clear every cache this process keeps; return the names of what was cleared."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    cleared = []
    for alias in caches:
        if isinstance(caches[alias], LocMemCache):
            caches[alias].clear()
            cleared.append(f"django cache {alias!r}")
    try:
        from offers.recent import Recent
    except ImportError:  # a revision before it (bench_edit --compare)
        Recent = ()  # type: ignore[assignment,misc]  # noqa: N806
    for module in _app_modules():
        for attr, value in list(vars(module).items()):
            here = getattr(value, "__module__", None) == module.__name__
            if here and callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
                cleared.append(f"{module.__name__}.{attr}")
            elif isinstance(value, Recent):
                value.clear()
                cleared.append(f"{module.__name__}.{attr}")
    for name, attr in DICTS:
        memo = getattr(sys.modules.get(name), attr, None)
        if isinstance(memo, dict):
            memo.clear()
            cleared.append(f"{name}.{attr}")
    cleared += _fresh_translator()
    return cleared


def _fresh_translator() -> list[str]:
    """Install a new remembering gettext (offers/apps.py), its memo empty, as a new process has."""
    try:
        from offers.apps import _remembered_gettext
        from offers.logic import i18n
    except ImportError:
        return []
    i18n.install(_remembered_gettext())
    return ["offers.logic.i18n's remembered gettext"]
