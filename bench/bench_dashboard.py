"""Server time of the dashboard with 1, 10 and 50 options, against a bare Django view.

Run: python bench/bench_dashboard.py [--repeat N] [--compare REV [--rounds N]].
Uses a scratch SQLite database of its own. Besides the warm page (board and charts cached), it times the charts of a
fresh board ("charts cold": the first page after an edit builds them, validated by plotly, and
writes their JSON). `--compare main` runs the same measurements on a copy of that git revision
in the same run, the two trees taking turns, and prints both and the ratio of this tree to it.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from scratch import scratch_django  # bench/scratch.py
from turns import arguments, take_turns  # bench/turns.py

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
SIZES = (1, 10, 50)


def chart_json(fig: Any) -> str:
    """Return a chart's JSON the way this tree's pages write it (plotly figure or plain dict)."""
    if hasattr(fig, "to_json"):
        from accounts.charts import figure_json

        return figure_json(fig)
    from django.core.serializers.json import DjangoJSONEncoder

    return json.dumps(fig, cls=DjangoJSONEncoder)


def measure(root: Path, repeat: int) -> list[dict[str, float]]:
    """Return the figures of each size, measured on the code under `root`."""
    scratch_django(root)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from offers import charts
    from offers.board import board_build
    from tests.factories import (
        CompanyFactory,
        EquityGrantFactory,
        OfferFactory,
        PreferencesFactory,
        UserFactory,
    )

    def timed(client: Client, url: str) -> tuple[float, int, int]:
        client.get(url)
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            response = client.get(url)
            samples.append(time.perf_counter() - t0)
            assert response.status_code == 200, response.status_code
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        if os.environ.get("SHOW_SQL"):
            print("\n".join(q["sql"][:90] for q in ctx.captured_queries), file=sys.stderr)
        # BEGIN/COMMIT of ATOMIC_REQUESTS are transaction control, not queries of the page.
        queries = [
            q for q in ctx.captured_queries if q["sql"].split()[0] not in ("BEGIN", "COMMIT")
        ]
        return statistics.median(samples), len(queries), len(response.content)

    def charts_cold(user: Any) -> float:
        board = board_build(user=user)
        builders = (
            charts.yearly_by_component,
            charts.cumulative_with_bands,
            charts.score_contributions,
        )
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            for build in builders:
                chart_json(build(board))
            samples.append(time.perf_counter() - t0)
        return statistics.median(samples)

    rows = []
    for n in SIZES:
        user = UserFactory(username=f"bench{n}")
        PreferencesFactory(owner=user)
        company = CompanyFactory(owner=user)
        for i in range(n):
            offer = OfferFactory(
                owner=user, name=f"Option {i}", package__company=company, company=company
            )
            EquityGrantFactory(package=offer.package)
        client = Client()
        client.force_login(user)
        bare, _, _ = timed(client, "/healthz")
        dash, queries, size = timed(client, "/")
        rows.append(
            {
                "options": n,
                "dashboard_ms": dash * 1000,
                "bare_ms": bare * 1000,
                "queries": queries,
                "html_kb": size / 1024,
                "charts_cold_ms": charts_cold(user) * 1000,
            }
        )
    return rows


def print_rows(title: str, rows: list[dict[str, float]]) -> None:
    print(title)
    for r in rows:
        print(
            f"  options={r['options']:3d}  dashboard: {r['dashboard_ms']:7.1f} ms  "
            f"bare view: {r['bare_ms']:5.2f} ms  ratio: {r['dashboard_ms'] / r['bare_ms']:6.1f}x  "
            f"charts cold: {r['charts_cold_ms']:6.1f} ms  queries: {r['queries']}  "
            f"html: {r['html_kb']:.0f} KB"
        )


def main() -> None:
    args = arguments(__doc__, repeat=15)
    if args.json:
        print(json.dumps(measure(args.root, args.repeat)))
        return
    print(f"dashboard benchmark, median of {args.repeat} requests (SQLite, in-process)")
    if not args.compare:
        print_rows("this tree", measure(ROOT, args.repeat))
        return
    before, after = take_turns(HERE, args.compare, args.rounds, args.repeat)
    print_rows(f"baseline: {args.compare}", before)
    print_rows("this tree", after)
    print("this tree / baseline")
    for b, a in zip(before, after, strict=True):
        print(
            f"  options={a['options']:3d}  dashboard: {a['dashboard_ms'] / b['dashboard_ms']:5.2f}x"
            f"  charts cold: {a['charts_cold_ms'] / b['charts_cold_ms']:5.2f}x"
            f"  html: {a['html_kb'] / b['html_kb']:5.2f}x"
        )


if __name__ == "__main__":
    main()
