"""Django on a scratch SQLite database of its own, migrated: what each in-process benchmark
runs on (no DATABASE_URL or broker of the machine's, DEBUG on for the scratch data)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scratch_django(root: Path = ROOT) -> None:
    """Set up Django on the code under ``root`` with a new migrated SQLite database."""
    sys.path.insert(0, str(root))
    os.chdir(root)
    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # a scratch database on this machine
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
