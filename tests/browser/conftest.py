"""Fixtures for the end-to-end tests: Debian's Chromium driven by Playwright against live_server."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import NoReverseMatch, reverse

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run inside
# one unless told it is safe (it is: the loop only drives the browser). Set only while a browser
# is open: left in os.environ it would leak into the rest of the session (`check --deploy`
# rejects it, async.E001).
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"

CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(__file__).with_name("axe-4.14.1.min.js")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "e2e-Sturdy-passphrase-42"


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Skip the browser tests when Chromium is not installed (CI installs it)."""
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed")
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


def url_exists(name: str, **kwargs: Any) -> bool:
    """Return True when a URL name resolves (a page another engineer may not have built yet)."""
    try:
        reverse(name, kwargs=kwargs or None)
    except NoReverseMatch:
        return False
    return True


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous


@pytest.fixture
def reference_data(transactional_db: Any) -> None:
    """Shared companies, ladders, bands, FX and places that the offer form offers."""
    from compensation.demo import seed_reference

    seed_reference()


@pytest.fixture
def context(browser: Any, live_server: Any, reference_data: None) -> Iterator[Any]:
    ctx = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 1280, "height": 900},
        accept_downloads=True,
        locale="en-US",
        timezone_id="Asia/Taipei",
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    yield page
    page.close()


def signup(page: Any, username: str) -> None:
    """Create an account through the sign-up page; it logs the user in."""
    page.goto(reverse("signup"))
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    # The dashboard's own requests (its sections load after the page) write to the same SQLite
    # database as the test's next factory call: let them end first ("database table is locked").
    page.wait_for_load_state("networkidle")


def select_containing(page: Any, selector: str, text: str) -> None:
    """Pick the first option of a select whose label contains `text`."""
    value = page.eval_on_selector(
        selector,
        """(sel, text) => {
            const o = Array.from(sel.options).find(o => o.textContent.includes(text));
            return o ? o.value : null;
        }""",
        text,
    )
    assert value is not None, f"no option containing {text!r} in {selector}"
    page.select_option(selector, value)


def run_axe(page: Any) -> list[dict[str, Any]]:
    """Run axe-core on the page; return its serious and critical violations.

    The Content Security Policy blocks an injected inline <script>, but page.evaluate runs
    through the DevTools protocol, which CSP does not govern.
    """
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {
                resultTypes: ['violations'],
                runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']},
            });
            return r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '')),
            }));
        }"""
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]
