"""Settings for the test suite: the development defaults (DEBUG=1 at import, as `make run`).

The variable is set in the environment, not only here, so that the subprocesses tests start
(workers, `manage.py` runs) inherit it. pytest-django still runs each test with DEBUG off.
"""

from __future__ import annotations

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402, F403
