"""Server time of the main pages on a warm board cache, and of a scenario live update.

For 5 and 50 options: the dashboard, an offer page, its negotiation page and a scenario page,
each against the health check (`/healthz`) timed in the same run; then the scenario live update
(htmx POST) at 10 options with the user's board cache warm and cold (a live update writes
nothing; "cold" clears the whole cache, and the process's recent boards, simulated paths and
valued segments, before every request).

Each figure is the median wall time, with the process's CPU time beside it: on a shared machine
the CPU ratio is the steadier one. The load average is printed at the start and the end.

Run: python bench/bench_pages.py [--repeat N]. Uses a scratch SQLite database of its own.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from scratch import scratch_django  # bench/scratch.py
from summary import summary_row  # bench/summary.py

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LIVE_TARGET_MS = 100.0  # the scenario live update, board cold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--sizes", default="5,50")
    args = parser.parse_args()
    scratch_django()
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.factories import (
        CompanyFactory,
        EquityGrantFactory,
        OfferFactory,
        PreferencesFactory,
        ScenarioFactory,
        SignOnFactory,
        UserFactory,
    )

    def timed_ms(fn, repeat: int) -> tuple[float, float]:
        """Return the median wall and CPU milliseconds of ``fn``."""
        wall, cpu = [], []
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        return statistics.median(wall) * 1000, statistics.median(cpu) * 1000

    def load() -> str:
        return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())

    def get(client: Client, url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    def queries(client: Client, url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        return len([q for q in ctx.captured_queries if q["sql"].split()[0] not in ("BEGIN",)])

    def seed(n: int):
        user = UserFactory(username=f"pages{n}")
        PreferencesFactory(owner=user)
        company = CompanyFactory(owner=user)
        offers = []
        for i in range(n):
            offer = OfferFactory(
                owner=user, name=f"Option {i}", package__company=company, company=company
            )
            EquityGrantFactory(package=offer.package)
            SignOnFactory(package=offer.package)
            offers.append(offer)
        scenario = ScenarioFactory(owner=user, offer=offers[0])
        client = Client()
        client.force_login(user)
        return user, offers[0], scenario, client

    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"warm pages, median of {args.repeat} requests (SQLite, in-process, cache {backend})")
    print(f"machine: {os.cpu_count()} cores, {load()}")
    target = 8.0
    for n in [int(s) for s in args.sizes.split(",")]:
        _user, offer, scenario, client = seed(n)
        pages = {
            "dashboard": "/",
            "offer": f"/offers/{offer.pk}/",
            "negotiation": f"/offers/{offer.pk}/negotiation/",
            "scenario": f"/scenarios/{scenario.pk}/",
        }
        for url in pages.values():
            get(client, url)  # warm the board (and the Monte Carlo)
        print(f"options={n:3d}")
        row: dict[str, list[float]] = {"ms": [], "ratio": [], "queries": [], "healthz": []}
        for name, url in pages.items():
            # Interleaved with the health check, so that both see the same load on the machine.
            page_s, bare_s, page_c, bare_c = [], [], [], []
            for _ in range(args.repeat):
                wall, cpu = timed_ms(lambda c=client: get(c, "/healthz"), 1)
                bare_s.append(wall)
                bare_c.append(cpu)
                wall, cpu = timed_ms(lambda c=client, u=url: get(c, u), 1)
                page_s.append(wall)
                page_c.append(cpu)
            ms, bare = statistics.median(page_s), statistics.median(bare_s)
            cms, cbare = statistics.median(page_c), statistics.median(bare_c)
            flag = "ok" if ms / bare <= target else "OVER"
            count = queries(client, url)
            print(
                f"  {name:12s} {ms:7.1f} ms  /healthz {bare:5.2f} ms  ratio {ms / bare:5.1f}x "
                f"(target <= {target:.0f}x, {flag});  CPU {cms:6.1f} ms / {cbare:5.2f} ms = "
                f"{cms / cbare:4.1f}x;  queries: {count}"
            )
            for key, value in (("ms", ms), ("ratio", ms / bare), ("queries", count)):
                row[key].append(value)
            row["healthz"].append(bare)

        def each(key: str, form: str, unit: str = "", r: dict[str, list[float]] = row) -> str:
            return " / ".join(format(value, form) + unit for value in r[key])

        summary_row(
            f"warm board cache, {n} factory-made options ({' / '.join(pages)}), median of "
            f"{args.repeat}",
            f"{each('ms', '.1f')} ms: {each('ratio', '.1f', 'x')} (target ≤ {target:.0f}x: "
            f"{'met' if max(row['ratio']) <= target else 'OVER'}); {each('queries', 'd')} queries",
            f"`/healthz` {each('healthz', '.2f')} ms, interleaved with each page",
        )

    _user, offer, scenario, client = seed(10)
    url = f"/scenarios/{scenario.pk}/update/"
    get(client, f"/scenarios/{scenario.pk}/")
    step = iter(range(10**6))
    from compensation.engine.window import _one_path_tax, _one_path_values
    from offers import board_cache
    from offers.board_paths import MC_PATHS_KEPT

    def live(clear: bool) -> None:
        if clear:
            cache.clear()
            board_cache.RECENT.clear()
            MC_PATHS_KEPT.clear()
            _one_path_values.cache_clear()
            _one_path_tax.cache_clear()
        data = {
            "name": scenario.name,
            "extra_stock_yearly": str(20000 + next(step)),
            "extra_sign_on": "0",
            "raise_pct": "",
            "base": "",
            "refresher_yearly": "",
            "remote_weeks_per_year": "",
            "growth_pct": "",
            "volatility_pct": "",
            "version": str(scenario.version),
        }
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content[:500]

    bare, bare_cpu = timed_ms(lambda: get(client, "/healthz"), args.repeat)
    warm, warm_cpu = timed_ms(lambda: live(False), args.repeat)
    cold, cold_cpu = timed_ms(lambda: live(True), args.repeat)
    print(
        f"scenario live update, 10 options (target < {LIVE_TARGET_MS:.0f} ms): board warm "
        f"{warm:.1f} ms (CPU {warm_cpu:.1f}), whole cache cold {cold:.1f} ms "
        f"(CPU {cold_cpu:.1f});  /healthz {bare:.2f} ms (CPU {bare_cpu:.2f})"
    )
    summary_row(
        f"scenario live update (htmx POST, writes nothing), 10 factory-made options, median of "
        f"{args.repeat}",
        f"{warm:.1f} ms with the board cached (CPU {warm_cpu:.1f}); **{cold:.1f} ms** with the "
        f"whole cache and the process's kept boards, paths and the engine's remembered values "
        f"cleared first (CPU {cold_cpu:.1f}; target < {LIVE_TARGET_MS:.0f} ms: "
        f"{'met' if cold < LIVE_TARGET_MS else 'OVER'})",
        f"`/healthz` {bare:.2f} ms (CPU {bare_cpu:.2f})",
    )
    print(f"machine: {load()}")


if __name__ == "__main__":
    main()
