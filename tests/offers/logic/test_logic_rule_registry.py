"""One registry of negotiation rules; a rule's name appears only in its own module."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from offers.logic.rules import RULES, RULES_BY_KEY, rule_for
from offers.logic.rules.base import OPTION_KINDS

ROOT = Path(__file__).resolve().parents[3]
RULES_DIR = ROOT / "offers" / "logic" / "rules"
KEYS = frozenset(rule.key for rule in RULES)
# Rule keys that are also ordinary names elsewhere (a model field, an engine component, a
# report column). They may appear as literals, but never compared with a rule or listed as one.
SHARED_WORDS = frozenset({"start_date", "relocation", "verdict"})
PYTHON_DIRS = ("accounts", "compensation", "config", "interviews", "offers")
TEMPLATE_DIRS = ("templates", "static/js")


def test_every_rule_module_is_registered_once_under_its_file_name():
    modules = {p.stem for p in RULES_DIR.glob("*.py")} - {"__init__", "base"}
    assert modules == set(KEYS)
    assert len(RULES) == len(KEYS) == len(RULES_BY_KEY)
    for key in KEYS:
        module = importlib.import_module(f"offers.logic.rules.{key}")
        assert module.RULE is rule_for(key)
        assert module.RULE.key == key
    assert rule_for("no_such_rule") is None


def test_every_rule_implements_the_protocol():
    for rule in RULES:
        for kind in OPTION_KINDS:
            assert isinstance(rule.applies(kind), bool)
        for name in ("evaluate", "scenario_adjustment", "answered"):
            assert callable(getattr(rule, name)), (rule.key, name)


def _is_rule_ref(node: ast.AST) -> bool:
    """Return whether an expression reads a rule name (``point.rule``, ``rule``, ``x.rule_key``)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "rule" or node.attr.startswith("rule_")
    return isinstance(node, ast.Name) and "rule" in node.id.lower()


def _literals(node: ast.AST) -> list[str]:
    """Return the string constants of a constant or a collection of constants."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for elt in node.elts for s in _literals(elt)]
    return []


def python_rule_names(text: str, own: str | None = None) -> list[str]:
    """Return the rule names a Python source uses as string literals (``own`` is allowed)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in KEYS - SHARED_WORDS and node.value != own:
                found.append(node.value)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_rule_ref(side) for side in sides):
                found += [s for side in sides for s in _literals(side) if s in SHARED_WORDS]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and any(_is_rule_ref(t) for t in targets):
                found += [s for s in _literals(node.value) if s in SHARED_WORDS]
    return [name for name in found if name != own]


def template_rule_names(text: str) -> list[str]:
    """Return the rule names a template or script uses as quoted strings."""
    found = []
    for key in KEYS:
        quoted = rf"""["']{re.escape(key)}["']"""
        named = key not in SHARED_WORDS and re.search(quoted, text)
        if named or re.search(rf"rule\s*(==|!=|in)\s*{quoted}", text):
            found.append(key)
    return found


@pytest.mark.parametrize(
    "source",
    [
        'if point.rule == "top_of_band":\n    pass\n',
        'if point.rule in ("clawback", "back_loaded"):\n    pass\n',
        'if p.rule == "start_date":\n    pass\n',
        'STOCK_RULES = ("relocation",)\n',
        'LABELS = {"make_whole": "Make-whole"}\n',
    ],
)
def test_the_check_finds_rule_names_in_python(source):
    assert python_rule_names(source)


def test_the_check_allows_ordinary_words_and_a_rules_own_key():
    assert python_rule_names('FIELDS = ("start_date", "relocation")\n') == []
    assert python_rule_names('key = "make_whole"\n', own="make_whole") == []
    assert python_rule_names('other = "clawback"\n', own="make_whole") == ["clawback"]


def test_the_check_finds_rule_names_in_templates():
    assert template_rule_names('{% if point.rule == "verdict" %}') == ["verdict"]
    assert template_rule_names("data-rule='stock_risk'") == ["stock_risk"]
    assert template_rule_names('name="start_date"') == []


def test_no_rule_name_appears_outside_its_own_rule_module():
    offenders = []
    for folder in PYTHON_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            own = path.stem if path.parent == RULES_DIR else None
            for name in python_rule_names(path.read_text(encoding="utf-8"), own=own):
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    for folder in TEMPLATE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".html", ".js", ".txt"):
                for name in template_rule_names(path.read_text(encoding="utf-8")):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []
