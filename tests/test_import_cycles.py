"""No import cycles at module level; tasks import their services inside the task body.

A task module imports its service inside the task body, and the service module imports the
task at module level to enqueue it. So loading any module never needs a module that is still
loading, and no import has to be deferred to dodge a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "compensation", "config", "interviews", "offers")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _load_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Yield the nodes that run when the module is imported (not inside functions)."""
    stack = list(ast.iter_child_nodes(tree))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _imports(name: str, *, load_time_only: bool) -> set[str]:
    """Return the project modules that module `name` imports."""
    path = MODULES[name]
    tree = ast.parse(path.read_text())
    nodes = _load_time_nodes(tree) if load_time_only else ast.walk(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in MODULES else base)
    return {t for t in targets if t in MODULES and t != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_level_import_cycle():
    graph = {name: _imports(name, load_time_only=True) for name in MODULES}
    assert _cycles(graph) == []


def _is_task_module(name: str) -> bool:
    return name.rpartition(".")[2].startswith("tasks")


def test_no_import_cycle_with_the_imports_inside_functions_too():
    """A deferred import hides a cycle, it does not break it: count them all.

    The one allowed: a Celery task module imports its service inside the task body (the
    service enqueues the task at module level), so a task's deferred imports are left out.
    """
    graph = {name: _imports(name, load_time_only=_is_task_module(name)) for name in MODULES}
    assert _cycles(graph) == []


def test_offers_services_import_tasks_at_module_level_and_tasks_import_services_lazily():
    assert "offers.tasks" in _imports("offers.services", load_time_only=True)
    assert "offers.services" not in _imports("offers.tasks", load_time_only=True)
    assert "offers.services" in _imports("offers.tasks", load_time_only=False)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
