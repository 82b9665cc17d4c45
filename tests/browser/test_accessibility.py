"""axe-core on the main pages, keyboard access and the phone-width layout, on the demo data."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import NoReverseMatch, reverse

from tests.browser.conftest import run_axe

pytestmark = [pytest.mark.browser]


@pytest.fixture
def demo_page(page: Any) -> Any:
    """Seed the demo story and log in through the log-in form."""
    call_command("seed_demo", force=True, stdout=io.StringIO())
    page.goto(reverse("login"))
    page.fill("#id_username", "demo")
    page.fill("#id_password", "offerdesk-demo")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    return page


def main_pages() -> list[str]:
    from interviews.models import Process
    from offers.models import Offer, Scenario

    offer = Offer.objects.filter(owner__username="demo").order_by("pk").first()
    process = Process.objects.filter(owner__username="demo").order_by("pk").first()
    scenario = Scenario.objects.filter(owner__username="demo").order_by("pk").first()
    names = [
        ("offers:dashboard", {}),
        ("offers:offer_list", {}),
        ("offers:offer_detail", {"pk": offer.pk}),
        ("offers:offer_create", {}),
        ("offers:offer_compare", {}),
        ("offers:preferences", {}),
        ("interviews:board", {}),
        ("interviews:process_detail", {"pk": process.pk}),
        ("interviews:analytics", {}),
        ("interviews:question_log", {}),
        ("compensation:company_list", {}),
        ("compensation:package_detail", {"pk": offer.package_id}),
        ("offers:negotiation", {"pk": offer.pk}),
        ("offers:negotiation_log", {"pk": offer.pk}),
        ("offers:timeline", {}),
        ("offers:scenario_list", {}),
        ("offers:export", {}),
        ("offers:offer_import", {}),
        ("interviews:calendar_settings", {}),
    ]
    if scenario is not None:
        names.append(("offers:scenario_detail", {"pk": scenario.pk}))
    from django.utils import timezone

    from interviews.models import Round

    next_round = (
        Round.objects.filter(owner__username="demo", scheduled_at__gte=timezone.now())
        .order_by("scheduled_at")
        .first()
    )
    if next_round is not None:  # its prep brief
        names.append(("interviews:round_brief", {"pk": next_round.pk}))
    urls = []
    for name, kwargs in names:
        try:
            urls.append(reverse(name, kwargs=kwargs or None))
        except NoReverseMatch:
            continue
    return urls


def test_axe_keyboard_and_phone_width(demo_page: Any) -> None:
    page = demo_page
    found: dict[str, list[str]] = {}
    urls = main_pages()
    for url in urls:
        page.goto(url)
        if page.locator("[data-chart]").count():
            page.wait_for_selector('.chart[data-drawn="1"]', timeout=20_000)
        for v in run_axe(page):
            found.setdefault(f"{v['impact']} {v['id']}: {v['help']}", []).append(
                f"{url} {v['nodes'][:2]}"
            )
    page.context.clear_cookies()
    page.goto(reverse("login"))
    for v in run_axe(page):
        found.setdefault(f"{v['impact']} {v['id']}: {v['help']}", []).append("login")
    assert not found, "\n".join(f"{k}\n   " + "\n   ".join(v) for k, v in found.items())

    # Log in again: the axe pass on the log-in page cleared the session.
    page.goto(reverse("login"))
    page.fill("#id_username", "demo")
    page.fill("#id_password", "offerdesk-demo")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    # Keyboard: the skip link is the first stop and leads to the main content.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("() => location.hash") == "#main"

    # Phone width: nothing scrolls sideways but the tables and the board inside their boxes.
    page.set_viewport_size({"width": 390, "height": 844})
    for url in urls:
        page.goto(url)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"{url} scrolls sideways by {overflow}px at 390px"

    # The menu opens from the keyboard at phone width.
    page.goto(reverse("offers:dashboard"))
    assert not page.locator("nav.mainnav").is_visible()
    page.focus("#nav-toggle")
    page.keyboard.press("Space")
    assert page.locator("nav.mainnav").is_visible()
    assert page.locator("nav.mainnav a").first.is_visible()
