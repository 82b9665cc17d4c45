"""plotly.js is served from the installed plotly package: the same version as the Python library."""

from __future__ import annotations

import re
from pathlib import Path

import plotly
import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static
from django.urls import reverse
from plotly.offline import get_plotlyjs_version

from tests.factories import OfferFactory, PreferencesFactory

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


def served_version(text: str) -> str:
    match = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", text[:500])
    assert match, text[:200]
    return match.group(1)


def test_the_finder_gives_the_package_file():
    assert Path(finders.find("plotly/plotly.min.js")).resolve() == PACKAGE_JS
    # Nothing else of the package is served or collected (its data sets, its widget bundle).
    assert not finders.find("plotly/datasets/iris.csv.gz")
    assert not finders.find("plotly/widgetbundle.js")


def test_no_vendored_copy_is_left():
    assert list((ROOT / "static").rglob("plotly*")) == []


@pytest.mark.django_db
def test_the_served_plotly_js_is_the_python_package_bundle(client):
    response = client.get(static("plotly/plotly.min.js"))
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert served_version(body.decode("utf-8", "replace")) == get_plotlyjs_version()
    assert body == PACKAGE_JS.read_bytes()
    # plotly 7.1 bundles plotly.js 4.1.x: a new plotly pin brings its own plotly.js.
    assert plotly.__version__ == "7.1.0" and get_plotlyjs_version().startswith("4.1.")


@pytest.mark.django_db
def test_pages_load_that_file(client_alice, alice):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice)
    html = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert f'data-plotly-src="{static("plotly/plotly.min.js")}"' in html


def test_collectstatic_collects_plotly_js_alone_from_the_package(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    collected = tmp_path / "plotly" / "plotly.min.js"
    assert collected.read_bytes() == PACKAGE_JS.read_bytes()
    assert [p.name for p in (tmp_path / "plotly").iterdir()] == ["plotly.min.js"]


@pytest.mark.django_db
def test_the_offline_report_inlines_the_same_plotly_js(alice):
    from offers.export.comparison import comparison_build
    from offers.export.html import html_bytes

    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice)
    report = html_bytes(comparison_build(user=alice)).decode()
    assert f"plotly.js v{get_plotlyjs_version()}" in report
