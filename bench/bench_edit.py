"""Server time of the first page after an edit: the board rebuilt, on the demo's options.

The demo's five options (a current job, a transfer and three offers, taxed in California,
Taiwan and Singapore) and ten (the four leaving options once more, each on a base of its own).
Before each request one package's base changes by a dollar through its model, as an edit
does: the user's board token changes, so the page values every option again (and, on the
dashboard, simulates the Monte Carlo band of options whose figures changed). Timed: the
dashboard and the `/chance/` fragment it loads next (htmx, on load), the option page (where
saving an option lands) and the board alone (valued and ranked, then with its Monte Carlo read).

Twice: in a warm process (the engine's memos and the kept boards and paths of the requests
before), and on a cold worker, every in-process cache cleared before each edit (bench/cold.py:
Django's local-memory cache, the engine's and offers' functools caches, the kept boards and
Monte Carlo paths, the module-level memos), as a worker that has not valued this user yet. The
baseline, in the same run: the dashboard again with nothing edited in between (its board cached).
Targets at 10 options: the warm dashboard < 100 ms; on a cold worker (issue 36) the dashboard
<= 150 ms and its `/chance/` fragment <= 150 ms.

Each figure is the median wall time with the process's CPU time beside it (on a shared
machine the CPU time is the steadier one). `--compare REV` measures a copy of that git
revision in the same run, the two trees taking turns, and prints the ratio of this tree to it.

Run: python bench/bench_edit.py [--repeat N] [--compare REV [--rounds N]].
Uses a scratch SQLite database of its own.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from cold import cold_worker  # bench/cold.py
from demo import grow_demo  # bench/demo.py
from scratch import scratch_django  # bench/scratch.py
from summary import summary_row  # bench/summary.py
from turns import arguments, run_child, take_turns  # bench/turns.py

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
SIZES = (5, 10)
TARGET_MS = 100.0  # the warm dashboard after an edit: under this
COLD_TARGET_MS = 150.0  # issue 36, on a cold worker: the dashboard, and its /chance/, at most this
TARGET_OPTIONS = 10  # the size the targets are set at


def measure(root: Path, repeat: int) -> list[dict[str, float]]:
    """Return the figures of each size, measured on the code under `root`."""
    scratch_django(root)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from compensation.models import Package
    from offers.board import board_build
    from offers.models import Offer

    call_command("seed_demo", verbosity=0)
    user = get_user_model().objects.get(username="demo")
    client = Client()
    client.force_login(user)
    offers = list(Offer.objects.filter(owner=user).order_by("id"))
    leaving = [o for o in offers if o.kind != Offer.Kind.STAY]

    def timed(fn: Any, edited: bool = True) -> tuple[float, float]:
        """Return the median wall and CPU milliseconds of ``fn``, after an edit each time if
        ``edited``."""
        walls, cpus = [], []
        for _ in range(repeat + 1):
            if edited:
                edit()
            w, c = time.perf_counter(), time.process_time()
            fn()
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        # The first run warms this process (templates, tax tables): not a first page.
        return statistics.median(walls[1:]) * 1000, statistics.median(cpus[1:]) * 1000

    def first_load(cold: bool) -> dict[str, float]:
        """Return the median wall and CPU milliseconds of the dashboard after an edit and of
        the `/chance/` fragment it loads next, every in-process cache cleared first if ``cold``."""
        times: dict[str, list[float]] = {"ms": [], "cpu": [], "chance_ms": [], "chance_cpu": []}
        for _ in range(repeat + 1):
            edit()
            if cold:
                cold_worker()
            for url, key in (("/", ""), ("/chance/", "chance_")):
                w, c = time.perf_counter(), time.process_time()
                get(url, htmx=bool(key))
                times[f"{key}ms"].append((time.perf_counter() - w) * 1000)
                times[f"{key}cpu"].append((time.process_time() - c) * 1000)
        return {k: statistics.median(v[1:]) for k, v in times.items()}  # as in timed()

    def get(url: str, htmx: bool = False) -> None:
        response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code == 200, (url, response.status_code)

    rows = []
    for n in SIZES:
        grow_demo(user, n)
        edited = Package.objects.get(pk=leaving[0].package_id)

        def edit(package: Package = edited) -> None:
            package.base += 1  # a new value: a new board and a new Monte Carlo key
            package.save()

        offer_url = f"/offers/{leaving[0].pk}/"
        get("/")
        get(offer_url)
        warm_load = first_load(cold=False)
        page, page_cpu = timed(lambda u=offer_url: get(u))
        board, board_cpu = timed(lambda: board_build(user=user))

        def board_and_mc() -> None:
            built = board_build(user=user)
            assert built.mc is not None

        with_mc, with_mc_cpu = timed(board_and_mc)
        cold_load = first_load(cold=True)
        warm, warm_cpu = timed(lambda: get("/"), edited=False)
        rows.append(
            {
                "options": n,
                "dashboard_ms": warm_load["ms"],
                "dashboard_cpu": warm_load["cpu"],
                "chance_ms": warm_load["chance_ms"],
                "chance_cpu": warm_load["chance_cpu"],
                "cold_ms": cold_load["ms"],
                "cold_cpu": cold_load["cpu"],
                "cold_chance_ms": cold_load["chance_ms"],
                "cold_chance_cpu": cold_load["chance_cpu"],
                "offer_ms": page,
                "offer_cpu": page_cpu,
                "board_ms": board,
                "board_cpu": board_cpu,
                "board_mc_ms": with_mc,
                "board_mc_cpu": with_mc_cpu,
                "warm_ms": warm,
                "warm_cpu": warm_cpu,
                "load": os.getloadavg()[0],
            }
        )
    return rows


def verdict(ms: float, target: float, n: int, at_most: bool = True) -> str:
    """Return '; target ...: within' or '... OVER' for a figure at the targets' size, else ''."""
    if n != TARGET_OPTIONS:
        return ""
    met = ms <= target if at_most else ms < target
    return f"; target {'≤' if at_most else '<'} {target:.0f} ms: {'within' if met else 'OVER'}"


def print_rows(title: str, rows: list[dict[str, float]]) -> None:
    print(title)
    for r in rows:
        n = int(r["options"])
        print(
            f"  options={n:3d}  dashboard {r['dashboard_ms']:6.1f} ms "
            f"(CPU {r['dashboard_cpu']:6.1f}{verdict(r['dashboard_ms'], TARGET_MS, n, False)})  "
            f"offer page {r['offer_ms']:6.1f} ms "
            f"(CPU {r['offer_cpu']:6.1f})  board {r['board_ms']:6.1f} ms "
            f"(CPU {r['board_cpu']:6.1f})  board + Monte Carlo {r['board_mc_ms']:6.1f} ms "
            f"(CPU {r['board_mc_cpu']:6.1f})  load {r['load']:.1f}"
        )
        if "warm_ms" not in r:  # a revision measured before these were (--compare)
            continue
        base = r["warm_ms"]
        print(
            f"               its /chance/ {r['chance_ms']:6.1f} ms (CPU {r['chance_cpu']:6.1f});  "
            f"dashboard / baseline {r['dashboard_ms'] / base:.1f}x"
        )
        print(
            f"    cold worker: dashboard {r['cold_ms']:6.1f} ms (CPU {r['cold_cpu']:6.1f}"
            f"{verdict(r['cold_ms'], COLD_TARGET_MS, n)}), its /chance/ "
            f"{r['cold_chance_ms']:6.1f} ms (CPU {r['cold_chance_cpu']:6.1f}"
            f"{verdict(r['cold_chance_ms'], COLD_TARGET_MS, n)});  dashboard / baseline "
            f"{r['cold_ms'] / base:.1f}x"
        )
        print(
            f"    baseline: the dashboard, nothing edited {base:6.1f} ms (CPU {r['warm_cpu']:6.1f})"
        )


def summarize(rows: list[dict[str, float]], repeat: int) -> None:
    """Write the README's rows (bench/summary.py) from this tree's figures: the warm process's,
    then the cold worker's, each against the same baseline."""
    warm, cold, baselines = [], [], []
    for r in rows:
        n, base = int(r["options"]), r["warm_ms"]
        warm.append(
            f"{n} options: dashboard **{r['dashboard_ms']:.1f} ms** (CPU {r['dashboard_cpu']:.1f}"
            f"{verdict(r['dashboard_ms'], TARGET_MS, n, False)}; {r['dashboard_ms'] / base:.1f}x "
            f"the baseline), its `/chance/` {r['chance_ms']:.1f} ms, option page "
            f"{r['offer_ms']:.1f} ms, board {r['board_ms']:.1f} ms, board + its Monte Carlo band "
            f"{r['board_mc_ms']:.1f} ms"
        )
        cold.append(
            f"{n} options: dashboard **{r['cold_ms']:.1f} ms** (CPU {r['cold_cpu']:.1f}"
            f"{verdict(r['cold_ms'], COLD_TARGET_MS, n)}; {r['cold_ms'] / base:.1f}x the "
            f"baseline), its `/chance/` **{r['cold_chance_ms']:.1f} ms** (CPU "
            f"{r['cold_chance_cpu']:.1f}{verdict(r['cold_chance_ms'], COLD_TARGET_MS, n)})"
        )
        baselines.append(
            f"{n} options: the dashboard with nothing edited (board cached) {base:.1f} ms"
        )
    sizes = " and ".join(str(int(r["options"])) for r in rows)
    what = f"the demo's options grown to {sizes}, median of {repeat}"
    summary_row(
        f"the first page after an edit (a package's base changed: board rebuilt) in a warm "
        f"process, {what}",
        "; ".join(warm),
        "; ".join(baselines),
    )
    summary_row(
        f"the first page after an edit on a cold worker (every in-process cache cleared first, "
        f"bench/cold.py) and the `/chance/` fragment it loads, {what}",
        "; ".join(cold),
        "; ".join(baselines),
    )


def main() -> None:
    args = arguments(__doc__, repeat=10)
    if args.json:
        print(json.dumps(measure(args.root, args.repeat)))
        return
    print(
        f"first page after an edit, median of {args.repeat} (SQLite, in-process; targets at "
        f"{TARGET_OPTIONS} options: warm < {TARGET_MS:.0f} ms, cold worker ≤ "
        f"{COLD_TARGET_MS:.0f} ms for the dashboard and for its /chance/)"
    )
    if not args.compare:
        rows = run_child(HERE, ROOT, args.repeat)
        print_rows("this tree", rows)
        summarize(rows, args.repeat)
        return
    before, after = take_turns(HERE, args.compare, args.rounds, args.repeat)
    print_rows(f"baseline: {args.compare}", before)
    print_rows("this tree", after)
    print("this tree / baseline (CPU)")
    for b, a in zip(before, after, strict=True):
        print(
            f"  options={a['options']:3d}  dashboard {a['dashboard_cpu'] / b['dashboard_cpu']:5.2f}x"
            f"  offer page {a['offer_cpu'] / b['offer_cpu']:5.2f}x"
            f"  board {a['board_cpu'] / b['board_cpu']:5.2f}x"
            f"  board + Monte Carlo {a['board_mc_cpu'] / b['board_mc_cpu']:5.2f}x"
            f"  cold dashboard {a['cold_cpu'] / b['cold_cpu']:5.2f}x"
            f"  cold /chance/ {a['cold_chance_cpu'] / b['cold_chance_cpu']:5.2f}x"
        )


if __name__ == "__main__":
    main()
