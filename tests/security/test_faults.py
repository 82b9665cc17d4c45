"""Faults on the real services (issue 37, item 7): CI's broker pass, PostgreSQL and a real worker.

- The database refusing connections for a while (`ALLOW_CONNECTIONS false` and its sessions
  ended, on a database of the test's own copied from the test database): a signed-in page and
  /healthz answer 503 with Retry-After within seconds, never a 500; then 200 again.
- A worker's process group killed (SIGKILL) mid-export and mid-restore: the job ends, done
  once, by the redelivered message or by the owner's restart of the stalled job.
- A Redis of the test's own stopped (SIGSTOP) mid-request, between a command and its reply,
  under the Procfile's gunicorn: an export's publish and /healthz answer within seconds (503
  with Retry-After, or 200 where no broker is needed), ten health checks at once do not hold
  the pages, and once thawed the next job is done and the failed one stays failed.

The jobs are held at a known point by a row lock the test takes (its next write waits for
it): the kill lands mid-job however fast the machine is. The broker hands a dead worker's
message back once its visibility timeout has passed (VISIBILITY seconds for these workers), at
a worker's start or at its sweeps, which kombu makes every 100 s only: so the test restarts the
worker after that timeout, and its first sweep takes the message back. Each test stops what it
started (workers, its database, its locks), even on failure.
"""

from __future__ import annotations

import contextlib
import copy
import http.client
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import close_old_connections, connection
from django.urls import reverse

pytestmark = pytest.mark.broker

VISIBILITY = 1  # seconds: the restarted worker's broker hands back the dead attempt's message
ANSWER_WITHIN = 10.0  # seconds: every answer while the database refuses connections
JOB_ENDS_WITHIN = 30.0  # seconds from the kill: the job is done, by a restarted worker
RECORDS = 100  # of each kind (companies, packages, offers, scenarios) in the jobs' data
JOB_TASK = "offers.export.jobs.job_run_task"
STALLED = "This job stopped answering"


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL)")


def _wait(predicate: Callable[[], Any], timeout: float, what: str) -> float:
    """Wait until ``predicate()`` is true; return the seconds it took."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if predicate():
            return time.monotonic() - start
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@contextlib.contextmanager
def _pg(dbname: str, *, autocommit: bool = True) -> Iterator[Any]:
    """A psycopg connection of the test's own to ``dbname`` on the test database's server."""
    import psycopg

    db = settings.DATABASES["default"]
    conn = psycopg.connect(
        host=db.get("HOST") or "127.0.0.1",
        port=db.get("PORT") or 5432,
        user=db.get("USER") or None,
        password=db.get("PASSWORD") or None,
        dbname=dbname,
        autocommit=autocommit,
        connect_timeout=5,
    )
    try:
        yield conn
    finally:
        conn.close()


def _quoted(name: str) -> str:
    assert name.replace("_", "").isalnum(), name
    return f'"{name}"'


# The database refusing connections -------------------------------------------------------


@pytest.fixture
def own_database(transactional_db) -> Iterator[str]:
    """A copy of the test database (its migrations) that the app uses for the test; dropped after.

    The test database is the copy's template: no session may be open on it, the test's own
    included (PostgreSQL waits 5 s for any other to end).
    """
    _needs_postgres()
    name = f"faults_{secrets.token_hex(6)}"
    test_db = connection.settings_dict["NAME"]
    connection.close()
    with _pg("postgres") as admin:
        try:
            admin.execute(f"CREATE DATABASE {_quoted(name)} TEMPLATE {_quoted(test_db)}")
        except Exception as exc:  # say who still holds the test database
            sessions = admin.execute(
                "SELECT pid, application_name, state, query FROM pg_stat_activity"
                " WHERE datname = %s",
                [test_db],
            ).fetchall()
            raise AssertionError(f"{exc}; sessions on {test_db}: {sessions}") from exc
    try:
        connection.settings_dict["NAME"] = settings.DATABASES["default"]["NAME"] = name
        yield name
    finally:
        connection.close()
        connection.settings_dict["NAME"] = settings.DATABASES["default"]["NAME"] = test_db
        with _pg("postgres") as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")


@contextlib.contextmanager
def _refusing_connections(name: str) -> Iterator[None]:
    """``name`` refuses new connections and its sessions are ended; allowed again after."""
    with _pg("postgres") as admin:
        admin.execute(f"ALTER DATABASE {_quoted(name)} WITH ALLOW_CONNECTIONS false")
        try:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
            yield
        finally:
            admin.execute(f"ALTER DATABASE {_quoted(name)} WITH ALLOW_CONNECTIONS true")


def _timed(call: Callable[[], Any]) -> tuple[Any, float]:
    """Make a request as a server does, with Django's upkeep of the connections around it.

    A server's handler closes a connection that failed or is too old as each request starts
    and ends (`close_old_connections`, on request_started and request_finished); the test
    client leaves that out, so a connection broken once would stay broken for the whole test.
    """
    start = time.monotonic()
    close_old_connections()
    response = call()
    close_old_connections()
    return response, time.monotonic() - start


def test_the_database_refusing_connections_is_a_503_within_seconds_then_200(
    own_database, client, django_user_model, caplog
):
    user = django_user_model.objects.create_user("faults", password="faults-password-1")
    client.force_login(user)
    anonymous = client.__class__()
    page = reverse("offers:dashboard")
    assert _timed(lambda: client.get(page))[0].status_code == 200
    assert _timed(lambda: client.get("/healthz"))[0].status_code == 200

    post = reverse("offers:offer_list")
    calls = {
        "page": lambda: client.get(page),
        "healthz": lambda: client.get("/healthz"),
        "probe": lambda: anonymous.get("/healthz"),  # a load balancer's: no session
        "post": lambda: client.post(post, {"name": "x"}),
    }
    with caplog.at_level(logging.INFO), _refusing_connections(own_database):
        # Twice: the first after the sessions were ended, then each on a new connection.
        answers = [(what, *_timed(call)) for _ in range(2) for what, call in calls.items()]
        with (
            pytest.raises(Exception, match="not currently accepting connections"),
            _pg(own_database),
        ):
            pass  # the fault is real: the database itself refuses
    for what, response, took in answers:
        assert response.status_code == 503, (what, response.status_code)
        assert response["Retry-After"] == "30", what
        assert took < ANSWER_WITHIN, (what, took)
        if what in ("healthz", "probe"):
            assert response.json()["database"] == "error", what
    # One warning (the signed-in pages'), no error line a request or a probe, no traceback.
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "database unavailable: OperationalError"
    ]
    assert all(r.exc_info is None for r in caplog.records)

    # Allowed again: the same pages answer at once, the same session still signed in.
    response, took = _timed(lambda: client.get(page))
    assert response.status_code == 200 and took < ANSWER_WITHIN
    assert response.wsgi_request.user.pk == user.pk
    assert _timed(lambda: client.get("/healthz"))[0].json()["database"] == "ok"


# A worker killed mid-job -----------------------------------------------------------------


@pytest.fixture
def worker(request, transactional_db, monkeypatch, settings, tmp_path):
    """A real worker whose broker hands back a dead worker's message after VISIBILITY seconds.

    Its files (exports, uploads) go to the test's own folder; the worker is stopped after the
    test (`celery_worker_process`), the restarted one too.
    """
    monkeypatch.setenv("CELERY_VISIBILITY_TIMEOUT", str(VISIBILITY))
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path))
    settings.MEDIA_ROOT = tmp_path
    return request.getfixturevalue("celery_worker_process")


def _backup(owner, n: int = RECORDS) -> bytes:
    """A backup of ``n`` companies, packages, offers and scenarios (a copy of one of each)."""
    from offers.export.backup import backup_build
    from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory

    PreferencesFactory(owner=owner)
    ScenarioFactory(owner=owner, offer=OfferFactory(owner=owner, name="Seed"))
    doc = copy.deepcopy(backup_build(user=owner))
    company, package, offer, scenario = (
        doc[key][0] for key in ("companies", "packages", "offers", "scenarios")
    )
    ids = range(1, n + 1)
    doc["companies"] = [{**company, "id": i, "name": f"Company {i}"} for i in ids]
    doc["packages"] = [{**package, "id": i, "company": i, "name": f"Package {i}"} for i in ids]
    doc["offers"] = [{**offer, "id": i, "package": i, "name": f"Offer {i}"} for i in ids]
    doc["scenarios"] = [{**scenario, "id": i, "offer": i, "name": f"S {i}"} for i in ids]
    return json.dumps(doc).encode()


@contextlib.contextmanager
def _row_locked(table: str, where: str, params: list[Any]) -> Iterator[Any]:
    """Hold a row lock of ``table`` (the test database's), from a session of the test's own."""
    with _pg(connection.settings_dict["NAME"], autocommit=False) as lock:
        row = lock.execute(f"SELECT * FROM {table} WHERE {where} FOR UPDATE", params).fetchone()
        assert row is not None, (table, where, params)
        try:
            yield lock
        finally:
            lock.rollback()


def _waiting_on(lock) -> list[str]:
    """The statements of the other sessions that wait for ``lock``'s row lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT query FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
            [lock.info.backend_pid],
        )
        return [query for (query,) in cursor.fetchall()]


def _ended(job_id: int) -> Callable[[], bool]:
    from offers.models import Job

    return lambda: Job.objects.get(pk=job_id).status in (Job.Status.DONE, Job.Status.FAILED)


def _task_answered(worker, task_id: str, answer: str) -> bool:
    """True when the worker's log says the task ``task_id`` answered ``answer``."""
    line = f"job_run_task[{task_id}] succeeded in "
    text = worker.log.read_text(errors="replace")
    return any(line in ln and ln.endswith(f": '{answer}'") for ln in text.splitlines())


def _kill_while_waiting(worker, lock, write: str) -> float:
    """SIGKILL the worker's process group once its job's ``write`` waits for ``lock``.

    Return the kill's time. The dead worker's session ends once the lock is let go.
    """
    _wait(lambda: any(q.startswith(write) for q in _waiting_on(lock)), 30, f"the job's {write}")
    worker.kill(signal.SIGKILL)
    return time.monotonic()


def test_a_worker_killed_mid_export_has_it_done_once_by_the_restarted_worker(
    worker, alice, django_user_model
):
    from offers.export.jobs import job_create, job_path
    from offers.export.restore import backup_restore
    from offers.models import Job

    seed = django_user_model.objects.create_user("seed", password="seed-password-12")
    backup_restore(user=alice, raw=_backup(seed))
    job = job_create(user=alice, kind=Job.Kind.EXPORT, format="csv")  # published: autocommit
    _wait(lambda: Job.objects.get(pk=job.pk).status == Job.Status.RUNNING, 60, "the claim")
    # The export's next progress report waits for this lock: the kill lands mid-export.
    with _row_locked("offers_job", "id = %s", [job.pk]) as lock:
        killed_at = _kill_while_waiting(worker, lock, 'UPDATE "offers_job" SET "progress" = ')
    left = Job.objects.get(pk=job.pk)  # left behind, its file never written
    assert (left.status, left.file_path) == ("running", "") and left.progress < 90
    time.sleep(VISIBILITY + 0.2)  # the message is due back: the new worker's first sweep
    worker.start()
    _wait(_ended(job.pk), JOB_ENDS_WITHIN, "the export's end")
    took = time.monotonic() - killed_at

    done = Job.objects.get(pk=job.pk)
    assert (done.status, done.progress, done.errors) == ("done", 100, [])
    assert done.task_id == job.task_id  # the dead attempt's own message, redelivered
    lines = job_path(done).read_bytes().decode("utf-8-sig").splitlines()
    assert lines[0].startswith("option_key")
    assert sum(f"Offer {i}," in "\n".join(lines) for i in range(1, RECORDS + 1)) == RECORDS
    exports = list((settings.MEDIA_ROOT / "exports" / str(alice.pk)).iterdir())
    assert exports == [job_path(done)] and done.file_bytes == exports[0].stat().st_size
    assert took < JOB_ENDS_WITHIN


def test_a_worker_killed_mid_restore_restores_once_after_the_stalled_jobs_restart(
    worker, bob, client, settings, django_user_model
):
    from offers.export.jobs import job_path, restore_job_create
    from offers.models import Job, Offer, Preferences, Scenario
    from tests.factories import PreferencesFactory

    seed = django_user_model.objects.create_user("seed", password="seed-password-12")
    raw = _backup(seed)
    PreferencesFactory(owner=bob)
    client.force_login(bob)
    # The restore writes every row, then bob's preferences: that last write waits for the
    # lock, in the restore's one transaction. The kill lands with every row written, uncommitted.
    with _row_locked("offers_preferences", "owner_id = %s", [bob.pk]) as lock:
        job = restore_job_create(user=bob, raw=raw)  # published: autocommit
        killed_at = _kill_while_waiting(worker, lock, 'UPDATE "offers_preferences" SET ')
    upload = job_path(job)
    left = Job.objects.get(pk=job.pk)
    assert (left.status, left.progress) == ("running", 5)
    assert not Offer.objects.filter(owner=bob).exists()  # the dead transaction restored nothing
    assert upload.is_file()  # kept for the next attempt

    page = reverse("offers:export_job", args=[job.pk])
    restart = reverse("offers:export_job_restart", args=[job.pk])
    assert STALLED not in client.get(page).content.decode()  # within its limit (1900 s)
    # A limit of a second for the test: past it, the page offers the restart.
    settings.TASK_TIME_LIMITS = {**settings.TASK_TIME_LIMITS, JOB_TASK: (1, 1)}
    _wait(lambda: STALLED in client.get(page).content.decode(), 10, "the stalled job's page")
    assert client.post(restart)["Location"] == page
    restarted = Job.objects.get(pk=job.pk)
    assert restarted.status == "queued" and restarted.task_id != job.task_id
    time.sleep(max(0.0, killed_at + VISIBILITY + 0.2 - time.monotonic()))
    worker.start()  # takes the restart's message, and the dead attempt's back from the broker
    _wait(_ended(job.pk), JOB_ENDS_WITHIN, "the restore's end")
    took = time.monotonic() - killed_at
    _wait(lambda: _task_answered(worker, job.task_id, "skipped"), 10, "the dead attempt's message")

    done = Job.objects.get(pk=job.pk)
    assert (done.status, done.errors, done.task_id) == ("done", [], restarted.task_id)
    assert _task_answered(worker, restarted.task_id, "done")
    assert done.counts["offers"] == RECORDS and done.counts["scenarios"] == RECORDS
    # Restored once: one of each record, not two.
    assert Offer.objects.filter(owner=bob).count() == RECORDS
    assert Scenario.objects.filter(owner=bob).count() == RECORDS
    assert Preferences.objects.filter(owner=bob).count() == 1
    assert not upload.exists() and done.file_path == ""
    assert "Backup restored: " in client.get(page).content.decode()
    assert took < JOB_ENDS_WITHIN


# Redis frozen mid-request ----------------------------------------------------------------


class _FreezingProxy:
    """A TCP proxy in front of a Redis that, armed, stops it (SIGSTOP) as a command passes.

    The command still reaches the stopped server (the kernel holds it) and its reply never
    comes: the client that sent it is frozen between its connect and the reply, mid-request,
    on a connection it may have pooled long before. Threads end with their sockets.
    """

    def __init__(self, redis: Any) -> None:
        self.redis = redis  # tests.conftest.OwnRedis
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.pattern: bytes | None = None
        self.stopped_on: list[bytes] = []  # each command the Redis was stopped on
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def arm(self, pattern: bytes = b"") -> None:
        """Stop the Redis as the next command holding ``pattern`` passes (any, if empty)."""
        with self.lock:
            self.pattern = pattern

    def thaw(self) -> None:
        self.redis.proc.send_signal(signal.SIGCONT)

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.redis.port))
            except OSError:
                client.close()
                continue
            self.sockets += [client, server]
            threading.Thread(target=self._pipe, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, False), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, commands: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if commands:
                    with self.lock:
                        if self.pattern is not None and self.pattern in data:
                            self.redis.proc.send_signal(signal.SIGSTOP)
                            self.stopped_on.append(data)
                            self.pattern = None
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


class _Site:
    """The Procfile's web process (gunicorn, one process of four threads) on the test database.

    Requests are a signed-in browser's (its session cookie, a CSRF cookie and header); each
    returns the status, the headers, the body and the seconds it took.
    """

    def __init__(self, env: dict[str, str], log: Path, session: str, proxy: _FreezingProxy):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.proxy, self.log = proxy, log
        self.csrf = secrets.token_hex(16)
        self.cookie = f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={self.csrf}"
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.py"]
                + ["--bind", f"127.0.0.1:{self.port}", "--workers", "1"],
                cwd=settings.BASE_DIR,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def request(self, method: str, path: str, body: str = "") -> tuple[int, Any, str, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.monotonic()
        try:
            conn.request(method, path, body=body or None, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
        finally:
            conn.close()
        return response.status, response.headers, text, time.monotonic() - start

    def wait_up(self) -> None:
        def up() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", self.port)) == 0

        _wait(up, 60, "gunicorn to listen")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


@pytest.fixture
def frozen_site(request, transactional_db, alice, client, reauth, monkeypatch, settings, tmp_path):
    """The web process, its broker through a `_FreezingProxy`, a worker on the Redis itself.

    Alice is signed in (her password typed a moment ago) with more than LARGE_OPTIONS offers,
    so an export is a job. The cache and the worker talk to the Redis directly: only the web
    process's broker commands can arm the freeze. All is stopped after the test.
    """
    from offers.export import LARGE_OPTIONS
    from offers.export.restore import backup_restore
    from tests.conftest import WorkerProcess, _worker_env, broker_available

    if not broker_available():
        pytest.skip("needs CELERY_BROKER_URL and DATABASE_URL (PostgreSQL)")
    redis = request.getfixturevalue("own_redis")
    seed = alice.__class__.objects.create_user("seed", password="seed-password-12")
    backup_restore(user=alice, raw=_backup(seed, LARGE_OPTIONS + 1))
    client.force_login(alice)
    reauth(client)
    monkeypatch.setenv("MEDIA_ROOT", str(tmp_path))
    settings.MEDIA_ROOT = tmp_path
    proxy = _FreezingProxy(redis)
    env = {
        **_worker_env(),
        "DEBUG": "1",
        "SECRET_KEY": settings.SECRET_KEY,  # the session's signature
        "ALLOWED_HOSTS": "127.0.0.1",
        "CELERY_BROKER_URL": proxy.url(0),
        "CACHE_URL": redis.url(1),
        "HEALTH_WORKER_CACHE": "1",  # /healthz pings the worker again a second later
    }
    worker = WorkerProcess(broker_url=redis.url(0))
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    site = _Site(env, tmp_path / "web.log", session, proxy)
    try:
        worker.start()
        site.wait_up()
        yield site
    finally:
        site.stop()
        worker.stop()
        proxy.close()


def _job_page(location: str) -> int:
    """The job's id in the export's redirect to its page."""
    from offers.models import Job

    job_id = int(location.rstrip("/").rsplit("/", 1)[-1])
    assert Job.objects.filter(pk=job_id).exists(), location
    return job_id


def test_a_redis_frozen_mid_request_answers_within_seconds_and_every_job_ends(frozen_site, alice):
    from concurrent.futures import ThreadPoolExecutor

    from offers.models import Job

    site = frozen_site
    export = (reverse("offers:export_start"), "format=csv")
    # Warm: the web process has its broker and cache connections pooled, a worker answers.
    status, headers, _, _ = site.request("POST", *export)
    assert status == 302, status
    first = _job_page(headers["Location"])
    _wait(_ended(first), JOB_ENDS_WITHIN, "the first export")
    _wait(lambda: json.loads(site.request("GET", "/healthz")[2])["worker"] == "ok", 30, "a ping")

    # An export whose publish is frozen on its pooled connection: the job is written, then its
    # message hangs. One socket timeout (a retry's reconnect cost two more: 9 s), then a 503.
    site.proxy.arm()
    status, headers, body, took = site.request("POST", *export)
    assert [c.split(b"\r\n")[2] for c in site.proxy.stopped_on] == [b"LPUSH"]
    frozen = Job.objects.filter(owner=alice).exclude(pk=first).get()
    assert (status, headers["Retry-After"]) == (503, "30"), (status, body[:300])
    assert took < settings.SERVICE_TIMEOUT + 2, took
    assert "The task queue is unreachable" in body
    assert frozen.status == "failed" and "could not be reached" in frozen.errors[0]
    # Still frozen: a page that needs no broker works, behind ten health checks at once too
    # (each held one of the four server threads for 5 s: the last answered after 13 s and the
    # page after 8); /healthz says the broker is down.
    with ThreadPoolExecutor(11) as pool:
        checks = [pool.submit(site.request, "GET", "/healthz") for _ in range(10)]
        time.sleep(0.2)
        page = site.request("GET", reverse("offers:dashboard"))
        answers = [check.result() for check in checks]
    assert page[0] == 200 and page[3] < ANSWER_WITHIN, page[::3]
    assert all(took < ANSWER_WITHIN for *_, took in answers), [a[::3] for a in answers]
    # One asked the broker (a 503); the others meanwhile had its last answer (ok) at once.
    assert sorted(status for status, *_ in answers)[-1] == 503
    status, headers, body, took = site.request("GET", "/healthz")
    assert (status, headers["Retry-After"], took < ANSWER_WITHIN) == (503, "30", True), body
    assert json.loads(body)["broker"] == "error"
    site.proxy.thaw()

    # Thawed: the failed job's page says why; the next export is done by the worker, through
    # the same pools, and the failed one stays failed (the frozen publish may deliver its
    # message late: the claim refuses a failed job).
    status, _, body, _ = site.request("GET", reverse("offers:export_job", args=[frozen.pk]))
    assert status == 200 and "could not be reached" in body
    status, headers, _, _ = site.request("POST", *export)
    assert status == 302, status
    after = _job_page(headers["Location"])
    _wait(_ended(after), JOB_ENDS_WITHIN, "the export after the thaw")
    assert Job.objects.get(pk=after).status == "done"
    assert Job.objects.get(pk=frozen.pk).status == "failed"

    # /healthz frozen as it connects to the broker, then as it pings the worker (the broker's
    # own check passed): a 503, then a 200 that says no worker answered, within seconds.
    for pattern, answer, worker in ((b"PING", 503, "unknown"), (b"pidbox", 200, "no answer")):
        time.sleep(1.1)  # the last worker answer is old (HEALTH_WORKER_CACHE): it pings again
        stops = len(site.proxy.stopped_on)
        site.proxy.arm(pattern)
        status, _, body, took = site.request("GET", "/healthz")
        assert len(site.proxy.stopped_on) == stops + 1  # stopped in this request
        assert (status, json.loads(body)["worker"]) == (answer, worker), (pattern, body)
        assert took < ANSWER_WITHIN, (pattern, took)
        site.proxy.thaw()
        _wait(lambda: site.request("GET", "/healthz")[0] == 200, 30, "/healthz after the thaw")
