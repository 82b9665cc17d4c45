"""Server time of the main pages on a warm board cache, and of a scenario live update.

On the demo's real options (`seed_demo`, grown to 10, 25 and 50 by bench/demo.py: their
packages, grants, taxes in three places, currencies, negotiation log and scenarios): the
dashboard, the page of the option the demo's first scenario plays out, its negotiation page and
that scenario's page, each against the health check (`/healthz`) timed in the same run,
interleaved; then the scenario live update (htmx POST) at 10 options with the user's board
cache warm and on a cold worker (a live update writes nothing; "cold" clears every in-process
cache before every request, bench/cold.py).

Each figure is the median wall time, with the process's CPU time beside it: on a shared machine
the CPU ratio is the steadier one. The load average is printed at the start and the end.

Run: python bench/bench_pages.py [--repeat N] [--sizes 10,25,50]. Uses a scratch SQLite
database of its own.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from cold import cold_worker  # bench/cold.py
from demo import grow_demo  # bench/demo.py
from scratch import scratch_django  # bench/scratch.py
from summary import summary_row  # bench/summary.py

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LIVE_TARGET_MS = 100.0  # the scenario live update, board cold
LIVE_OPTIONS = 10  # the size the live update is timed at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--sizes", default="10,25,50")
    args = parser.parse_args()
    scratch_django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from offers.forms import ScenarioForm
    from offers.models import Offer, Scenario

    def timed_ms(fn, repeat: int, before=None) -> tuple[float, float]:
        """Return the median wall and CPU milliseconds of ``fn``, ``before`` run untimed first."""
        wall, cpu = [], []
        for _ in range(repeat):
            if before is not None:
                before()
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

    call_command("seed_demo", verbosity=0)
    user = get_user_model().objects.get(username="demo")
    scenario = Scenario.objects.filter(owner=user).order_by("id").first()
    assert scenario is not None, "the demo has no scenario"
    offer = scenario.offer
    client = Client()
    client.force_login(user)
    pages = {
        "dashboard": "/",
        "offer": f"/offers/{offer.pk}/",
        "negotiation": f"/offers/{offer.pk}/negotiation/",
        "scenario": f"/scenarios/{scenario.pk}/",
    }

    def live_update() -> None:
        """Time the scenario's live update with the board warm, then on a cold worker."""
        url = f"/scenarios/{scenario.pk}/update/"
        # The form as the page renders it, its stock typed anew each time (a new valuation).
        form = ScenarioForm(instance=scenario, user=user)
        typed = {name: form[name].value() for name in form.fields}
        data = {k: "" if v is None else str(v) for k, v in typed.items()}
        step = iter(range(10**6))

        def live() -> None:
            data["extra_stock_yearly"] = str(20000 + next(step))
            response = client.post(url, data, headers={"HX-Request": "true"})
            assert response.status_code == 200, response.content[:500]
            assert b"errorlist" not in response.content, response.content[:2000]

        bare, bare_cpu = timed_ms(lambda: get(client, "/healthz"), args.repeat)
        warm, warm_cpu = timed_ms(live, args.repeat)
        cold, cold_cpu = timed_ms(live, args.repeat, before=cold_worker)
        print(
            f"  scenario live update (target < {LIVE_TARGET_MS:.0f} ms on a cold worker): board "
            f"warm {warm:.1f} ms (CPU {warm_cpu:.1f}), cold worker {cold:.1f} ms "
            f"(CPU {cold_cpu:.1f}: {'within' if cold < LIVE_TARGET_MS else 'OVER'});  "
            f"/healthz {bare:.2f} ms (CPU {bare_cpu:.2f}): {warm / bare:.1f}x and {cold / bare:.1f}x"
        )
        summary_row(
            f"scenario live update (htmx POST, writes nothing), the demo's options grown to "
            f"{LIVE_OPTIONS}, median of {args.repeat}",
            f"{warm:.1f} ms with the board cached (CPU {warm_cpu:.1f}); **{cold:.1f} ms** on a "
            f"cold worker, every in-process cache cleared first (bench/cold.py; CPU "
            f"{cold_cpu:.1f}; target < {LIVE_TARGET_MS:.0f} ms: "
            f"{'within' if cold < LIVE_TARGET_MS else 'OVER'})",
            f"`/healthz` {bare:.2f} ms (CPU {bare_cpu:.2f}): {warm / bare:.1f}x warm, "
            f"{cold / bare:.1f}x cold",
        )

    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"warm pages, median of {args.repeat} requests (SQLite, in-process, cache {backend})")
    print(f"machine: {os.cpu_count()} cores, {load()}")
    target = 8.0
    for n in sorted(int(size) for size in args.sizes.split(",")):
        grow_demo(user, n)
        assert Offer.objects.filter(owner=user).count() == n
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
            f"warm board cache, the demo's options grown to {n} ({' / '.join(pages)}), median of "
            f"{args.repeat}",
            f"{each('ms', '.1f')} ms: {each('ratio', '.1f', 'x')} (target ≤ {target:.0f}x: "
            f"{'met' if max(row['ratio']) <= target else 'OVER'}); {each('queries', 'd')} queries",
            f"`/healthz` {each('healthz', '.2f')} ms, interleaved with each page",
        )
        if n == LIVE_OPTIONS:
            live_update()

    print(f"machine: {load()}")


if __name__ == "__main__":
    main()
