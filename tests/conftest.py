"""Shared fixtures: three users (Charlie should have no access to Alice's stuff), clients, workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from tests import clock

# Property tests: no time limit per example (time is not the property, and a shared machine
# is slow at times); in CI (CI=true) the same examples every run, so a run never flakes on a
# draw while a developer's runs keep exploring new ones.
hypothesis_settings.register_profile(
    "offerdesk", deadline=None, derandomize=os.environ.get("CI", "") == "true", print_blob=True
)
hypothesis_settings.load_profile("offerdesk")

ROOT = Path(__file__).resolve().parent.parent

# Tests that must run in one process, after the parallel ones (`make pytest`): a real broker
# and worker (they purge the shared queue), a browser, a live server.
SERIAL_MARKERS = ("broker", "browser")
SERIAL_FIXTURES = {"live_server", "celery_worker_process"}


def pytest_configure(config):
    """Freeze the clock before any test module is imported (tests/clock.py)."""
    clock.SUITE.start()


def pytest_unconfigure(config):
    clock.SUITE.stop()


# Tests whose other processes read the shared database's times (a real worker or beat).
REAL_CLOCK_MARKERS = ("broker",)
REAL_CLOCK_FIXTURES = {"celery_worker_process"}


@pytest.fixture(autouse=True)
def _suite_clock(request):
    """Every test reads the suite's clock, but those that share times with another process."""
    real = any(request.node.get_closest_marker(m) for m in REAL_CLOCK_MARKERS) or bool(
        REAL_CLOCK_FIXTURES & set(request.fixturenames)
    )
    if real:
        with clock.SUITE.paused():
            yield
    else:
        clock.SUITE.start()
        yield


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the tests that cannot share the machine with other test processes as `serial`."""
    for item in items:
        in_browser_folder = "browser" in Path(str(item.fspath)).relative_to(ROOT).parts[:2]
        if (
            in_browser_folder
            or any(item.get_closest_marker(m) for m in SERIAL_MARKERS)
            or SERIAL_FIXTURES & set(getattr(item, "fixturenames", ()))
        ):
            item.add_marker(pytest.mark.serial)
    _shared_demo_tests_last(items)


def _shared_demo_tests_last(items: list[pytest.Item]) -> None:
    """Run each module's tests on the shared demo (`demo_user`) after its other tests.

    The module's demo stays in the database from its first test on the demo to the module's
    end: a test without the demo must not come after one. Stable: the order is otherwise kept.
    """

    first_of_module: dict[str, int] = {}
    for index, item in enumerate(items):
        first_of_module.setdefault(str(item.fspath), index)

    def key(pair: tuple[int, pytest.Item]) -> tuple[int, bool, int]:
        index, item = pair
        uses_demo = SHARED_DEMO_FIXTURE in getattr(item, "fixturenames", ())
        return (first_of_module[str(item.fspath)], uses_demo, index)

    ordered = sorted(enumerate(items), key=key)
    items[:] = [item for _index, item in ordered]
    # One worker takes all of a module's tests on the demo (`make pytest`: --dist loadgroup),
    # which then seeds it once.
    for item in items:
        if SHARED_DEMO_FIXTURE in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(f"demo-{item.nodeid.split('::')[0]}"))


@pytest.fixture(autouse=True)
def _fast_and_eager(settings, request):
    """Use a fast hasher; run Celery tasks eagerly unless the test needs a real broker."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from config.celery import app

    eager_before = app.conf.task_always_eager
    app.conf.task_always_eager = request.node.get_closest_marker("broker") is None
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager = eager_before


@pytest.fixture(autouse=True)
def _language_reset():
    """A request in zh-Hant activates it for the thread: every test starts and ends in English."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Start every test with an empty cache: ids are reused after a rollback, boards are not.

    And with no outage remembered (config.cache), no worker answer kept (config.health) nor
    token left to replace (a test of a cache that is down leaves them behind).
    """
    from django.core.cache import cache

    from config.cache import reset
    from config.health import BROKER_ANSWER, CACHE_ANSWER, WORKER_ANSWER
    from config.middleware import WARNED_AT
    from offers.board_cache import RECENT, UNSENT
    from offers.board_paths import MC_PATHS_KEPT

    reset()
    for answer in (BROKER_ANSWER, CACHE_ANSWER, WORKER_ANSWER):
        answer.reset()
    WARNED_AT.reset()
    UNSENT.clear()
    cache.clear()
    RECENT.clear()
    MC_PATHS_KEPT.clear()
    yield


@pytest.fixture(scope="session")
def django_db_setup(  # noqa: PLR0913
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
):
    """pytest-django's test databases; on PostgreSQL the xdist workers copy one (db_template).

    As pytest-django's own fixture otherwise (the same arguments, set-up and tear-down).
    """
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _disable_migrations, _get_databases_for_setup

    verbosity = request.config.option.verbose
    keepdb = django_db_keepdb and not django_db_createdb
    aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
    worker = getattr(request.config, "workerinput", None)
    if (
        worker is not None
        and django_db_use_migrations
        and not keepdb
        and set(aliases) == {"default"}
        and connections["default"].vendor == "postgresql"
    ):
        from tests import db_template

        connection = connections["default"]
        template = db_template.template_name(connection, worker["testrunuid"], worker["workerid"])
        with django_db_blocker.unblock():
            old_name = db_template.clone(
                connection,
                template,
                verbosity=verbosity,
                serialize="default" in serialized_aliases,
            )
        yield
        with django_db_blocker.unblock():
            db_template.drop(connection, template, old_name, verbosity=verbosity)
        return

    if not django_db_use_migrations:
        _disable_migrations()
    with django_db_blocker.unblock():
        db_cfg = setup_databases(
            verbosity=verbosity,
            interactive=False,
            aliases=aliases,
            serialized_aliases=serialized_aliases,
            keepdb=keepdb,
        )
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            try:
                teardown_databases(db_cfg, verbosity=verbosity)
            except Exception as exc:
                request.node.warn(
                    pytest.PytestWarning(f"Error when trying to teardown test databases: {exc!r}")
                )


SHARED_DEMO_FIXTURE = "demo_seeded"


@pytest.fixture(scope="module")
def demo_seeded(django_db_setup, django_db_blocker) -> Iterator[int]:
    """Seed the demo (`seed_demo`) once for a test module; yield the demo user's id.

    The seed stays in a transaction that is rolled back at the module's end; each test's own
    transaction (pytest-django's `db`) is a savepoint inside it, rolled back after the test,
    so every test starts from the demo as seeded. Its tests run after the module's others
    (pytest_collection_modifyitems), which never see the demo. Tests take it by `demo_user`.
    """
    import io

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction
    from django.test.utils import override_settings

    from config.celery import app

    eager_before = app.conf.task_always_eager
    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
    try:
        # As `_fast_and_eager` and `_language_reset` do for a test (they run after this).
        app.conf.task_always_eager = True
        translation.activate(django_settings.LANGUAGE_CODE)
        with (
            django_db_blocker.unblock(),
            override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
        ):
            call_command("seed_demo", force=True, stdout=io.StringIO())
            user_id = get_user_model().objects.get(username="demo").pk
        app.conf.task_always_eager = eager_before
        yield user_id
    finally:
        app.conf.task_always_eager = eager_before
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def demo_user(request, demo_seeded, db, django_user_model):
    """The demo user, seeded once for the module (`demo_seeded`); the test's changes roll back."""
    if "transactional_db" in request.fixturenames or "live_server" in request.fixturenames:
        raise pytest.UsageError("demo_user needs the test in a transaction (the `db` fixture)")
    return django_user_model.objects.get(pk=demo_seeded)


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="alice-password-123")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="bob-password-1234")


@pytest.fixture
def charlie(django_user_model):
    return django_user_model.objects.create_user("charlie", password="charlie-password-1")


@pytest.fixture
def client_alice(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def reauth():
    """Return a function that marks a client's session as having just typed its password."""
    from accounts.reauth import REAUTH_KEY

    def mark(client):
        session = client.session
        session[REAUTH_KEY] = time.time()
        session.save()
        return client

    return mark


@pytest.fixture
def client_alice_reauth(client_alice, reauth):
    """Alice, logged in, with her password typed a moment ago (for exports, backup, delete)."""
    return reauth(client_alice)


@pytest.fixture
def client_charlie(client, charlie):
    client.force_login(charlie)
    return client


def broker_available() -> bool:
    """Return True when a real broker and PostgreSQL are configured for this run."""
    return bool(os.environ.get("CELERY_BROKER_URL")) and bool(os.environ.get("DATABASE_URL"))


def _worker_env() -> dict[str, str]:
    db = django_settings.DATABASES["default"]
    from django.db import connection

    name = connection.settings_dict["NAME"]
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db.get('USER') or ''}:{db.get('PASSWORD') or ''}@"
        f"{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"
    )
    env["DB_CONN_MAX_AGE"] = "0"
    # A killed worker's unacknowledged task comes back after this many seconds (600 in
    # production); short here so the worker-kill test sees the redelivery.
    env["CELERY_VISIBILITY_TIMEOUT"] = os.environ.get("CELERY_VISIBILITY_TIMEOUT", "10")
    return env


class WorkerProcess:
    """A real `celery worker` subprocess bound to the test database.

    On the run's broker, or on ``broker_url`` (a Redis of the test's own).
    """

    def __init__(self, broker_url: str = "") -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = ROOT / ".pytest-worker.log"
        self.broker_url = broker_url

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel=INFO",
            "--concurrency=1",
            "--pool=prefork",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"pytest-{os.getpid()}-{time.time_ns()}@%h",
        ]
        env = _worker_env()
        if self.broker_url:
            env["CELERY_BROKER_URL"] = self.broker_url
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        from celery import Celery

        from config.celery import app

        if self.broker_url:  # an app on its own broker (broker_url reads CELERY_BROKER_URL)
            app = Celery(set_as_current=False)
            app.conf.broker_read_url = app.conf.broker_write_url = self.broker_url
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                replies = app.control.ping(timeout=1.0)
            except Exception:
                replies = []
            if replies:
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited early; see {self.log}")
        raise RuntimeError(f"worker did not answer a ping within 60 s; see {self.log}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def celery_worker_process(transactional_db) -> Iterator[WorkerProcess]:
    """Start a real Celery worker against the real broker and the test database."""
    if not broker_available():
        pytest.skip("needs CELERY_BROKER_URL and DATABASE_URL (PostgreSQL)")
    from config.celery import app

    app.control.purge()
    worker = WorkerProcess()
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


class OwnRedis:
    """A Redis server of a test's own, on a free port, saving nothing."""

    def __init__(self, folder: Path) -> None:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.folder = folder
        self.start()

    def start(self) -> None:
        import socket

        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"]
            + ["--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not listen within 5 s")

    def restart(self) -> None:
        """Stop the server and start a new one on the same port: every key and connection lost."""
        self.stop()
        self.start()

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGCONT)  # a stopped server does not act on SIGTERM
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path) -> Iterator[OwnRedis]:
    """A Redis server of the test's own (stopped after the test, even a stopped one)."""
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    redis = OwnRedis(tmp_path)
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
def migrate_to(transactional_db):
    """Migrate the test database to some migrations for a migration test; return their apps.

    After the test the database goes back to the latest migrations: a later test on the same
    worker must find every column (left at an older state, PostgreSQL's next transactional
    tests failed on a column added since).
    """
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    def migrate(targets: list[tuple[str, str]]):
        executor = MigrationExecutor(connection)
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    yield migrate
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
