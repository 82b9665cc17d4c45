"""Share prices under geometric Brownian motion, and the seeded random stream of each ticker.

The lowest layer of the simulation: the window's paths (`window.window_paths`) and the
correlated futures (`futures.correlated_prices`) both draw their prices here.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

import numpy as np

from .errors import EngineInputError

DT = 1.0 / 12.0


def stream(rng: np.random.Generator, key: object) -> np.random.Generator:
    """Return the random stream of one ticker or option: derived from ``rng``'s seed and ``key``.

    The stream is a child of the generator's SeedSequence with a spawn key made from a hash of
    ``repr(key)``, so the same seed and key give the same numbers whatever else is simulated
    beside them (and whatever has been drawn from ``rng`` before). A generator without a
    seed sequence gives up 128 bits of its own stream as the entropy instead.
    """
    _check_rng(rng)
    seq = getattr(rng.bit_generator, "seed_seq", None)
    if not isinstance(seq, np.random.SeedSequence):
        seq = np.random.SeedSequence([int(v) for v in rng.integers(0, 2**63, size=2)])
    digest = hashlib.sha256(repr(key).encode("utf-8")).digest()
    child = np.random.SeedSequence(
        entropy=seq.entropy,
        spawn_key=(*seq.spawn_key, int.from_bytes(digest[:8], "little")),
        pool_size=seq.pool_size,
    )
    return np.random.Generator(type(rng.bit_generator)(child))


def simulate_price_paths(
    s0: float, mu: float, sigma: float, months: int, paths: int, rng: np.random.Generator
) -> np.ndarray:
    """Return one stock's GBM month-end prices shaped (paths, months); path i uses draws i."""
    return _gbm(rng.standard_normal((paths, months)), s0, mu, sigma)


def _gbm(z: np.ndarray, s0: Any, mu: Any, sigma: Any) -> np.ndarray:
    """Return GBM month-end prices from standard-normal monthly shocks ``z`` (paths, months,
    ...), in place; ``s0``, ``mu`` and ``sigma`` (annual) broadcast over the trailing axes."""
    z *= sigma * math.sqrt(DT)
    z += (mu - 0.5 * sigma**2) * DT
    np.cumsum(z, axis=1, out=z)
    np.exp(z, out=z)
    z *= s0
    return z


def median_path(prices: np.ndarray) -> np.ndarray:
    """Return the median of many simulated (..., months) price paths, month by month."""
    return np.asarray(np.median(prices.reshape(-1, prices.shape[-1]), axis=0))


def _check_rng(rng: object) -> None:
    if not isinstance(rng, np.random.Generator):
        raise EngineInputError("rng", "must be a numpy Generator from np.random.default_rng")
