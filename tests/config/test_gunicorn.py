"""gunicorn's settings: every view loaded and the loaded objects frozen before the first request."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests import fresh_python

ROOT = Path(__file__).resolve().parent.parent.parent

# A fresh process, as a gunicorn worker is after loading the application and before any request.
SCRIPT = """
import gc, importlib.util, sys
import django
django.setup()
spec = importlib.util.spec_from_file_location("gunicorn_settings", "config/gunicorn.py")
settings = importlib.util.module_from_spec(spec)
spec.loader.exec_module(settings)
print(settings.workers, settings.threads)
print("offers.views_scenarios" in sys.modules)
settings.post_worker_init(worker=None)
print("offers.views_scenarios" in sys.modules)
print(gc.get_freeze_count())
"""


def test_worker_init_loads_the_views_and_freezes_the_heap():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    env.pop("WEB_CONCURRENCY", None)
    out = fresh_python.run(
        ["-c", SCRIPT],
        cwd=ROOT,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    sizes, before, after, frozen = out.stdout.split("\n")[:4]
    assert sizes == "2 4"
    assert (before, after) == ("False", "True")  # the views are imported by the hook
    assert int(frozen) > 10_000


def test_no_control_socket_shared_between_instances():
    """gunicorn's control socket defaults to one path per machine user: two instances on one
    machine would take it from each other and remove it on stopping, so it is off."""
    code = (
        "import sys; sys.argv = ['gunicorn', '-c', 'config/gunicorn.py', 'config.wsgi'];"
        "from gunicorn.app.wsgiapp import WSGIApplication;"
        "print(WSGIApplication('%(prog)s [OPTIONS] [APP_MODULE]').cfg.control_socket_disable)"
    )
    out = fresh_python.run(["-c", code], cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def gunicorn_workers(*args: str, concurrency: str | None) -> subprocess.CompletedProcess:
    """Load the Procfile's gunicorn settings (config file, then command line) as gunicorn does."""
    argv = ["gunicorn", "-c", "config/gunicorn.py", *args, "config.wsgi"]
    code = (
        f"import sys; sys.argv = {argv!r};"
        "from gunicorn.app.wsgiapp import WSGIApplication;"
        "print(WSGIApplication('%(prog)s [OPTIONS] [APP_MODULE]').cfg.workers)"
    )
    env = {k: v for k, v in os.environ.items() if k != "WEB_CONCURRENCY"}
    if concurrency is not None:
        env["WEB_CONCURRENCY"] = concurrency
    return fresh_python.run(["-c", code], cwd=ROOT, env=env, timeout=60)


@pytest.mark.parametrize(
    ("concurrency", "args", "workers"),
    [
        (None, (), "2"),  # this project's 2-core machines
        ("5", (), "5"),
        ("1", (), "1"),
        ("5", ("--workers", "4"), "4"),  # the command line still wins
    ],
)
def test_workers_come_from_web_concurrency(concurrency, args, workers):
    out = gunicorn_workers(*args, concurrency=concurrency)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == workers


def test_no_worker_at_all_stops_the_start_with_its_reason():
    out = gunicorn_workers(concurrency="0")
    assert out.returncode != 0
    assert "WEB_CONCURRENCY must be a whole number of processes from 1, not '0'" in out.stderr


@pytest.mark.parametrize("concurrency", ["-1", "two", "2.5", ""])
def test_gunicorn_itself_refuses_a_value_that_is_no_count(concurrency):
    """gunicorn reads WEB_CONCURRENCY as its default when it loads: an empty line in the
    settings file stops it too (.env.example gives the variable a value)."""
    out = gunicorn_workers(concurrency=concurrency)
    assert out.returncode != 0
    assert "Value must be positive" in out.stderr or "invalid literal for int()" in out.stderr
