"""Server time of the dashboard with 1, 10 and 50 options, against a bare Django view.

Run: python bench/bench_dashboard.py [--repeat N]. Uses a scratch SQLite database of its own.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["SQLITE_PATH"] = str(db)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a scratch database on this machine
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)
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
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            response = client.get(url)
            samples.append(time.perf_counter() - t0)
            assert response.status_code == 200, response.status_code
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        if os.environ.get("SHOW_SQL"):
            print("\n".join(q["sql"][:90] for q in ctx.captured_queries))
        # BEGIN/COMMIT of ATOMIC_REQUESTS are transaction control, not queries of the page.
        queries = [
            q for q in ctx.captured_queries if q["sql"].split()[0] not in ("BEGIN", "COMMIT")
        ]
        return statistics.median(samples), len(queries), len(response.content)

    print(f"dashboard benchmark, median of {args.repeat} requests (SQLite, in-process)")
    for n in (1, 10, 50):
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
        print(
            f"options={n:3d}  dashboard: {dash * 1000:7.1f} ms  bare view: {bare * 1000:5.2f} ms  "
            f"ratio: {dash / bare:6.1f}x  queries: {queries}  html: {size / 1024:.0f} KB"
        )


if __name__ == "__main__":
    main()
