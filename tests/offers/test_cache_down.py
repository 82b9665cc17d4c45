"""With the cache unreachable, every page still answers: built uncached, nothing alarming said."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from django.urls import reverse

from config.settings import cache_settings
from tests.factories import (
    EquityGrantFactory,
    OfferFactory,
    PreferencesFactory,
    ScenarioFactory,
    SignOnFactory,
)

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# Nothing listens on port 1: every cache call fails at once (refused), and the short timeouts
# keep the test fast even where a closed port is dropped rather than refused.
UNREACHABLE = "redis://127.0.0.1:1/0"


def point_the_cache_nowhere(settings) -> None:
    """Point Django's cache at a Redis that is not there, as the settings would configure it."""
    caches = cache_settings(UNREACHABLE, "offerdesk")
    caches["default"]["OPTIONS"] = {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}
    settings.CACHES = caches


@pytest.fixture
def cache_down(settings):
    point_the_cache_nowhere(settings)


@pytest.fixture
def data(alice, django_capture_on_commit_callbacks):
    """Alice's committed options (two, with a sign-on and a grant) and a scenario on the first."""
    with django_capture_on_commit_callbacks(execute=True):
        PreferencesFactory(owner=alice)
        offers = []
        for name in ("Meta", "Google"):
            offer = OfferFactory(owner=alice, name=name)
            EquityGrantFactory(package=offer.package)
            SignOnFactory(package=offer.package)
            offers.append(offer)
        scenario = ScenarioFactory(owner=alice, offer=offers[0])
    return offers, scenario


def _pages(offers, scenario):
    first, second = offers
    return {
        "dashboard": reverse("offers:dashboard"),
        "offer": reverse("offers:offer_detail", args=[first.pk]),
        "negotiation": reverse("offers:negotiation", args=[first.pk]),
        "compare": reverse("offers:offer_compare") + f"?a={first.pk}&b={second.pk}",
        "report": reverse("offers:export_report"),
        "scenario": reverse("offers:scenario_detail", args=[scenario.pk]),
    }


PAGES = ["dashboard", "offer", "negotiation", "compare", "report", "scenario"]


@pytest.mark.parametrize("page", PAGES)
def test_pages_answer_with_the_cache_down(page, data, cache_down, client_alice_reauth):
    offers, scenario = data
    response = client_alice_reauth.get(_pages(offers, scenario)[page])
    assert response.status_code == 200
    body = response.content.decode()
    assert "unreachable" not in body
    assert offers[0].name in body


def test_a_cache_outage_is_logged_once(data, cache_down, client_alice, caplog):
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        assert client_alice.get(reverse("offers:dashboard")).status_code == 200
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in warnings] == ["config.cache"]
    assert "127.0.0.1:1" not in warnings[0].getMessage()  # the URL may hold a password


def test_the_same_figures_with_and_without_the_cache(data, client_alice, settings):
    url = reverse("offers:offer_compare")
    warm = client_alice.get(url).content
    point_the_cache_nowhere(settings)
    cold = client_alice.get(url).content
    assert _figures(warm) and _figures(cold) == _figures(warm)


def _figures(html: bytes) -> list[str]:
    return re.findall(r'class="num[^"]*">([^<]+)<', html.decode())


def test_only_config_cache_touches_djangos_cache():
    """Every other module goes through config.cache, whose errors are misses, not error pages."""
    direct = re.compile(
        r"from django\.core\.cache import [^\n]*\bcache\b|django\.core\.cache\.cache"
    )
    found = [
        str(path.relative_to(ROOT))
        for folder in ("accounts", "compensation", "config", "interviews", "offers")
        for path in (ROOT / folder).rglob("*.py")
        if direct.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["config/cache.py"]
