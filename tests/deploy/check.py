"""CI's deployment check (.ci/run, pass 2): the README's production commands and the Procfile,
run for real on a new PostgreSQL database and Redis, as a self-hoster would run them.

1. The checkout's files (as a fresh clone has them) are copied to a temporary folder.
2. A new, empty PostgreSQL database; two Redis database numbers, emptied.
3. The README's production block runs there with bash, line for line, except the values of the
   settings file it writes, offerdesk.env (this machine's database and Redis numbers, a fresh
   key, the host name): a new venv with the runtime lock alone, the settings file written
   (readable by its owner only) and loaded, migrate, check --deploy, load_reference (then: a
   shared tax location exists, before any demo data), the first account, collectstatic.
4. The Procfile's web, worker and beat start under honcho, the new venv's bin/ first on PATH
   (gunicorn's access log on, to read it afterwards), their settings read from offerdesk.env
   alone (`honcho -e`, as systemd's EnvironmentFile= reads it), none from this environment.
5. Requests go to 127.0.0.1 only, as the README's reverse proxy sends them (Host,
   X-Forwarded-Proto: https, X-Forwarded-For): /healthz answers JSON, all "ok" with a worker;
   plain HTTP is sent to HTTPS; the first account logs in; with the demo data and 51 options
   imported (more than LARGE_OPTIONS), a CSV export runs as a background job, finishes and
   downloads; a scenario's Monte Carlo finishes on the worker; a calendar feed answers GET and
   refuses a POST with 405; no log line of any process holds the feed's token.
6. Whatever happens, everything it started is stopped (honcho, then each process group honcho
   started), the database dropped and the Redis numbers emptied.

Bounded in time: the README's block (its pip install) at most INSTALL_SECONDS, the rest at most
RUN_SECONDS. Usage (the defaults are CI's):

    python -m tests.deploy.check [--port 8765] [--database offerdesk_deploy_check_x]
                                 [--redis-dbs 7,8] [--keep]

It needs honcho beside the Python that runs it (the development lock has it), createdb and
dropdb reaching PostgreSQL on 127.0.0.1:5432 as postgres, and redis-cli reaching 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import csv
import http.client
import io
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

from tests.deploy.readme import ROOT, SETTINGS_FILE, production_block, with_values

HOST = "offerdesk.example.com"  # a Host header only: nothing is resolved or contacted
CLIENT_ADDRESS = "203.0.113.7"  # the X-Forwarded-For the proxy would add (a header only)
INSTALL_SECONDS = 600
RUN_SECONDS = 120
# Exits 1 unless a shared place with a tax rule exists (run with the block's settings).
REFERENCE_LOADED = (
    "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
    "django.setup(); from compensation.models import LocationPreset; "
    "raise SystemExit(0 if LocationPreset.objects.filter(owner=None).exclude(tax_regime='')"
    ".exists() else 1)"
)
IMPORTED = 51  # options in the spreadsheet: with the demo's, above LARGE_OPTIONS (50)


class CheckFailed(Exception):
    pass


PASSED: list[str] = []  # each check that passed, for the closing line


def say(message: str) -> None:
    print(f"== deploy check: {message}", flush=True)


def passed(message: str) -> None:
    PASSED.append(message)
    say(message)


class Deadline:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.seconds = seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise CheckFailed(f"not done within {self.seconds:.0f} s")
        return left


# The deployment's files and settings -----------------------------------------------------


def checkout_copy(dest: Path) -> None:
    """Copy the files a fresh clone has (tracked, and new ones not ignored) to dest."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def settings_names() -> set[str]:
    """Return every variable .env.example lists: none of them leaks in from this shell."""
    text = (ROOT / ".env.example").read_text("utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))


def clean_environment() -> dict[str, str]:
    drop = settings_names() | {
        "DJANGO_SETTINGS_MODULE",
        "VIRTUAL_ENV",
        "PYTHONPATH",
        "PYTHONHOME",
        "PORT",
        "BEAT_SCHEDULE",
        "GUNICORN_CMD_ARGS",
    }
    return {k: v for k, v in os.environ.items() if k not in drop}


def run(command: list[str], *, log: Path, timeout: float, **kwargs) -> None:
    """Run a command to its end, its output in log; fail with the log's tail.

    In a process group of its own: on a time-out the whole group ends (bash and its pip).
    """
    with log.open("ab") as out:
        proc = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            **kwargs,
        )
        try:
            returncode = proc.wait(timeout=timeout)
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            if isinstance(sys.exc_info()[1], subprocess.TimeoutExpired):
                raise CheckFailed(f"{command[0]} took over {timeout:.0f} s; see {log}") from None
            raise
    if returncode != 0:
        tail = log.read_text("utf-8", "replace")[-4000:]
        raise CheckFailed(f"{' '.join(command)} exited {returncode}:\n{tail}")


# HTTP, as the reverse proxy forwards it -------------------------------------------------


class Browser:
    """A client of one session: cookies kept, requests sent as the README's proxy sends them."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        files: dict[str, tuple[str, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        https: bool = True,
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        sent = {"Host": HOST, "X-Forwarded-For": CLIENT_ADDRESS}
        if https:
            sent["X-Forwarded-Proto"] = "https"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if method != "GET":
            form = {**(form or {}), "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            sent["Origin"] = f"https://{HOST}"
            sent["Referer"] = f"https://{HOST}{path}"
            if files:
                boundary = uuid.uuid4().hex
                body = multipart(boundary, form, files)
                sent["Content-Type"] = f"multipart/form-data; boundary={boundary}"
            else:
                body = urllib.parse.urlencode(form).encode()
                sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if value and "max-age=0" not in cookie.lower():
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        return response.status, response.headers, data

    def get(self, path: str, **kwargs) -> tuple[int, http.client.HTTPMessage, bytes]:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs) -> tuple[int, http.client.HTTPMessage, bytes]:
        return self.request("POST", path, **kwargs)

    def log_in(self, username: str, password: str) -> None:
        status, _, _ = self.get("/accounts/login/")
        expect(status == 200, f"the log-in page answered {status}")
        status, headers, body = self.post(
            "/accounts/login/", form={"username": username, "password": password}
        )
        expect(
            status == 302 and headers["Location"] == "/",
            f"logging in as {username} answered {status} {headers.get('Location')}: {body[:300]!r}",
        )
        status, _, body = self.get("/")
        expect(status == 200, f"the dashboard after logging in answered {status}")


def multipart(boundary: str, form: dict[str, str], files: dict[str, tuple[str, bytes]]) -> bytes:
    parts = []
    for name, value in form.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    for name, (filename, data) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: text/csv\r\n\r\n'
        )
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts)


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def redirect_target(headers: http.client.HTTPMessage) -> str:
    return urllib.parse.urlsplit(headers.get("Location", "")).path


# The checks --------------------------------------------------------------------------------


def healthz_ok(port: int, deadline: Deadline) -> dict:
    """Wait for /healthz to answer 200 with every part "ok" (the worker too)."""
    answer: dict = {}
    while deadline.left():
        try:
            status, headers, body = Browser(port).get("/healthz")
        except OSError:
            time.sleep(0.5)
            continue
        expect(headers.get_content_type() == "application/json", f"/healthz is {headers}")
        answer = json.loads(body)
        if status == 200 and all(
            answer.get(k) == "ok" for k in ("database", "broker", "cache", "worker", "status")
        ):
            return answer
        time.sleep(0.5)
    return answer


def export_job(demo: Browser, deadline: Deadline) -> None:
    """Import IMPORTED options, then export them as CSV: a background job that must finish."""
    status, _, template = demo.get("/offers/import/template.csv")
    expect(status == 200, f"the import template answered {status}")
    rows = list(csv.reader(io.StringIO(template.decode("utf-8-sig"))))
    header, example = rows[0], rows[1]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for n in range(1, IMPORTED + 1):
        row = list(example)
        row[header.index("name")] = f"Deploy check option {n:02d}"
        writer.writerow(row)
    status, headers, body = demo.post(
        "/offers/import/", files={"file": ("options.csv", out.getvalue().encode())}
    )
    expect(status == 302, f"importing {IMPORTED} options answered {status}: {body[:500]!r}")
    status, headers, body = demo.post("/export/start/", form={"format": "csv"})
    job = redirect_target(headers)
    expect(
        status == 302 and re.fullmatch(r"/export/jobs/\d+/", job) is not None,
        f"the export did not start a background job: {status} {headers.get('Location')}",
    )
    while deadline.left():
        status, _, body = demo.get(job, headers={"HX-Request": "true"})
        expect(status == 200, f"the export job's page answered {status}")
        if b"badge-bad" in body:
            raise CheckFailed(f"the export job failed: {body[:500]!r}")
        if b"badge-good" in body:
            break
        time.sleep(1)
    status, headers, body = demo.get(job + "download/")
    expect(status == 200, f"the export's download answered {status}")
    expect(headers.get_content_type() == "text/csv", f"the export is {headers.get_content_type()}")
    expect(f"Deploy check option {IMPORTED:02d}".encode() in body, "the export lacks the options")
    passed(f"export job {job} finished on the worker ({len(body):,} bytes of CSV)")


def monte_carlo_start(demo: Browser) -> int:
    """Start a demo scenario's Monte Carlo (200,000 paths: the longest job); return its id."""
    status, _, page = demo.get("/scenarios/")
    found = re.search(rb'href="/scenarios/(\d+)/"', page)
    expect(status == 200 and found is not None, "no scenario on the demo's scenario list")
    pk = int(found.group(1))
    status, _, body = demo.post(f"/scenarios/{pk}/mc/start/", headers={"HX-Request": "true"})
    expect(status == 200, f"starting the Monte Carlo answered {status}")
    return pk


def monte_carlo_wait(demo: Browser, pk: int, deadline: Deadline) -> None:
    while deadline.left():
        status, _, body = demo.get(f"/scenarios/{pk}/mc/status/", headers={"HX-Request": "true"})
        expect(status == 200, f"the Monte Carlo's status answered {status}")
        if b"The simulation failed" in body:
            raise CheckFailed(f"the Monte Carlo failed: {body[:500]!r}")
        if b"Scenario beats it" in body:
            break
        time.sleep(1)
    passed(f"scenario {pk}'s Monte Carlo finished on the worker")


def calendar_feed(demo: Browser, port: int) -> str:
    """Turn a feed on; GET serves it, POST is 405 (no CSRF 403). Return its token."""
    status, _, _ = demo.post("/interviews/calendar/", form={"action": "reset"})
    expect(status == 302, f"turning the calendar feed on answered {status}")
    _, _, page = demo.get("/interviews/calendar/")
    found = re.search(rb"https://[^/\"]+(/interviews/calendar/feed/([^/\"]+)\.ics)", page)
    expect(found is not None, "no calendar feed link on the page")
    path, token = found.group(1).decode(), found.group(2).decode()
    app = Browser(port)  # a calendar app: no session, no CSRF token
    status, headers, body = app.get(path)
    expect(status == 200 and body.startswith(b"BEGIN:VCALENDAR"), f"the feed answered {status}")
    status, headers, _ = app.post(path)
    expect(status == 405 and headers["Allow"] == "GET, HEAD", f"a POST to the feed got {status}")
    return token


# Processes ------------------------------------------------------------------------------------


class Honcho:
    """The Procfile under honcho; stop() ends honcho and every process group it started."""

    def __init__(self, *, cwd: Path, env: dict[str, str], port: int, log: Path) -> None:
        honcho = Path(sys.executable).parent / "honcho"
        if not honcho.exists():
            raise CheckFailed(f"{honcho} is missing: install the development lock (make install)")
        self.log = log
        self.proc = subprocess.Popen(
            [str(honcho), "start", "--no-colour", "-p", str(port), "-e", SETTINGS_FILE],
            cwd=cwd,
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def children(self) -> list[int]:
        text = self.log.read_text("utf-8", "replace")
        return [int(pid) for pid in re.findall(r"\| \S+ started \(pid=(\d+)\)", text)]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        children = self.children()
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)  # honcho stops its processes (SIGKILL after 5 s)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        # Each process honcho started leads its own process group (gunicorn's and celery's
        # children in it): anything left of one is ended here.
        for pid in children:
            try:
                if os.getpgid(pid) == pid:
                    os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def check(*, port: int, database: str, redis_dbs: tuple[int, int], keep: bool) -> None:
    expect(port_free(port), f"port {port} is in use")
    expect(
        database.startswith("offerdesk_deploy_check"),
        "the database name must start with offerdesk_deploy_check",
    )
    work = Path(tempfile.mkdtemp(prefix="offerdesk-deploy-"))
    app = work / "offerdesk"
    app.mkdir()
    log = work / "commands.log"
    honcho: Honcho | None = None
    pg = ["-h", "127.0.0.1", "-p", "5432", "-U", "postgres"]
    redis = ["redis-cli", "-h", "127.0.0.1", "-p", "6379"]
    started = time.monotonic()
    try:
        say(f"copying the checkout to {app}")
        checkout_copy(app)
        run(["dropdb", *pg, "--if-exists", database], log=log, timeout=60)
        run(["createdb", *pg, database], log=log, timeout=60)
        for n in redis_dbs:
            run([*redis, "-n", str(n), "flushdb"], log=log, timeout=30)

        block = production_block()
        first_user = re.search(r"manage\.py create_user (\S+)", block)
        expect(first_user is not None, "the README's block creates no account")
        username, password = first_user.group(1), secrets.token_urlsafe(18)
        values = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{redis_dbs[0]}",
            "CACHE_URL": f"redis://127.0.0.1:6379/{redis_dbs[1]}",
            "ALLOWED_HOSTS": HOST,
            "SITE_URL": f"https://{HOST}",
            "TRUST_X_FORWARDED_PROTO": "1",
            "AXES_IPWARE_PROXY_COUNT": "1",
            # No mail server here: each message goes to the log, on purpose (no W001 warning).
            "EMAIL_URL": "console://",
        }
        script = work / "production.sh"
        script.write_text("set -euo pipefail\nset -x\n" + with_values(block, values), "utf-8")
        base = clean_environment()
        say(f"running the README's production block ({len(block.splitlines())} lines), log {log}")
        run(
            ["bash", str(script)],
            log=log,
            timeout=INSTALL_SECONDS,
            cwd=app,
            env={**base, "OFFERDESK_PASSWORD": password},
        )
        passed(
            f"the README's production block ran as written in {time.monotonic() - started:.0f} s"
        )
        deadline = Deadline(RUN_SECONDS)
        settings_env = {**base, **values}
        venv_bin = app / "venv" / "bin"
        # Before the demo adds its own: the block's load_reference gave the first account
        # places to pick, with a tax rule.
        run(
            [str(venv_bin / "python"), "-c", REFERENCE_LOADED],
            log=log,
            timeout=deadline.left(),
            cwd=app,
            env=settings_env,
        )
        passed("load_reference left shared tax locations for the first account")
        run(
            [str(venv_bin / "python"), "manage.py", "seed_demo", "--force"],
            log=log,
            timeout=deadline.left(),
            cwd=app,
            env=settings_env,
        )
        expect(
            (app / SETTINGS_FILE).stat().st_mode & 0o077 == 0,
            f"{SETTINGS_FILE} is readable by others",
        )
        process_env = {  # the settings from the block's file only (honcho -e)
            **base,
            "PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "GUNICORN_CMD_ARGS": "--access-logfile -",
        }
        say(f"starting the Procfile with honcho on 127.0.0.1:{port}, log {work / 'honcho.log'}")
        honcho = Honcho(cwd=app, env=process_env, port=port, log=work / "honcho.log")
        health = healthz_ok(port, deadline)
        expect(health.get("status") == "ok", f"/healthz never said all ok: {health}")
        passed(f"/healthz: {health}")

        status, headers, _ = Browser(port).get("/", https=False)
        expect(
            status == 301 and headers["Location"] == f"https://{HOST}/",
            f"plain HTTP was not sent to HTTPS: {status} {headers.get('Location')}",
        )
        passed("plain HTTP is redirected to HTTPS")
        first = Browser(port)
        first.log_in(username, password)
        expect("sessionid" in first.cookies, "no session cookie")
        passed(f"logged in as the README's first account {username!r}")

        demo = Browser(port)
        demo.log_in("demo", "offerdesk-demo")
        scenario = monte_carlo_start(demo)  # runs on one worker process while the export does
        export_job(demo, deadline)
        monte_carlo_wait(demo, scenario, deadline)
        token = calendar_feed(demo, port)
        passed("the calendar feed answers GET, and POST with 405")
        expect(honcho.alive(), "honcho stopped early")
        running = (work / "honcho.log").read_text("utf-8", "replace")
        for process in ("web.1", "worker.1", "beat.1"):
            expect(f"| {process} started (pid=" in running, f"{process} did not start")
            expect(f"| {process} stopped" not in running, f"{process} stopped early")
        expect("beat: Starting" in running, "celery beat did not start")
        honcho.stop()
        written = (work / "honcho.log").read_text("utf-8", "replace")
        expect(token not in written, "a calendar feed token reached the processes' log")
        expect("/calendar/feed/[redacted]" in written, "the access log shows no feed request")
        passed(
            f"web, worker and beat ran; no feed token in their log; {time.monotonic() - started:.0f} s in all"
        )
    except BaseException:
        for name in ("commands.log", "honcho.log"):
            path = work / name
            if path.exists():
                print(f"---- {name} (last 6,000 characters) ----")
                print(path.read_text("utf-8", "replace")[-6000:])
        raise
    finally:
        if honcho is not None:
            honcho.stop()
        subprocess.run(
            ["dropdb", *pg, "--if-exists", "--force", database], capture_output=True, timeout=60
        )
        for n in redis_dbs:
            subprocess.run([*redis, "-n", str(n), "flushdb"], capture_output=True, timeout=30)
        if not port_free(port):
            print(f"== deploy check: something still listens on {port}", flush=True)
        if keep:
            say(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--database", default=f"offerdesk_deploy_check_{os.getpid()}")
    parser.add_argument("--redis-dbs", default="7,8", help="broker,cache database numbers")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    broker, cache = (int(n) for n in args.redis_dbs.split(","))
    # Stopped from outside (CI's time limit): unwind, so that everything started is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        check(port=args.port, database=args.database, redis_dbs=(broker, cache), keep=args.keep)
    except CheckFailed as exc:
        print(f"== deploy check FAILED: {exc}", flush=True)
        print(f"deploy-check: {len(PASSED)} passed, 1 failed", flush=True)
        return 1
    print(f"deploy-check: {len(PASSED)} passed, 0 failed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
