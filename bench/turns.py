"""Measure this tree against a git revision in the same run, the two taking turns.

A benchmark script that can print its figures as JSON (`--json --root DIR --repeat N`) runs
here once per tree per round, each in a fresh process; each figure is the best of its rounds,
since a machine shared with other work slows whichever run it happens to meet. Used by
`bench_dashboard.py` and `bench_edit.py` (`--compare REV`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
Rows = list[dict[str, float]]


def arguments(description: str | None, repeat: int) -> argparse.Namespace:
    """Return the command line of a script that can take turns: --repeat, --compare REV,
    --rounds, and the child's own --root and --json."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--compare", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each tree (--compare)")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def best(runs: list[Rows]) -> Rows:
    """Return, for each size, the lowest of each figure over the runs."""
    return [
        {key: min(run[i][key] for run in runs) for key in runs[0][i]} for i in range(len(runs[0]))
    ]


def run_child(script: Path, root: Path, repeat: int) -> Rows:
    """Run ``script`` on the code under ``root`` in a fresh process; return its figures."""
    out = subprocess.run(
        [sys.executable, str(script), "--repeat", str(repeat), "--root", str(root), "--json"],
        check=True,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "SQLITE_PATH"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def take_turns(script: Path, revision: str, rounds: int, repeat: int) -> tuple[Rows, Rows]:
    """Return the best figures of ``revision`` and of this tree, measured turn about."""
    befores, afters = [], []
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        for _ in range(rounds):
            befores.append(run_child(script, Path(tmp), repeat))
            afters.append(run_child(script, ROOT, repeat))
    return best(befores), best(afters)
