from __future__ import annotations

import os

# One BLAS and OpenMP thread a process (web, worker, beat, manage.py: each imports this package
# before numpy, and the libraries read these once, when numpy loads). The chance of the best
# choice fits many small least squares: on a shared 2-core machine a multi-threaded BLAS spends
# some 50x longer waking its threads than multiplying. A value set in the environment stays.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
for _name in BLAS_THREADS:
    os.environ.setdefault(_name, "1")

from . import checks  # noqa: E402, F401  (registers the project's system checks)
from .celery import app as celery_app  # noqa: E402

__all__ = ("celery_app",)
