"""Charts in the browser: drawn at phone width without sideways scrolling, and in dark mode."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.browser.conftest import run_axe

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def demo(reference_data: None) -> None:
    call_command("seed_demo", force=True, stdout=io.StringIO())


@pytest.fixture
def open_page(browser: Any, live_server: Any, demo: None) -> Iterator[Any]:
    """Return a function that opens a logged-in demo page at a size and colour scheme."""
    contexts: list[Any] = []

    def open_(url: str, viewport: dict[str, int], scheme: str = "light") -> Any:
        ctx = browser.new_context(
            base_url=live_server.url, viewport=viewport, color_scheme=scheme, locale="en-US"
        )
        ctx.set_default_timeout(20_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.js_errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
        page.goto(reverse("login"))
        page.fill("#id_username", "demo")
        page.fill("#id_password", "offerdesk-demo")
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/$"))
        page.goto(url)
        if page.locator("[data-chart]").count():
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-chart]')]"
                ".every(el => el.dataset.drawn === '1' && el.querySelector('.main-svg'))"
            )
        return page

    yield open_
    for ctx in contexts:
        ctx.close()


def charts_state(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-chart]')].map(el => ({
            id: el.dataset.chart, layout: el.dataset.layout,
            width: el.getBoundingClientRect().width,
            svgWidth: el.querySelector('.main-svg').getBoundingClientRect().width,
            columns: el._fullLayout.grid ? el._fullLayout.grid.columns : null,
            bars: el.querySelectorAll('.bars .point').length,
        }))"""
    )


def sideways(page: Any) -> int:
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def test_dashboard_charts_at_phone_width(open_page: Any) -> None:
    page = open_page(reverse("offers:dashboard"), PHONE)
    # The chance of the best choice comes after the page (htmx): wait for its chart too.
    page.wait_for_selector('[data-chart="fig-chance"] .main-svg')
    charts = charts_state(page)
    ids = ["fig-yearly", "fig-cumulative", "fig-scores", "fig-chance"]
    assert [c["id"] for c in charts] == ids
    for chart in charts:
        assert chart["layout"] == "narrow", chart
        assert chart["svgWidth"] <= chart["width"] + 1 <= PHONE["width"], chart
    yearly = charts[0]
    assert yearly["columns"] == 2  # two options a row, not twenty bars in one
    assert yearly["bars"] > 0
    assert sideways(page) <= 1
    assert page.js_errors == []

    # The same charts, turned to a wide screen, redraw with the wide layout.
    page.set_viewport_size(DESKTOP)
    page.wait_for_function(
        "() => document.querySelector('[data-chart=fig-yearly]').dataset.layout === 'wide'"
    )
    assert charts_state(page)[0]["columns"] == 5


@pytest.mark.parametrize(
    "url_name", ["offers:offer_compare", "offers:scenario_detail", "interviews:analytics"]
)
def test_other_chart_pages_at_phone_width(open_page: Any, url_name: str) -> None:
    from offers.models import Scenario

    kwargs = {}
    if url_name == "offers:scenario_detail":
        kwargs["pk"] = Scenario.objects.filter(owner__username="demo").order_by("pk").first().pk
    page = open_page(reverse(url_name, kwargs=kwargs or None), PHONE)
    charts = charts_state(page)
    assert charts and all(c["layout"] == "narrow" for c in charts)
    assert sideways(page) <= 1
    assert page.js_errors == []


def colours(page: Any) -> dict[str, str]:
    return page.evaluate(
        """() => ({
            background: getComputedStyle(document.body).backgroundColor,
            text: getComputedStyle(document.body).color,
            card: getComputedStyle(document.querySelector('.card')).backgroundColor,
            chartTitle: document.querySelector('[data-chart=fig-yearly] .gtitle').style.fill,
            chartTick: document.querySelector('[data-chart=fig-yearly] .ytick text').style.fill,
        })"""
    )


def luminance(rgb: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", rgb)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_dark_mode_follows_the_system_setting(open_page: Any) -> None:
    light = colours(open_page(reverse("offers:dashboard"), DESKTOP, "light"))
    dark_page = open_page(reverse("offers:dashboard"), DESKTOP, "dark")
    dark = colours(dark_page)
    assert dark["background"] != light["background"]
    assert luminance(dark["background"]) < 0.15 < 0.85 < luminance(light["background"])
    assert luminance(dark["text"]) > 0.8 and luminance(light["text"]) < 0.2
    assert luminance(dark["card"]) < 0.2
    # The charts take their text colour from the scheme too.
    assert luminance(dark["chartTitle"]) > 0.8 and luminance(light["chartTitle"]) < 0.2
    assert luminance(dark["chartTick"]) > 0.8
    assert dark_page.js_errors == []


def test_every_main_page_passes_axe_in_dark_mode(open_page: Any) -> None:
    from tests.browser.test_accessibility import main_pages

    urls = main_pages()
    page = open_page(urls[0], DESKTOP, "dark")
    found: dict[str, list[str]] = {}
    for url in urls:
        page.goto(url)
        if page.locator("[data-chart]").count():
            page.wait_for_selector('.chart[data-drawn="1"] .main-svg')
        for v in run_axe(page):
            found.setdefault(f"{v['id']}: {v['help']}", []).append(f"{url} {v['nodes'][:2]}")
    assert found == {}
    assert page.js_errors == []


def test_no_chart_toolbar_over_the_titles_at_phone_width(open_page: Any) -> None:
    # Issue 28: at 390 px plotly's modebar covered each chart's title; it is left off there.
    page = open_page(reverse("offers:dashboard"), PHONE)
    assert page.locator("[data-chart] .modebar").count() == 0
    wide = open_page(reverse("offers:dashboard"), DESKTOP)
    assert wide.locator("[data-chart] .modebar-container").count() >= 1


def test_the_monte_carlo_button_is_disabled_while_it_runs(open_page: Any) -> None:
    # Issue 28: under `make run` (Celery eager) the start request lasts the whole simulation;
    # the button stayed clickable. It is disabled, and says it is running, until the answer.
    from offers.models import Scenario

    scenario = Scenario.objects.get(offer__owner__username="demo", name="Trade comp for remote")
    page = open_page(reverse("offers:scenario_detail", args=[scenario.pk]), PHONE)
    release: list[Any] = []
    page.route("**/mc/start/", lambda route: release.append(route))
    button = page.locator("[data-mc-start] button")
    button.click()
    page.wait_for_function("() => document.querySelector('[data-mc-start] button').disabled")
    page.wait_for_function(  # "Running the simulation…" faded in beside it
        "() => getComputedStyle(document.querySelector('[data-mc-start] .htmx-indicator'))"
        ".opacity === '1'"
    )
    page.screenshot(path="/tmp/h5words-mc-running.png")
    release[0].abort()  # the request ends (here, refused): the button is usable again
    page.wait_for_function("() => !document.querySelector('[data-mc-start] button').disabled")
