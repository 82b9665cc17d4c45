"""The house stays small enough to read: module and function sizes, and the app's line count.

Complexity (cyclomatic, at most 20 a function) is ruff's C901 in `make lint`; this file checks
what ruff does not: no app module over 700 lines, no function over 80 (the demo seeds, one
long story each, excepted), and the app's total under the figure the README gives.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "compensation", "config", "interviews", "offers")
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80
# A demo seed tells one user's story from start to end: splitting it would scatter the story.
LONG_FUNCTIONS_ALLOWED = {"offers/demo.py:seed_user", "interviews/demo.py:seed_user"}


def app_modules() -> list[Path]:
    """Return the app's Python files (migrations excluded): what "app code" counts."""
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def app_lines() -> int:
    """Return the app code's line count, as `wc -l` counts it."""
    return sum(len(path.read_text().splitlines()) for path in app_modules())


def _long_functions(path: Path, name: str = "") -> list[str]:
    name = name or path.relative_to(ROOT).as_posix()
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES and f"{name}:{node.name}" not in LONG_FUNCTIONS_ALLOWED:
                found.append(f"{name}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_module_is_over_700_lines() -> None:
    long = [
        f"{path.relative_to(ROOT)} ({n} lines)"
        for path in app_modules()
        if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert not long, "split by reason to change: " + ", ".join(long)


def test_no_function_is_over_80_lines() -> None:
    long = [found for path in app_modules() for found in _long_functions(path)]
    assert not long, "split: " + ", ".join(long)


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """The function check sees a long function (a check that cannot fail checks nothing)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    path = tmp_path / "probe.py"
    path.write_text(f"def probe():\n{body}\n\n\ndef seed_user():\n{body}\n")
    assert _long_functions(path, "offers/demo.py") == [
        f"offers/demo.py:1 probe ({MAX_FUNCTION_LINES + 1} lines)"
    ]


def test_the_readme_gives_the_app_line_count() -> None:
    """The README's figure is the count of today's tree, rounded to a tenth of a thousand."""
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"App code: ([\d.]+)k lines", readme)
    assert found, "README: say the app's size as 'App code: N.Nk lines'"
    assert float(found.group(1)) == round(app_lines() / 1000, 1)


# Issue 33's goal is app code smaller than the 37.1k it had when the issue was filed. It was met
# (36.9k), then the features of 2 Dec 2026 (the letter's value, the transfer's days-sourced tax,
# the walk-away's floor, the localisation ask, the lost-job sweeps) outran 255 lines of cuts:
# 37.24k. The cap holds today's size so that it can only fall until the goal is met again.
CAP = 37_100


def test_app_code_stays_under_its_cap() -> None:
    """App code under CAP, issue 33's 37.1k: a feature that grows it pays with a cut."""
    assert app_lines() < CAP
