"""Capture screenshots of the main pages into docs/screenshots/.

Serves the app against a scratch SQLite database filled by `seed_demo` (log-in demo /
offerdesk-demo) and drives Debian's Chromium at 1280x900 (390x844 for the phone views).

    .venv/bin/python tests/browser/take_screenshots.py [--out DIR] [--full-page]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare_database(env: dict[str, str]) -> None:
    python = sys.executable
    for args in (["migrate", "--noinput", "-v0"], ["seed_demo"]):
        subprocess.run([python, "manage.py", *args], cwd=ROOT, env=env, check=True)


def start_server(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the development server exited early") from None
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("the development server did not answer within 60 s")


def demo_ids(env: dict[str, str]) -> dict[str, int]:
    """Return ids of the demo user's objects, read from the scratch database."""
    code = (
        "import json, django; django.setup();"
        "from django.utils import timezone;"
        "from offers.models import Offer, Scenario; from interviews.models import Process, Round;"
        "o = Offer.objects.filter(owner__username='demo').order_by('pk');"
        "s = Scenario.objects.filter(owner__username='demo').order_by('pk').first();"
        "p = Process.objects.filter(owner__username='demo', rounds__isnull=False)"
        ".order_by('pk').first();"
        "m = o.filter(name__startswith='Meta').first() or o.exclude(kind='stay').first();"
        "r = Round.objects.filter(owner__username='demo', scheduled_at__gt=timezone.now())"
        ".order_by('scheduled_at').first();"
        "print(json.dumps({'offer': m.pk, 'process': p.pk,"
        " 'scenario': s.pk if s else 0, 'round': r.pk if r else 0}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True
    )
    import json

    return json.loads(out.stdout.decode().strip().splitlines()[-1])


def settle(page) -> None:
    """Wait for the page's charts to be drawn (if it has any)."""
    page.wait_for_load_state("load")
    if page.locator("[data-chart]").count():
        try:
            page.wait_for_selector('.chart[data-drawn="1"] .main-svg', timeout=15_000)
        except Exception:  # the picture shows it; say so too
            print(f"warning: a chart was not drawn on {page.url}", file=sys.stderr)
    page.wait_for_timeout(300)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--full-page", action="store_true", help="capture whole pages")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="offerdesk-shots-") as tmp:
        env = dict(os.environ)
        env.update(
            SQLITE_PATH=str(Path(tmp) / "db.sqlite3"),
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="1",
            AXES_ENABLED="0",
            MEDIA_ROOT=str(Path(tmp) / "media"),
        )
        env.pop("DATABASE_URL", None)
        env.pop("CELERY_BROKER_URL", None)
        prepare_database(env)
        ids = demo_ids(env)
        port = free_port()
        server = start_server(env, port)
        base = f"http://127.0.0.1:{port}"
        scenario_url = f"/scenarios/{ids['scenario']}/" if ids["scenario"] else "/scenarios/"
        shots = [
            ("dashboard.png", "/"),
            ("interviews-board.png", "/interviews/"),
            ("process.png", f"/interviews/{ids['process']}/"),
            ("offer.png", f"/offers/{ids['offer']}/"),
            ("compare.png", "/offers/compare/"),
            ("negotiation.png", f"/offers/{ids['offer']}/negotiation/"),
            ("scenario.png", scenario_url),
            ("export.png", "/export/"),
            ("compensation.png", "/compensation/"),
            ("timeline.png", "/offers/timeline/"),
            ("prep-brief.png", f"/interviews/rounds/{ids['round']}/brief/"),
        ]
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                ctx = browser.new_context(
                    base_url=base, viewport=DESKTOP, locale="en-US", timezone_id="Asia/Taipei"
                )
                page = ctx.new_page()
                page.goto("/accounts/login/")
                settle(page)
                page.screenshot(path=options.out / "login.png", full_page=options.full_page)
                page.fill("#id_username", "demo")
                page.fill("#id_password", "offerdesk-demo")
                page.click("main button[type=submit]")
                page.wait_for_url(f"{base}/")
                for name, url in shots:
                    page.goto(url)
                    settle(page)
                    page.screenshot(path=options.out / name, full_page=options.full_page)
                    print(f"{name:24} {url}")

                # Traditional Chinese through the language select in the header.
                page.goto("/")
                with page.expect_navigation():
                    page.select_option("#lang-select", "zh-hant")
                settle(page)
                page.screenshot(
                    path=options.out / "dashboard-zh-hant.png", full_page=options.full_page
                )
                with page.expect_navigation():
                    page.select_option("#lang-select", "en")

                # Phones (390 px): the ranking as cards, the scenario form in one column.
                page.set_viewport_size(PHONE)
                phone_shots = [
                    ("dashboard-mobile.png", "/"),
                    ("scenario-mobile.png", scenario_url),
                    ("negotiation-mobile.png", f"/offers/{ids['offer']}/negotiation/"),
                ]
                for name, url in phone_shots:
                    page.goto(url)
                    settle(page)
                    page.screenshot(path=options.out / name, full_page=options.full_page)
                    print(f"{name:24} {url}")
                # The language select sits in the menu, folded away on a phone.
                page.click(".nav-toggle-label")
                with page.expect_navigation():
                    page.select_option("#lang-select", "zh-hant")
                page.goto("/offers/new/")
                settle(page)
                page.screenshot(
                    path=options.out / "offer-form-zh-hant-mobile.png", full_page=options.full_page
                )
                print(f"{'offer-form-zh-hant-mobile.png':24} /offers/new/")
                page.click(".nav-toggle-label")
                with page.expect_navigation():
                    page.select_option("#lang-select", "en")

                # Dark mode follows the system setting: the dashboard on a laptop and a phone.
                dark = browser.new_context(
                    base_url=base,
                    viewport=DESKTOP,
                    locale="en-US",
                    timezone_id="Asia/Taipei",
                    color_scheme="dark",
                )
                dark.add_cookies(ctx.cookies())
                page = dark.new_page()
                for name, size in (
                    ("dashboard-dark.png", DESKTOP),
                    ("dashboard-mobile-dark.png", PHONE),
                ):
                    page.set_viewport_size(size)
                    page.goto("/")
                    settle(page)
                    page.screenshot(path=options.out / name, full_page=options.full_page)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"screenshots in {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
