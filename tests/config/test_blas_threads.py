"""Every process of the app runs numpy's BLAS on one thread (config/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Imports the project's config package as gunicorn, Celery and manage.py do, then numpy, and
# asks the OpenBLAS that numpy loaded how many threads it runs.
PROBE = """
import ctypes, os
import config
import numpy
lib = next(l.split()[-1] for l in open('/proc/self/maps') if 'openblas' in l.lower())
blas = ctypes.CDLL(lib)
get = next(getattr(blas, n) for n in (
    'scipy_openblas_get_num_threads64_', 'openblas_get_num_threads64_', 'openblas_get_num_threads'
) if hasattr(blas, n))
print(get(), os.environ['OMP_NUM_THREADS'], os.environ['MKL_NUM_THREADS'])
"""


def probe(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings_test", **env},
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.split()


def test_the_app_runs_blas_on_one_thread():
    assert probe() == ["1", "1", "1"]


def test_a_thread_count_set_in_the_environment_stays():
    assert probe(OPENBLAS_NUM_THREADS="2")[0] == "2"
