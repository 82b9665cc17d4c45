"""The suite's own tools keep each test's meaning: the shared demo and the fresh Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model

from offers.models import Offer
from tests import fresh_python

pytestmark = pytest.mark.django_db


# The shared demo (tests/conftest.py: demo_seeded, demo_user) ------------------------------


def test_a_test_on_the_demo_starts_from_the_demo_as_seeded_first(demo_user):
    """This test and the next change the demo; each starts from the same offers."""
    offers = Offer.objects.filter(owner=demo_user)
    assert offers.count() >= 4
    assert not offers.filter(name="Changed by a test").exists()
    offers.update(name="Changed by a test")
    Offer.objects.filter(owner=demo_user).first().delete()


def test_a_test_on_the_demo_starts_from_the_demo_as_seeded_second(demo_user):
    offers = Offer.objects.filter(owner=demo_user)
    assert offers.count() >= 4
    assert not offers.filter(name="Changed by a test").exists()
    offers.update(name="Changed by a test")
    Offer.objects.filter(owner=demo_user).first().delete()


def test_a_test_without_the_demo_never_sees_it():
    """Written after the demo's tests: the collection runs it before them."""
    assert not get_user_model().objects.filter(username="demo").exists()
    assert not Offer.objects.exists()


def test_the_demo_tests_of_a_module_come_after_its_others(request):
    names = [item.name for item in request.session.items if item.fspath == request.node.fspath]
    on_demo = [n for n in names if n.startswith("test_a_test_on_the_demo")]
    assert names.index("test_a_test_without_the_demo_never_sees_it") < names.index(on_demo[0])
    assert names[-len(on_demo) :] == on_demo


# The fresh Python (tests/fresh_python.py) ---------------------------------------------------

PROBE = (
    "import json, os, sys;"
    "print(json.dumps({'argv': sys.argv, 'path0': sys.path[0], 'cwd': os.getcwd(),"
    " 'var': os.environ.get('OFFERDESK_PROBE'), 'settings': os.environ.get('DJANGO_SETTINGS_MODULE'),"
    " 'project': sorted(m for m in sys.modules if m.split('.')[0] in"
    " ('accounts', 'compensation', 'config', 'interviews', 'offers'))}))"
)


def test_a_fresh_python_run_answers_as_a_new_interpreter(tmp_path):
    env = {"PATH": os.environ.get("PATH", ""), "OFFERDESK_PROBE": "seen"}
    fresh = fresh_python.run(["-c", PROBE, "one"], cwd=tmp_path, env=env, timeout=60)
    real = subprocess.run(
        [sys.executable, "-c", PROBE, "one"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert fresh.returncode == real.returncode == 0, fresh.stderr
    assert json.loads(fresh.stdout) == json.loads(real.stdout)
    # Only the run's environment: no settings module, no project module imported before.
    assert json.loads(fresh.stdout)["settings"] is None
    assert json.loads(fresh.stdout)["project"] == []


@pytest.mark.parametrize(
    ("code", "returncode", "stdout", "stderr_end"),
    [
        ("raise ValueError('boom')", 1, "", "ValueError: boom\n"),
        ("import sys; sys.exit(3)", 3, "", ""),
        ("import sys; sys.exit('bye')", 1, "", "bye\n"),
        (
            "import atexit, threading, time;"
            "atexit.register(lambda: print('atexit'));"
            "threading.Thread(target=lambda: (time.sleep(0.2), print('thread'))).start();"
            "print('main')",
            0,
            "main\nthread\natexit\n",
            "",
        ),
    ],
)
def test_a_fresh_python_run_exits_as_python_does(code, returncode, stdout, stderr_end):
    done = fresh_python.run(["-c", code], timeout=60)
    assert (done.returncode, done.stdout) == (returncode, stdout)
    assert done.stderr.endswith(stderr_end)


def test_a_fresh_python_run_past_its_timeout_is_stopped():
    with pytest.raises(subprocess.TimeoutExpired):
        fresh_python.run(["-c", "while True: pass"], timeout=1)
    assert fresh_python.run(["-c", "print('next')"], timeout=60).stdout == "next\n"


def test_a_fresh_python_run_with_other_start_up_variables_is_a_real_process(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = fresh_python.run(["-c", "import sys; print(sys.path)"], env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert str(tmp_path) in done.stdout
