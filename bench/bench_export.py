"""Time the CSV and XLSX comparison exports of 1,000 options against bare writers.

Run: SQLITE_PATH=/tmp/bench.sqlite3 .venv/bin/python bench/bench_export.py [--offers 1000]
The script makes its own scratch database (deleted first), migrates it and generates the data.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from summary import summary_row  # noqa: E402  # bench/summary.py

TARGET_WHOLE_S = 3.0  # the whole XLSX download of 1,000 options, cold


def timed(fn, repeat: int = 3):
    """Return (best seconds, result) over a few runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def timed_cpu(fn):
    """Return (wall seconds, this process's CPU seconds, result) of one run."""
    start, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - start, time.process_time() - cpu, result


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--offers", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    db = os.environ.setdefault("SQLITE_PATH", "/tmp/bench-export.sqlite3")
    if not db.startswith("/tmp/"):
        sys.exit("SQLITE_PATH must be a scratch file under /tmp/")
    Path(db).unlink(missing_ok=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a scratch database on this machine
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from openpyxl import Workbook

    from bench.synthetic import generate_user_data
    from offers.board import board_build
    from offers.export.comparison import comparison_build
    from offers.export.csv_export import COLUMNS, csv_bytes
    from offers.export.xlsx import xlsx_bytes

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    t0 = time.perf_counter()
    generate_user_data(user=user, offers=args.offers, rounds=args.rounds)
    print(f"generate {args.offers} options, {args.rounds} rounds: {time.perf_counter() - t0:.2f} s")

    board_s, board = timed(lambda: board_build(user=user, mc_paths=0), repeat=1)
    print(f"board_build (no Monte Carlo): {board_s:.2f} s")
    mc_s, _ = timed(lambda: board_build(user=user), repeat=1)
    print(f"board_build (dashboard Monte Carlo, 2000 paths): {mc_s:.2f} s")
    build_s, comparison = timed(lambda: comparison_build(user=user, board=board), repeat=1)
    print(f"comparison_build (rows, assumptions, negotiation top 10): {build_s:.2f} s")

    from offers import board_cache
    from offers.export.jobs import comparison_file

    def whole_xlsx() -> bytes:
        # cold: the board (without the Monte Carlo band the comparison does not show), the
        # comparison and the workbook are all built
        cache.clear()
        board_cache.RECENT.clear()
        return comparison_file(user=user, fmt="xlsx")

    print(f"machine: {os.cpu_count()} cores, {load()}")
    whole_s, whole_cpu, _ = timed_cpu(whole_xlsx)
    print(
        f"whole XLSX download, cold cache (board, comparison, workbook): {whole_s:.2f} s "
        f"(CPU {whole_cpu:.2f} s; target < {TARGET_WHOLE_S:.0f} s)"
    )
    board_cache.board_get(user=user)  # the user has seen the dashboard: the board is cached
    warm_s, warm_cpu, _ = timed_cpu(lambda: comparison_file(user=user, fmt="xlsx"))
    print(
        f"whole XLSX download, board cached (comparison, workbook): {warm_s:.2f} s "
        f"(CPU {warm_cpu:.2f} s)"
    )
    print(f"machine: {load()}")

    rows = comparison.yearly
    n = len(rows)
    csv_s, data = timed(lambda: csv_bytes(comparison))
    plain = [[r[c] for c in COLUMNS] for r in rows]

    def bare_csv() -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(COLUMNS)
        writer.writerows(plain)
        return buffer.getvalue().encode("utf-8")

    base_csv_s, _ = timed(bare_csv)
    xlsx_s, book = timed(lambda: xlsx_bytes(comparison), repeat=2)
    # Same number of cells as the workbook's biggest sheet (Year by year: 11 columns).
    yby_rows = n // 6
    grid = [["Option name", 1, "gross", "USD", "yes", 1.5, 2.5, 3.5, 4.5, 5.5, 17.5]] * yby_rows

    def bare_xlsx() -> bytes:
        wb = Workbook(write_only=True)
        ws = wb.create_sheet("Year by year")
        for row in grid:
            ws.append(row)
        buffer = io.BytesIO()
        wb.save(buffer)
        return buffer.getvalue()

    base_xlsx_s, _ = timed(bare_xlsx, repeat=2)
    print()
    print(
        f"{'format':<6} {'rows':>8} {'seconds':>9} {'rows/s':>10} {'baseline s':>11} {'ratio':>6} {'bytes':>11}"
    )
    print(
        f"{'csv':<6} {n:>8} {csv_s:>9.3f} {n / csv_s:>10,.0f} {base_csv_s:>11.3f} {csv_s / base_csv_s:>6.1f} {len(data):>11,}"
    )
    print(
        f"{'xlsx':<6} {yby_rows:>8} {xlsx_s:>9.3f} {yby_rows / xlsx_s:>10,.0f} {base_xlsx_s:>11.3f} "
        f"{xlsx_s / base_xlsx_s:>6.1f} {len(book):>11,}"
    )
    print(
        "csv baseline: bare csv.writer over the same rows; xlsx baseline: bare write-only openpyxl "
        "sheet of the same rows x 11 columns (the XLSX figure covers all six sheets and the chart)."
    )
    met = "met" if whole_s < TARGET_WHOLE_S else "OVER"
    summary_row(
        f"{args.offers:,} options, whole XLSX download, cold cache (board without Monte Carlo, "
        "comparison, workbook)",
        f"{whole_s:.2f} s (CPU {whole_cpu:.2f} s; target < {TARGET_WHOLE_S:.0f} s: {met})",
        f"its parts timed alone: board {board_s:.2f} s, comparison {build_s:.2f} s, workbook "
        f"{xlsx_s:.2f} s; with the board cached {warm_s:.2f} s",
    )
    summary_row(
        f"{args.offers:,} options, XLSX workbook alone (every sheet and a chart, "
        f"{len(book):,} bytes)",
        f"{xlsx_s:.2f} s",
        f"bare write-only openpyxl sheet of the biggest sheet's cells ({yby_rows:,} rows × 11) "
        f"{base_xlsx_s:.2f} s ({xlsx_s / base_xlsx_s:.1f}x)",
    )
    summary_row(
        f"{args.offers:,} options, CSV ({n:,} rows)",
        f"{csv_s:.2f} s ({n / csv_s / 1000:,.0f}k rows/s)",
        f"bare `csv.writer` over the same rows {base_csv_s:.2f} s ({csv_s / base_csv_s:.1f}x)",
    )


if __name__ == "__main__":
    main()
