"""Bytes the dashboard's first load transfers: the page, then its styles and scripts, gzipped.

The demo user's dashboard (seed_demo) on an empty browser cache: the HTML as Django sends it
(pages are not compressed: neither Django nor deploy/Caddyfile gzips them), and each static file
it loads (stylesheets, scripts, and the plotly.js that app.js adds when the page has a chart)
as whitenoise serves it: its gzip from collectstatic (`whitenoise.compress.Compressor`, level 9),
or the file itself where gzip saves less than 5 %. The baseline, measured in the same run, is
the same page drawing with the full plotly.js bundle of the Python plotly package (4.8 MB)
instead of Offerdesk's partial bundle (`accounts.charts.PLOTLY_JS`).

Run: python bench/bench_page_weight.py. Uses a scratch SQLite database of its own.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# What a browser fetches from the page: stylesheets, scripts, and the plotly.js of data-plotly-src.
ASSET_RE = re.compile(r'(?:<link[^>]+href|<script[^>]+src|data-plotly-src)="([^"]+)"')
LIMIT = 500_000  # issue 27: the dashboard's first load under 500 KB transferred


def transferred(data: bytes) -> int:
    """Return the bytes whitenoise sends for a file: its gzip, unless that saves under 5 %."""
    from whitenoise.compress import Compressor

    gz = Compressor.compress_gzip(data)
    return len(gz) if len(gz) / max(len(data), 1) <= 0.95 else len(data)


def static_bytes(url: str) -> bytes:
    """Return the content of the static file at `url` (as collectstatic would collect it)."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    assert url.startswith(settings.STATIC_URL), url  # all local: no CDN
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert found, url
    return Path(found).read_bytes()


def first_load(html: str, *, plotly_js: bytes | None = None) -> dict[str, int]:
    """Return the transferred bytes of the page and each asset it loads, by URL.

    `plotly_js` stands in for the file the page names as its plotly.js (the baseline's bundle).
    """
    from django.templatetags.static import static

    from accounts.charts import PLOTLY_JS

    sizes = {"(page HTML)": len(html.encode())}
    for url in dict.fromkeys(ASSET_RE.findall(html)):
        if url.startswith("data:"):
            continue  # the empty favicon: nothing is fetched
        is_plotly = url == static(PLOTLY_JS)
        data = plotly_js if is_plotly and plotly_js is not None else static_bytes(url)
        sizes[url] = transferred(data)
    return sizes


def dashboard_html() -> str:
    """Return the demo user's dashboard as a first visit after log-in receives it."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="demo"))
    response = client.get("/")
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    assert "data-chart=" in html, "the dashboard has no chart: nothing would load plotly.js"
    return html


def main() -> None:
    # Here, not at the top: tests import this module (`bench.bench_page_weight`) for its
    # figures, where bench/ is not on the path; run as a script, it is.
    from scratch import scratch_django  # bench/scratch.py

    scratch_django()
    import plotly
    from django.core.management import call_command

    call_command("seed_demo", verbosity=0)
    html = dashboard_html()
    full = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    ours = first_load(html)
    base = first_load(html, plotly_js=full.read_bytes())
    print("Dashboard first load, bytes transferred (gzip as whitenoise serves static files)")
    print(f"{'file':<48} {'partial bundle':>15} {'full plotly.js':>15}")
    for url in ours:
        print(f"{url:<48} {ours[url]:>15,} {base[url]:>15,}")
    total, total_base = sum(ours.values()), sum(base.values())
    print(f"{'total':<48} {total:>15,} {total_base:>15,}")
    print(f"ratio (partial / full): {total / total_base:.2f}; under {LIMIT:,}: {total < LIMIT}")


if __name__ == "__main__":
    main()
