"""gunicorn's settings: every view loaded and the loaded objects frozen before the first request."""

from __future__ import annotations

import os
from pathlib import Path

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
