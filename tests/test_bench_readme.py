"""The README's benchmark table is the one `make bench-readme` writes (tools/bench_readme.py).

Every benchmark the tool runs has its rows there, each with a figure, a baseline and its run;
each benchmark writes its rows through bench/summary.py; a benchmark that fails or whose
services are down keeps its previous rows. No benchmark runs here: a tiny fake one stands in.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
import socket
from pathlib import Path

import pytest

from bench import summary
from tools import bench_readme
from tools.bench_readme import BENCHES, Bench

ROOT = Path(__file__).resolve().parent.parent
DAY = dt.date(2026, 12, 2)
RUN = re.compile(r"\d{4}-\d\d-\d\d, \d+ cores, load \d+\.\d(-\d+\.\d)?")
FAKE = f"""
import sys
sys.path.insert(0, {str(ROOT / "bench")!r})
from summary import summary_row
summary_row("a fake, {{n}} things".format(n=2), "1.50 s", "bare 0.50 s (3.0x)")
summary_row("the same at 4", "2.00 s", "bare 1.00 s (2.0x)")
"""


def readme() -> str:
    return (ROOT / "README.md").read_text("utf-8")


def test_the_table_has_rows_of_every_benchmark_the_tool_runs_and_no_other():
    rows = bench_readme.parse(readme())
    assert list(rows) == [b.command for b in BENCHES]
    for command, found in rows.items():
        for benchmark, figure, baseline, run in found:
            assert benchmark.startswith(f"`{command}`: ") and len(benchmark) > len(command) + 4
            assert figure and baseline, benchmark
            assert RUN.fullmatch(run), run


def test_the_table_is_as_the_tool_writes_it():
    text = readme()
    rows = bench_readme.parse(text)
    assert bench_readme.rewrite(text, [r for b in BENCHES for r in rows[b.command]]) == text


def test_rewriting_the_table_leaves_the_rest_of_the_readme_as_it_is():
    text = readme()
    start, end = bench_readme.block(text)
    written = bench_readme.rewrite(
        text, [("`x`: y", "1 s", "2 s", "2026-12-02, 2 cores, load 1.0")]
    )
    assert written.startswith(text[:start]) and written.endswith(text[end:])
    assert bench_readme.parse(written) == {
        "x": [("`x`: y", "1 s", "2 s", "2026-12-02, 2 cores, load 1.0")]
    }
    # The make test rows are written by hand: outside the generated part.
    assert "| `make test`" in text[end:] and "`make test`" not in text[start:end]


def test_a_cell_with_a_bar_survives_the_table():
    row = ("`x`: a | b", "1 s", "c | d", "2026-12-02, 2 cores, load 1.0")
    assert bench_readme.parse(bench_readme.rewrite(readme(), [row])) == {"x": [row]}


@pytest.mark.parametrize("bench", BENCHES, ids=lambda b: b.name)
def test_each_benchmark_writes_its_rows_through_bench_summary(bench):
    tree = ast.parse((ROOT / bench.script).read_text("utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "summary"
        for alias in node.names
    }
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "summary_row"
    ]
    assert "summary_row" in imported and calls, bench.script
    assert all(len(call.args) == 3 for call in calls), bench.script  # what, figure, baseline


def test_bench_summary_appends_a_row_only_when_asked(tmp_path, monkeypatch):
    out = tmp_path / "rows.jsonl"
    monkeypatch.delenv(summary.ENV, raising=False)
    summary.summary_row("a", "b", "c")
    monkeypatch.setenv(summary.ENV, str(out))
    summary.summary_row("1 × 2", "3 s", "4 s")
    summary.summary_row("5", "6", "7")
    lines = out.read_text("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"what": "1 × 2", "figure": "3 s", "baseline": "4 s"},
        {"what": "5", "figure": "6", "baseline": "7"},
    ]


def test_a_fake_benchmark_run_gives_its_rows_with_the_command_day_and_load(tmp_path):
    script = tmp_path / "bench_fake.py"
    script.write_text(FAKE, "utf-8")
    rows = bench_readme.run(Bench(str(script), ("--fast",)), DAY)
    assert rows is not None
    assert [r[:3] for r in rows] == [
        (f"`{script} --fast`: a fake, 2 things", "1.50 s", "bare 0.50 s (3.0x)"),
        (f"`{script} --fast`: the same at 4", "2.00 s", "bare 1.00 s (2.0x)"),
    ]
    assert all(RUN.fullmatch(r[3]) and r[3].startswith("2026-12-02, ") for r in rows)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_benchmark_whose_services_are_down_keeps_its_rows_and_says_so(tmp_path, capsys):
    url = f"postgres://postgres@127.0.0.1:{closed_port()}/offerdesk_bench"
    # Not run: the script does not exist, so a run would fail.
    bench = Bench(str(tmp_path / "absent.py"), needs=(("PostgreSQL", url),))
    kept = [(f"`{bench.command}`: before", "1 s", "2 s", "2026-12-01, 2 cores, load 1.0")]
    rows, failed = bench_readme.collect((bench,), {bench.command: kept}, DAY, set())
    assert (rows, failed) == (kept, [])
    assert "PostgreSQL at 127.0.0.1:" in capsys.readouterr().out


def test_a_benchmark_that_fails_keeps_its_rows_and_is_reported(tmp_path):
    script = tmp_path / "bench_broken.py"
    script.write_text(FAKE + "raise SystemExit(3)\n", "utf-8")
    bench = Bench(str(script))
    kept = [(f"`{bench.command}`: before", "1 s", "2 s", "2026-12-01, 2 cores, load 1.0")]
    rows, failed = bench_readme.collect((bench,), {bench.command: kept}, DAY, set())
    assert (rows, failed) == (kept, [bench.command])


def test_a_benchmark_not_asked_for_keeps_its_rows(tmp_path):
    bench = Bench(str(tmp_path / "absent.py"))
    kept = [(f"`{bench.command}`: before", "1 s", "2 s", "2026-12-01, 2 cores, load 1.0")]
    assert bench_readme.collect((bench,), {bench.command: kept}, DAY, {"bench_other"}) == (kept, [])
