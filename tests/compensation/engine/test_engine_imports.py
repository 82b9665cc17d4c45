"""The engine is pure: importing every module must not import Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import importlib, pkgutil, sys
import compensation.engine as engine
names = [m.name for m in pkgutil.iter_modules(engine.__path__, "compensation.engine.")]
for name in names:
    if name != "compensation.engine.__main__":
        importlib.import_module(name)
assert len(names) >= 8, names
leaked = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
assert not leaked, leaked
print("ok", len(names))
"""


def test_engine_imports_without_django():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
