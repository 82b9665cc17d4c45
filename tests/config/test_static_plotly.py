"""plotly.js is Offerdesk's partial bundle: the Python library's version, the traces the charts use."""

from __future__ import annotations

import json
import re
from pathlib import Path

import plotly
import plotly.graph_objects as go
import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static
from django.urls import reverse
from plotly.basedatatypes import BaseTraceType
from plotly.offline import get_plotlyjs_version

from accounts.charts import PLOTLY_JS
from tests.factories import OfferFactory, PreferencesFactory

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "static" / PLOTLY_JS
TOOLS = ROOT / "tools" / "plotly"
FULL_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
# Every trace type plotly knows, by the name a figure's JSON gives it ("bar", "funnel"...).
# (plotly.graph_objects imports its classes when first asked: dir() lists them, vars() not yet.)
TRACE_TYPES = {
    cls().type: cls.__name__
    for cls in (getattr(go, name) for name in dir(go) if name[:1].isupper())
    if isinstance(cls, type) and issubclass(cls, BaseTraceType)
}


def served_version(text: str) -> str:
    match = re.search(r"plotly\.js v(\d+\.\d+\.\d+)", text[:500])
    assert match, text[:200]
    return match.group(1)


def bundled_traces(text: str) -> set[str]:
    """Return the trace types a plotly.js bundle registers (each module says its name)."""
    return set(re.findall(r'moduleType:"trace",name:"(\w+)"', text))


def traces_in_source() -> set[str]:
    """Return the trace types the apps' figures use: ``go.Bar(`` objects and ``"type": "bar"`` specs."""
    used: set[str] = set()
    classes = {name: kind for kind, name in TRACE_TYPES.items()}
    for app in ("accounts", "compensation", "interviews", "offers"):
        for path in (ROOT / app).rglob("*.py"):
            text = path.read_text()
            used |= {classes[n] for n in re.findall(r"go\.(\w+)\(", text) if n in classes}
            used |= {t for t in re.findall(r'"type": "(\w+)"', text) if t in TRACE_TYPES}
    return used


def test_the_bundle_is_the_version_the_python_library_bundles():
    text = BUNDLE.read_text()
    assert served_version(text) == get_plotlyjs_version()
    # tools/plotly builds it from that plotly.js: a new plotly pin needs `make plotly` again.
    pinned = json.loads((TOOLS / "package.json").read_text())["devDependencies"]["plotly.js"]
    assert pinned == get_plotlyjs_version()
    lock = json.loads((TOOLS / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/plotly.js"]["version"] == pinned


def test_the_bundle_holds_every_trace_the_charts_draw_and_no_other():
    traces = bundled_traces(BUNDLE.read_text())
    assert traces == set(json.loads((TOOLS / "traces.json").read_text()))
    used = traces_in_source()
    assert {"scatter", "bar", "funnel"} <= used  # the scan finds the charts' traces
    assert used <= traces, f"add {sorted(used - traces)} to tools/plotly/traces.json, make plotly"
    # The full bundle has them all: this check reads real registrations.
    assert traces < bundled_traces(FULL_JS.read_text())


def test_no_full_bundle_is_served():
    assert Path(finders.find(PLOTLY_JS)).resolve() == BUNDLE
    assert not finders.find("plotly/plotly.min.js")
    assert [p.name for p in (ROOT / "static").rglob("plotly*")] == [BUNDLE.name]
    assert BUNDLE.stat().st_size < FULL_JS.stat().st_size / 3


@pytest.mark.django_db
def test_pages_load_the_bundle(client_alice, alice):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice)
    html = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert f'data-plotly-src="{static(PLOTLY_JS)}"' in html
    response = client_alice.get(static(PLOTLY_JS))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == BUNDLE.read_bytes()


def test_collectstatic_collects_the_bundle_and_its_gzip(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    collected = tmp_path / PLOTLY_JS
    assert collected.read_bytes() == BUNDLE.read_bytes()
    assert Path(f"{collected}.gz").stat().st_size < 420_000
    assert not (tmp_path / "plotly").exists()


@pytest.mark.django_db
def test_the_offline_report_inlines_the_bundle(alice):
    from offers.export.comparison import comparison_build
    from offers.export.html import html_bytes

    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice)
    report = html_bytes(comparison_build(user=alice)).decode()
    assert f"plotly.js v{get_plotlyjs_version()} (Offerdesk partial bundle" in report
