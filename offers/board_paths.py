"""The board's Monte Carlo: its valued options on seeded share-price paths, simulated once.

Each option's values on the paths depend only on its segments, the stocks its prices follow, the
paths, the seed and the basis (`window_paths`): this process keeps them (`MC_PATHS_KEPT`, in its
memory, not in the shared cache: 2,000 paths of 4 years are 64 KB an option), so that after an
edit only the options it changed are simulated again. The summary goes to the shared cache.
"""

from __future__ import annotations

import hashlib

import numpy as np

from compensation.engine.segments import Segment
from compensation.engine.window import (
    WindowSimulation,
    path_stocks,
    summarise_paths,
    window_paths,
)
from config.cache import cache_get, cache_set
from offers.recent import Recent
from offers.valuation_basis import ValuationBasis

DASHBOARD_MC_PATHS = 2000
DASHBOARD_MC_SEED = 20261130
MC_PATHS_KEPT: Recent[np.ndarray] = Recent(256)


def window_mc(
    options: dict[str, tuple[Segment, ...]], basis: ValuationBasis, paths: int, seed: int
) -> WindowSimulation | None:
    """Return the seeded Monte Carlo of the options (their segments by key) over the window
    (cached)."""
    if not options or paths <= 0:
        return None
    stocks = path_stocks(options)
    keys = {
        k: hashlib.sha256(repr((segments, stocks[k], paths, seed, basis)).encode()).hexdigest()
        for k, segments in options.items()
    }
    key = "wmc:" + hashlib.sha256(repr(sorted(keys.items())).encode()).hexdigest()
    cached = cache_get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    per_option = {k: MC_PATHS_KEPT.get(keys[k]) for k in options}
    missing = [k for k, values in per_option.items() if values is None]
    if missing:
        fresh = window_paths(
            options,
            window_start=basis.start,
            years=basis.years,
            paths=paths,
            rng=np.random.default_rng(seed),
            column=basis.column,
            only=missing,
        )
        for k in missing:
            values = basis.present(fresh[k])  # each year worth today, at the basis's rate
            values.setflags(write=False)  # shared between boards: nobody writes into it
            per_option[k] = values
            MC_PATHS_KEPT.put(keys[k], values)
    result = summarise_paths({k: v for k, v in per_option.items() if v is not None})
    cache_set(key, result, timeout=3600)
    return result
