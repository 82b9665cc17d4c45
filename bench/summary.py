"""A benchmark's rows for the README's table (`make bench-readme`, tools/bench_readme.py).

When ``BENCH_SUMMARY`` names a file, ``summary_row`` appends one JSON line to it: what was
measured, the figure and the baseline timed in the same run, each built by the benchmark from
the variables it prints. Without it, nothing is written.
"""

from __future__ import annotations

import json
import os

ENV = "BENCH_SUMMARY"


def summary_row(what: str, figure: str, baseline: str) -> None:
    """Append one row to the file ``BENCH_SUMMARY`` names, if it names one."""
    path = os.environ.get(ENV)
    if not path:
        return
    row = {"what": what, "figure": figure, "baseline": baseline}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")


def kb(size: float) -> str:
    """Return a byte count in thousands, as the README writes it ("458 KB")."""
    return f"{size / 1000:,.0f} KB"
