"""Load test on loopback: gunicorn + PostgreSQL, N logged-in users browsing the main pages.

Creates (and drops) its own database, migrates, seeds the demo data and one account like the
demo's for each virtual user (bench/demo.py's `demo_accounts`: its own offers, processes and
scenarios, so each user's pages are valued from a board of their own, not all cache hits of one
board), starts gunicorn (`config.wsgi` with `config/gunicorn.py`, 2 workers x 4 threads by
default) on 127.0.0.1 only, then for `--seconds` has `--users` threads, each logged in as its own
account, request the dashboard, offers list, an offer, its negotiation page, a scenario page,
the interviews board, the compensation list and (one request in ten) a scenario live update
(the htmx POST sent while typing: it values the typed terms and writes nothing). Every user
logs in and finds its own pages before the clock starts (a log-in hashes a password on purpose;
it is timed on its own). The workers share a Redis cache (`--cache-url`, default db 2 of
127.0.0.1:6379). Prints requests per second, p50/p95/p99 latency and the error count, the same
for a bare `/healthz` baseline, and the machine's load average before and after.

    .venv/bin/python bench/bench_load.py --seconds 60 --users 50
"""

from __future__ import annotations

import argparse
import http.client
import http.cookies
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/offerdesk_bench"
DEFAULT_CACHE = "redis://127.0.0.1:6379/2"
DEMO_USER, DEMO_PASSWORD = "demo", "offerdesk-demo"
# Run by `manage.py shell -c`: one account like the demo's a virtual user (bench/demo.py).
SEED_ACCOUNTS = (
    "import sys; sys.path.insert(0, 'bench'); from demo import demo_accounts; "
    "print(','.join(demo_accounts({count})))"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def psql(db_url: str, sql: str) -> None:
    parts = urllib.parse.urlsplit(db_url)
    admin = parts._replace(path="/postgres").geturl()
    subprocess.run(["psql", admin, "-q", "-c", sql], check=True)


class Session:
    """One user's cookie jar over one keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)
        self.cookies: dict[str, str] = {}
        # This user's own pages, scenario update URL and scenario version (`discover`).
        self.pages: list[str] = []
        self.post: str | None = None
        self.version = ""

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, str] | None = None,
        extra: dict[str, str] | None = None,
    ):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers.update(extra or {})
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{HOST}:{self.port}{path}"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # The server closed an idle keep-alive connection: like a browser, send a GET again
            # once on a new connection (a POST is not sent twice).
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            if method != "GET":
                raise
            self.conn.request(method, path, body=data, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            raise
        content = resp.read()
        for header in resp.headers.get_all("Set-Cookie") or []:
            cookie = http.cookies.SimpleCookie(header)
            for k, morsel in cookie.items():
                self.cookies[k] = morsel.value
        return resp.status, resp.getheader("Location", ""), content

    def login(self, username: str = DEMO_USER) -> None:
        self.request("GET", "/accounts/login/")
        status, location, _ = self.request(
            "POST",
            "/accounts/login/",
            {
                "username": username,
                "password": DEMO_PASSWORD,
                "csrfmiddlewaretoken": self.cookies.get("csrftoken", ""),
            },
        )
        if status != 302:
            raise RuntimeError(f"log-in failed: {status}")


def discover(s: Session) -> None:
    """Find the logged-in user's own pages, scenario update URL and scenario version."""
    pages = ["/", "/offers/", "/interviews/", "/compensation/"]
    _, _, body = s.request("GET", "/offers/")
    match = re.search(rb'href="(/offers/\d+/)"', body)
    if match:
        pages.append(match.group(1).decode())
    scenario_update, version = None, ""
    _, _, body = s.request("GET", "/scenarios/")
    match = re.search(rb'"/scenarios/(\d+)/', body)
    if match:
        pk = match.group(1).decode()
        status, _, page = s.request("GET", f"/scenarios/{pk}/")
        if status == 200:
            scenario_update = f"/scenarios/{pk}/update/"
            pages.append(f"/scenarios/{pk}/")
            found = re.search(rb'name="version" value="(\d+)"', page)
            version = found.group(1).decode() if found else ""
    offer = next((p for p in pages if re.fullmatch(r"/offers/\d+/", p)), None)
    if offer and s.request("GET", f"{offer}negotiation/")[0] == 200:
        pages.append(f"{offer}negotiation/")
    s.pages, s.post, s.version = pages, scenario_update, version


def page_kind(path: str) -> str:
    """Return a path with its ids as <id>: every user's offer page is one row of the figures."""
    return re.sub(r"/\d+/", "/<id>/", path)


def run_load(port: int, accounts: list[str], seconds: float) -> dict:
    """Log each virtual user in as its own account, then have them all browse for ``seconds``."""
    users = len(accounts)
    latencies: list[float] = []
    errors: list[str] = []
    by_path: dict[str, list[float]] = {}
    lock = threading.Lock()
    max_requests = 2_000_000  # a hard bound besides the time
    sessions: list[Session | None] = [None] * users
    login_s: list[float] = []

    def login(n: int) -> None:
        s = Session(port)
        t0 = time.perf_counter()
        try:
            s.login(accounts[n])
        except Exception as exc:
            with lock:
                errors.append(f"login: {exc}")
            return
        with lock:
            login_s.append(time.perf_counter() - t0)
        try:
            discover(s)  # its own pages, untimed: what it browses once the clock starts
        except Exception as exc:
            with lock:
                errors.append(f"discover: {exc}")
            return
        sessions[n] = s

    # Log everyone in first, four at a time: the timed part is browsing, not fifty password
    # hashes at once (each takes a core for a while on purpose), nor each board's first build.
    t_login = time.monotonic()
    pending = list(range(users))

    def login_worker() -> None:
        while True:
            with lock:
                if not pending:
                    return
                n = pending.pop()
            login(n)

    threads = [threading.Thread(target=login_worker, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    login_wall = time.monotonic() - t_login
    stop_at = time.monotonic() + seconds

    def user(n: int) -> None:
        s = sessions[n]
        if s is None:
            return
        pages, post, version = s.pages, s.post, s.version
        i = n
        while time.monotonic() < stop_at and len(latencies) < max_requests:
            i += 1
            t0 = time.perf_counter()
            path = f"POST {post}" if post and i % 10 == 0 else pages[i % len(pages)]
            try:
                if post and i % 10 == 0:
                    status, _, _ = s.request(
                        "POST",
                        post,
                        {
                            "csrfmiddlewaretoken": s.cookies.get("csrftoken", ""),
                            "name": "Bench scenario",
                            "extra_sign_on": "0",
                            "extra_stock_yearly": str(10000 + (n * 37 + i) % 40 * 1000),
                            "notes": f"bench {n}-{i}",
                            "version": version,
                        },
                        {"HX-Request": "true"},
                    )
                    ok = status == 200
                else:
                    status, _, _ = s.request("GET", pages[i % len(pages)])
                    ok = status == 200
            except Exception as exc:
                ok, status = False, repr(exc)
            elapsed = time.perf_counter() - t0
            with lock:
                latencies.append(elapsed)
                by_path.setdefault(page_kind(path), []).append(elapsed)
                if not ok:
                    errors.append(str(status))

    threads = [threading.Thread(target=user, args=(n,), daemon=True) for n in range(users)]
    t_start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 120)
    wall = time.monotonic() - t_start
    result = summarize(latencies, errors, wall)
    result["by_path"] = {p: summarize(v, [], wall) for p, v in sorted(by_path.items())}
    result["login"] = (len(login_s), login_wall, statistics.median(login_s) if login_s else 0.0)
    result["pages"] = next((s.pages for s in sessions if s is not None), [])
    result["post"] = any(s.post for s in sessions if s is not None)
    return result


def run_baseline(port: int, users: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def user() -> None:
        s = Session(port)
        while time.monotonic() < stop_at:
            t0 = time.perf_counter()
            try:
                status, _, _ = s.request("GET", "/healthz")
                ok = status == 200
            except Exception as exc:
                ok, status = False, repr(exc)
            with lock:
                latencies.append(time.perf_counter() - t0)
                if not ok:
                    errors.append(str(status))

    threads = [threading.Thread(target=user, daemon=True) for _ in range(users)]
    t_start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    return summarize(latencies, errors, time.monotonic() - t_start)


def summarize(latencies: list[float], errors: list[str], wall: float) -> dict:
    ordered = sorted(latencies) or [0.0]

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    return {
        "requests": len(latencies),
        "rps": len(latencies) / wall if wall else 0.0,
        "p50": pct(50),
        "p95": pct(95),
        "p99": pct(99),
        "mean": statistics.fmean(ordered) * 1000,
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:5],
    }


def show(label: str, r: dict) -> None:
    print(
        f"{label:<10} {r['requests']:>7} req  {r['rps']:>8.1f} req/s  "
        f"p50 {r['p50']:>7.1f} ms  p95 {r['p95']:>7.1f} ms  p99 {r['p99']:>7.1f} ms  "
        f"errors {r['errors']}" + (f"  {r['error_samples']}" if r["errors"] else "")
    )


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    # Here: tools/bench_readme.py imports this module for its services' defaults.
    from summary import summary_row  # bench/summary.py

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("BENCH_CACHE_URL", DEFAULT_CACHE),
        help="the cache every worker shares (empty: each process's own memory)",
    )
    args = parser.parse_args()
    if not 1 <= args.users <= 500 or not 0 < args.seconds <= 3600:
        parser.error("--users 1..500, --seconds up to 3600")
    db_name = urllib.parse.urlsplit(args.database_url).path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z0-9_]+", db_name):
        parser.error("database name must be a plain identifier")

    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": HOST,
        "AXES_ENABLED": "0",  # 50 users log in from one address
        "LOG_LEVEL": "ERROR",
        "DB_CONN_MAX_AGE": "60",
        "CACHE_URL": args.cache_url,
    }
    env.pop("CELERY_BROKER_URL", None)
    py = sys.executable
    psql(args.database_url, f"DROP DATABASE IF EXISTS {db_name}")
    psql(args.database_url, f"CREATE DATABASE {db_name}")
    server = None
    try:
        for cmd in (
            ["manage.py", "migrate", "--noinput", "-v0"],
            ["manage.py", "seed_demo", "--force"],  # a throw-away database
            ["manage.py", "collectstatic", "--noinput", "-v0"],
        ):
            subprocess.run([py, *cmd], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        t_seed = time.monotonic()
        made = subprocess.run(
            [py, "manage.py", "shell", "-c", SEED_ACCOUNTS.format(count=args.users)],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        accounts = made.stdout.split()[-1].split(",")
        assert len(set(accounts)) == args.users, accounts
        seed_s = time.monotonic() - t_seed
        server = subprocess.Popen(
            [
                py,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--config",
                "config/gunicorn.py",
                "--bind",
                f"{HOST}:{port}",
                "--workers",
                str(args.workers),
                "--threads",
                str(args.threads),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if Session(port).request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("gunicorn did not come up")
            time.sleep(0.3)
        print(
            f"gunicorn {args.workers}x{args.threads} on {HOST}:{port}, {args.users} users, "
            f"{args.seconds:.0f} s, cache {args.cache_url or 'local memory'}"
        )
        print(
            f"accounts: {args.users}, one a user, each seeded like the demo "
            f"({accounts[0]} ... {accounts[-1]}, {seed_s:.0f} s)"
        )
        print("machine:", os.cpu_count(), "cores, load average before", _load())
        base = run_baseline(port, args.users, min(args.seconds, 10))
        app = run_load(port, accounts, args.seconds)
        pages, post = app["pages"], app["post"]
        print(
            f"pages (the first user's; each user its own): {pages}; POST: "
            f"{'the scenario live update' if post else 'none (no scenario found)'}"
        )
        show("healthz", base)
        show("app", app)
        n_login, login_wall, login_p50 = app["login"]
        print(
            f"log-ins (and each user's pages found) before the clock: {n_login} in "
            f"{login_wall:.1f} s (p50 {login_p50 * 1000:.0f} ms a log-in)"
        )
        for path, r in app["by_path"].items():
            print(
                f"  {path:<32} {r['requests']:>6} req  p50 {r['p50']:>7.1f} ms  p95 {r['p95']:>7.1f} ms"
            )
        if base["p50"] and base["rps"]:
            print(
                f"ratio app/healthz: p50 x{app['p50'] / base['p50']:.1f}, "
                f"throughput x{app['rps'] / base['rps']:.2f}"
            )
        print("machine: load average after", _load())
        cache = "Redis" if args.cache_url.startswith("redis") else args.cache_url or "local memory"
        summary_row(
            f"gunicorn {args.workers}×{args.threads} (`config/gunicorn.py`) + PostgreSQL + "
            f"{cache} cache, {args.users} users (each logged in as its own demo-like account) "
            f"for {args.seconds:.0f} s through {len(pages)} pages"
            + (" and scenario updates" if post else ""),
            f"{app['rps']:.0f} req/s, p50 {app['p50']:.0f} ms, p95 {app['p95']:.0f} ms, p99 "
            f"{app['p99']:.0f} ms, {app['errors']} errors",
            f"`/healthz` by as many users for {min(args.seconds, 10):.0f} s: "
            f"{base['rps']:,.0f} req/s, p95 {base['p95']:.0f} ms",
        )
        return 1 if app["errors"] or base["errors"] else 0
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        if not args.keep_db:
            time.sleep(0.5)
            psql(
                args.database_url,
                f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname='{db_name}'",
            )
            psql(args.database_url, f"DROP DATABASE IF EXISTS {db_name}")


if __name__ == "__main__":
    sys.exit(main())
