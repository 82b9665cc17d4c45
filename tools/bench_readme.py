"""`make bench-readme`: run each benchmark in turn and rewrite the README's table of their figures.

Each benchmark of ``BENCHES`` runs in its own process with ``BENCH_SUMMARY`` naming a file
where it appends its rows (bench/summary.py): what it measured, the figure and the baseline
timed in the same run, built from the variables it prints. The README's part between
``BEGIN`` and ``END`` is then written again: each row headed by the command that made it and
closed by the day of the run, the machine's cores and the 1-minute load average sampled while
it ran. The rest of the README is left as it is.

A benchmark whose services are not up (bench_load: PostgreSQL and Redis) keeps its previous
rows, and the output says so; one that fails keeps them too, and the command exits 1 once the
table is written.

Usage: python tools/bench_readme.py [NAME ...]   (only those, e.g. bench_load; the others'
rows kept)
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_load import DEFAULT_CACHE, DEFAULT_DB  # noqa: E402
from bench.summary import ENV  # noqa: E402

README = ROOT / "README.md"
BEGIN = "<!-- make bench-readme: begin -->"
END = "<!-- make bench-readme: end -->"
HEAD = (
    "Written by `make bench-readme` (`tools/bench_readme.py`): each row by the command in its\n"
    "first cell, the figure and its baseline measured in the same run; the last cell is the day\n"
    "of that run, the machine's cores and the 1-minute load average sampled while it ran.\n"
    "\n"
    "| benchmark | figure | baseline in the same run | run |\n"
    "|---|---|---|---|\n"
)
SAMPLE_SECONDS = 2.0  # how often the load average is read while a benchmark runs
PORTS = {"postgres": 5432, "postgresql": 5432, "redis": 6379}  # a URL's port when it names none
Row = tuple[str, str, str, str]


@dataclasses.dataclass(frozen=True)
class Bench:
    """A benchmark: its script, its arguments and the services it needs (name, URL; an empty
    URL needs nothing)."""

    script: str
    args: tuple[str, ...] = ()
    needs: tuple[tuple[str, str], ...] = ()

    @property
    def command(self) -> str:
        return " ".join((self.script, *self.args))

    @property
    def name(self) -> str:
        return Path(self.script).stem


BENCHES = (
    Bench("bench/bench_montecarlo.py", ("--million",)),
    Bench("bench/bench_pages.py"),
    Bench("bench/bench_edit.py"),
    Bench("bench/bench_choice.py"),
    Bench("bench/bench_export.py"),
    Bench("bench/bench_page_weight.py"),
    Bench(
        "bench/bench_load.py",
        needs=(
            ("PostgreSQL", os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)),
            ("Redis", os.environ.get("BENCH_CACHE_URL", DEFAULT_CACHE)),
        ),
    ),
)


def say(message: str) -> None:
    print(f"bench-readme: {message}", flush=True)


def missing(bench: Bench) -> list[str]:
    """Return the services ``bench`` needs that answer no connection, as "name at host:port"."""
    down = []
    for name, url in bench.needs:
        if not url:
            continue
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or PORTS.get(parts.scheme, 0)
        try:
            socket.create_connection((host, port), timeout=2).close()
        except OSError:
            down.append(f"{name} at {host}:{port}")
    return down


def load_span(loads: list[float]) -> str:
    low, high = min(loads), max(loads)
    return f"load {low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"load {low:.1f}-{high:.1f}"


def run(bench: Bench, day: datetime.date) -> list[Row] | None:
    """Run ``bench``, its output shown as it goes; return its rows, or None if it failed."""
    with tempfile.TemporaryDirectory(prefix="bench-readme-", dir="/tmp") as tmp:
        out = Path(tmp) / "rows.jsonl"
        env = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")
        }
        # A scratch database of its own (bench_export's must be under /tmp).
        env |= {ENV: str(out), "SQLITE_PATH": str(Path(tmp) / "bench.sqlite3")}
        say(f"running {bench.command}")
        proc = subprocess.Popen([sys.executable, bench.script, *bench.args], cwd=ROOT, env=env)
        loads = []
        while True:
            try:
                proc.wait(timeout=SAMPLE_SECONDS)
                break
            except subprocess.TimeoutExpired:
                loads.append(os.getloadavg()[0])
        loads.append(os.getloadavg()[0])
        found = out.read_text("utf-8").splitlines() if out.exists() else []
    if proc.returncode != 0 or not found:
        say(f"{bench.command} failed (exit {proc.returncode}, {len(found)} rows written)")
        return None
    cell = f"{day.isoformat()}, {os.cpu_count()} cores, {load_span(loads)}"
    rows = []
    for line in found:
        row = json.loads(line)
        rows.append((f"`{bench.command}`: {row['what']}", row["figure"], row["baseline"], cell))
    return rows


def block(text: str) -> tuple[int, int]:
    """Return where the README's generated part starts and ends (between the markers)."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"README.md: no {BEGIN} ... {END} part")
    return start + len(BEGIN), end


def cells(line: str) -> list[str]:
    """Return a table line's cells, unescaped."""
    inner = line.strip()[1:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def parse(text: str) -> dict[str, list[Row]]:
    """Return the rows of the README's generated table, by the command heading each."""
    start, end = block(text)
    rows: dict[str, list[Row]] = {}
    for line in text[start:end].splitlines():
        found = re.match(r"\| `([^`]+)`", line)
        if found:
            benchmark, figure, baseline, when = cells(line)
            rows.setdefault(found.group(1), []).append((benchmark, figure, baseline, when))
    return rows


def render(rows: list[Row]) -> str:
    """Return the generated part of the README: its note, the table's head and the rows."""
    lines = [
        "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in r) + " |" for r in rows
    ]
    return "\n\n" + HEAD + "\n".join(lines) + "\n\n"


def rewrite(text: str, rows: list[Row]) -> str:
    """Return ``text`` with its generated part replaced by ``rows``, the rest unchanged."""
    start, end = block(text)
    return text[:start] + render(rows) + text[end:]


def collect(
    benches: tuple[Bench, ...], previous: dict[str, list[Row]], day: datetime.date, only: set[str]
) -> tuple[list[Row], list[str]]:
    """Return the table's rows, benchmark by benchmark, and the benchmarks that failed.

    A benchmark not in ``only`` (when given), or whose services are down, or that fails,
    keeps its ``previous`` rows.
    """
    for command in previous.keys() - {b.command for b in benches}:
        say(f"{command}: not a benchmark of BENCHES any more, its rows dropped")
    rows: list[Row] = []
    failed = []
    for bench in benches:
        kept = previous.get(bench.command, [])
        fresh = None
        if only and bench.name not in only:
            pass  # not asked for: its rows as they were
        elif down := missing(bench):
            say(f"{bench.command} not run: {', '.join(down)} not up; its previous rows kept")
        elif (fresh := run(bench, day)) is None:
            failed.append(bench.command)
            say(f"{bench.command}: its previous rows kept ({len(kept)})")
        rows += kept if fresh is None else fresh
    return rows, failed


def main() -> int:
    only = set(sys.argv[1:])
    unknown = only - {b.name for b in BENCHES}
    if unknown:
        raise SystemExit(f"unknown benchmarks: {', '.join(sorted(unknown))}")
    day = datetime.datetime.now(datetime.UTC).date()
    rows, failed = collect(BENCHES, parse(README.read_text("utf-8")), day, only)
    # Read again: the README may have changed elsewhere while the benchmarks ran.
    README.write_text(rewrite(README.read_text("utf-8"), rows), "utf-8")
    say(f"README.md: {len(rows)} rows written")
    if failed:
        say(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
