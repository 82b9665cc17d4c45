"""Benchmark the Monte Carlo of packages against a bare numpy GBM kernel of the same size.

The engine side is the CLI's `simulate` (the app's `window.chunked_paths` over one window,
then each year's mean and percentiles). The kernel (the baseline) draws the same paths x
months x options of prices, chunk by chunk as `chunked_paths` does (its own default chunk
size), and keeps each path's year-end prices: at 1,000,000 paths it holds one chunk's months
at a time, not a 2.2 GB array of them. `--million` also times both at 1,000,000 paths in a fresh process, with
their peak memory.

Usage: python bench/bench_montecarlo.py [--paths N] [--repeat N] [--million]
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
from summary import summary_row  # bench/summary.py

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compensation.engine import (  # noqa: E402
    VESTING_PRESETS,
    Grant,
    PackageSpec,
    Refresher,
    SignOn,
    Stock,
)
from compensation.engine.cli import simulate  # noqa: E402
from compensation.engine.window import chunked_paths  # noqa: E402

MONTHS = 48
OPTIONS = 6
PRESETS = (
    "google_33_33_22_12",
    "meta_quarterly",
    "amazon_5_15_40_40",
    "even_4y_cliff_monthly",
    "nvidia_2025_40_30_20_10",
    "bytedance_20_25_25_30",
)


def options() -> list[PackageSpec]:
    """Return six illustrative offers, each on its own stock."""
    specs = []
    for i, preset in enumerate(PRESETS[:OPTIONS]):
        schedule = VESTING_PRESETS[preset]
        specs.append(
            PackageSpec(
                name=f"offer_{i}",
                start=datetime.date(2025, 1, 1),
                horizon_years=MONTHS // 12,
                base=180_000 + 10_000 * i,
                raise_pct=3,
                bonus_target_pct=15,
                sign_on=(SignOn(50_000, 1),),
                grants=(Grant(value=300_000 + 50_000 * i, schedule=schedule),),
                refreshers=(Refresher(60_000, schedule),),
                stock=Stock(
                    price=50 + 20 * i,
                    growth_pct=4 + i,
                    volatility_pct=25 + 5 * i,
                    ticker=f"T{i}",
                ),
            )
        )
    return specs


# The engine's own chunk size (`chunked_paths`' default): the kernel works in chunks of as many.
CHUNK = inspect.signature(chunked_paths).parameters["chunk"].default


def kernel(paths: int, rng: np.random.Generator, chunk: int = CHUNK) -> np.ndarray:
    """Run the bare GBM price simulation chunk by chunk: normals -> cumsum -> exp -> times S0;
    return the year-end prices (paths, years, options) as float32."""
    s0 = np.linspace(50, 150, OPTIONS)
    mu = np.linspace(0.04, 0.09, OPTIONS)
    sigma = np.linspace(0.25, 0.50, OPTIONS)
    dt = 1 / 12
    year_end = np.empty((paths, MONTHS // 12, OPTIONS), dtype=np.float32)
    for start in range(0, paths, chunk):
        n = min(chunk, paths - start)
        z = rng.standard_normal((n, MONTHS, OPTIONS))
        z *= sigma * np.sqrt(dt)
        z += (mu - sigma**2 / 2) * dt
        np.cumsum(z, axis=1, out=z)
        np.exp(z, out=z)
        z *= s0
        year_end[start : start + n] = z[:, 11::12]
    return year_end


TARGET_RATIO = 1.5
T = TypeVar("T")


def best_of(repeat: int, *runs: object) -> list[float]:
    """Return the fastest wall time of each of ``runs`` over ``repeat`` rounds, interleaved.

    Each round runs every function once, in turn, so a burst of load from other processes
    on a shared machine slows both sides of the ratio rather than one of them.
    """
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for i, run in enumerate(runs):
            assert callable(run)
            start = time.perf_counter()
            run()
            times[i].append(time.perf_counter() - start)
    return [min(t) for t in times]


def measured(run: Callable[[], T]) -> tuple[T, float, float]:
    """Return what ``run()`` returns, its wall seconds and its peak traced allocations in MiB."""
    tracemalloc.start()
    start = time.perf_counter()
    value = run()
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return value, elapsed, peak / 2**20


def million_child(paths: int) -> None:
    """Run one large simulation and the kernel of the same size, each with its peak memory
    (run in a fresh process)."""
    result, elapsed, traced_peak = measured(lambda: simulate(options(), paths, seed=0))
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB on Linux
    _, bare, bare_peak = measured(lambda: kernel(paths, np.random.default_rng(0)))
    print(
        f"million: {paths:,} paths x {MONTHS} months x {OPTIONS} options: {elapsed:.2f} s  "
        f"peak RSS: {rss_peak:.0f} MiB  peak traced allocations: {traced_peak:.0f} MiB"
    )
    print(
        f"  the bare numpy GBM kernel in chunks of {CHUNK:,} paths: {bare:.2f} s, peak traced "
        f"allocations {bare_peak:.0f} MiB  ratio: {elapsed / bare:.2f}x the time, "
        f"{traced_peak / bare_peak:.2f}x the memory"
    )
    summary_row(
        f"{paths:,} paths × {MONTHS} months × {OPTIONS} options in one `simulate` call",
        f"{elapsed:.1f} s, peak traced allocations {traced_peak:.0f} MiB (peak RSS {rss_peak:.0f} "
        "MiB)",
        f"bare numpy GBM kernel in chunks of {CHUNK:,} paths {bare:.1f} s, peak traced "
        f"allocations {bare_peak:.0f} MiB (ratio {elapsed / bare:.2f}x the time, "
        f"{traced_peak / bare_peak:.2f}x the memory)",
    )
    for row in result["cumulative"]:
        if row["year"] == MONTHS // 12:
            print({k: round(v) if isinstance(v, float) else v for k, v in row.items()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--paths", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--million", action="store_true", help="also measure a 1,000,000-path run")
    parser.add_argument("--million-child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.million_child:
        million_child(args.million_child)
        return

    specs = options()
    simulate(specs, 1_000, seed=0)  # warm up caches and imports
    kernel(1_000, np.random.default_rng(0))
    sim, bare = best_of(
        args.repeat,
        lambda: simulate(specs, args.paths, seed=1),
        lambda: kernel(args.paths, np.random.default_rng(1)),
    )
    ratio = sim / bare
    verdict = "within" if ratio <= TARGET_RATIO else "OVER"
    print(f"size: {args.paths:,} paths x {MONTHS} months x {OPTIONS} options (float64)")
    print(
        f"simulate: {sim:.2f} s  bare numpy GBM kernel (chunks of {CHUNK:,} paths): {bare:.2f} s  "
        f"ratio: {ratio:.2f}x ({verdict} the {TARGET_RATIO}x target)"
    )
    summary_row(
        f"{args.paths:,} paths × {MONTHS} months × {OPTIONS} options, percentiles included",
        f"{sim:.2f} s",
        f"bare numpy GBM kernel in chunks of {CHUNK:,} paths {bare:.2f} s (ratio {ratio:.2f}x, "
        f"{verdict} the {TARGET_RATIO}x target)",
    )
    if args.million:
        subprocess.run(
            [sys.executable, __file__, "--million-child", "1000000"], check=True, cwd=ROOT
        )


if __name__ == "__main__":
    main()
