"""The export code imports cleanly on its own and sits in no import cycle.

The background jobs' task is defined beside the code that queues and runs it
(`offers.export.jobs`); `offers.tasks` imports it for Celery to register, and nothing of the
export code imports `offers.tasks` back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import fresh_python

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("accounts", "compensation", "config", "interviews", "offers")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Return first-party module -> modules it imports, counting imports inside functions."""
    files = {
        _module_name(p): p
        for package in PACKAGES
        for p in (ROOT / package).rglob("*.py")
        if "migrations" not in p.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".")
                    anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in files and t != name}
    return graph


def cycle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """Return an import path from start back to itself, or None."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph[node]):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def test_graph_sees_the_task_registration_and_the_jobs_imports():
    graph = import_graph()
    assert "offers.export.jobs" in graph["offers.tasks"]
    assert "offers.export.retention" in graph["offers.tasks"]  # inside the purge task's body
    assert "offers.export.restore" in graph["offers.export.jobs"]
    assert "offers.export.formats" in graph["offers.models"]


def test_no_export_module_is_in_an_import_cycle():
    graph = import_graph()
    export_modules = [
        m
        for m in graph
        if m.startswith("offers.export") or m in ("offers.views_export", "offers.models")
    ]
    assert "offers.export.jobs" in export_modules
    cycles = {m: cycle_through(graph, m) for m in export_modules}
    assert {m: c for m, c in cycles.items() if c} == {}


@pytest.mark.parametrize(
    "module",
    [
        "offers.tasks",
        "offers.export.jobs",
        "offers.export.retention",
    ],
)
def test_each_export_module_imports_alone(module):
    code = (
        "import django, importlib, os;"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings');"
        "django.setup();"
        f"importlib.import_module({module!r})"
    )
    result = fresh_python.run(["-c", code], cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
