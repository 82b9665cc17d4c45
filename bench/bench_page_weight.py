"""Bytes the dashboard's first load transfers at 5 and 50 options, on the demo's real options.

The demo user's dashboard (seed_demo, grown to 50 options by bench/demo.py) on an empty browser
cache: the page, every fragment it loads with htmx on load (the chance of being the best
choice, `/chance/`), and each static file they load (stylesheets, scripts, and the plotly.js
that app.js adds when a page has a chart). Counted as a browser downloads them over the
README's path, Caddy in front (deploy/Caddyfile, `encode zstd gzip`): the page and its
fragments gzipped at level 5, Caddy's default; a static file as whitenoise serves it, its gzip
from collectstatic (`whitenoise.compress.Compressor`, level 9), or the file itself where gzip
saves less than 5 %. The pages' bytes as Django sends them, without a compressing proxy, are
printed beside. The baseline, measured in the same run, is the same load with the full plotly.js
bundle of the Python plotly package (4.8 MB) instead of Offerdesk's partial bundle
(`accounts.charts.PLOTLY_JS`).

Run: python bench/bench_page_weight.py. Uses a scratch SQLite database of its own.
"""

from __future__ import annotations

import gzip
import html
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# What a browser fetches from a page: stylesheets, scripts, and the plotly.js of data-plotly-src.
ASSET_RE = re.compile(r'(?:<link[^>]+href|<script[^>]+src|data-plotly-src)="([^"]+)"')
# A fragment htmx loads as soon as the page is there: an element with hx-trigger="load".
ON_LOAD_RE = re.compile(r'<[^>]*\bhx-trigger="load"[^>]*>')
HX_GET_RE = re.compile(r'\bhx-get="([^"]+)"')
LIMIT = 500_000  # issue 36: the dashboard's first load under 500 KB at 50 options
SIZES = (5, 50)
CADDY_GZIP_LEVEL = 5  # Caddy's `encode gzip` without a level


def transferred(data: bytes) -> int:
    """Return the bytes whitenoise sends for a file: its gzip, unless that saves under 5 %."""
    from whitenoise.compress import Compressor

    gz = Compressor.compress_gzip(data)
    return len(gz) if len(gz) / max(len(data), 1) <= 0.95 else len(data)


def proxied(data: bytes) -> int:
    """Return the bytes of a page or fragment as Caddy's `encode gzip` sends it."""
    return len(gzip.compress(data, compresslevel=CADDY_GZIP_LEVEL, mtime=0))


def static_bytes(url: str) -> bytes:
    """Return the content of the static file at `url` (as collectstatic would collect it)."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    assert url.startswith(settings.STATIC_URL), url  # all local: no CDN
    found = finders.find(url.removeprefix(settings.STATIC_URL))
    assert found, url
    return Path(found).read_bytes()


def documents(client: Any, url: str = "/") -> dict[str, bytes]:
    """Return the page at ``url`` and every fragment it, or a fragment, loads on load, by URL."""
    found: dict[str, bytes] = {}
    todo = [url]
    while todo:
        at = todo.pop(0)
        if at in found:
            continue
        # A fragment is asked for as htmx asks (HX-Request), the page as a first visit.
        response = client.get(at, headers={"HX-Request": "true"} if found else {})
        assert response.status_code == 200, (at, response.status_code)
        found[at] = response.content
        for tag in ON_LOAD_RE.findall(response.content.decode()):
            todo += [html.unescape(u) for u in HX_GET_RE.findall(tag)]
    return found


def first_load(
    docs: dict[str, bytes], *, plotly_js: bytes | None = None, compressed: bool = True
) -> dict[str, int]:
    """Return the transferred bytes of each page or fragment and each asset they load, by URL.

    ``compressed``: the pages as Caddy sends them (else as Django does); `plotly_js` stands in
    for the file the pages name as their plotly.js (the baseline's bundle).
    """
    from django.templatetags.static import static

    from accounts.charts import PLOTLY_JS

    sizes = {url: proxied(data) if compressed else len(data) for url, data in docs.items()}
    text = "".join(data.decode() for data in docs.values())
    for url in dict.fromkeys(ASSET_RE.findall(text)):
        if url.startswith("data:"):
            continue  # the empty favicon: nothing is fetched
        is_plotly = url == static(PLOTLY_JS)
        data = plotly_js if is_plotly and plotly_js is not None else static_bytes(url)
        sizes[url] = transferred(data)
    return sizes


def main() -> None:
    # Here, not at the top: tests import this module (`bench.bench_page_weight`) for its
    # figures, where bench/ is not on the path; run as a script, it is.
    from scratch import scratch_django  # bench/scratch.py
    from summary import kb, summary_row  # bench/summary.py

    scratch_django()
    import plotly
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.templatetags.static import static
    from django.test import Client

    from accounts.charts import PLOTLY_JS
    from bench.demo import grow_demo

    call_command("seed_demo", verbosity=0)
    user = get_user_model().objects.get(username="demo")
    client = Client()
    client.force_login(user)
    full = (Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js").read_bytes()
    print("Dashboard first load, bytes transferred: pages and fragments gzipped as Caddy sends")
    print("them (level 5), static files as whitenoise serves them")
    for n in SIZES:
        grow_demo(user, n)
        docs = documents(client)
        assert any(b"data-chart=" in d for d in docs.values()), "no chart: no plotly.js loaded"
        ours, base = first_load(docs), first_load(docs, plotly_js=full)
        raw = first_load(docs, compressed=False)
        print(f"\n{n} options")
        print(f"{'file':<46} {'partial bundle':>15} {'full plotly.js':>15} {'no proxy':>10}")
        for url in ours:
            print(f"{url:<46} {ours[url]:>15,} {base[url]:>15,} {raw[url]:>10,}")
        total, total_base, total_raw = sum(ours.values()), sum(base.values()), sum(raw.values())
        verdict = "within" if total < LIMIT else "OVER"
        print(f"{'total':<46} {total:>15,} {total_base:>15,} {total_raw:>10,}")
        print(
            f"ratio (partial / full): {total / total_base:.2f}; "
            f"under {LIMIT:,}: {verdict} (without a compressing proxy: {total_raw:,})"
        )
        plotly_js, page = ours[static(PLOTLY_JS)], ours["/"]
        loaded = [url for url in docs if url != "/"]
        fragments = sum(ours[url] for url in loaded)
        summary_row(
            f"the demo's dashboard at {n} options, first load, bytes transferred (the page "
            "and the fragments it loads gzipped as Caddy sends them, each stylesheet and script "
            "as whitenoise serves it)",
            f"**{kb(total)}** (target < {kb(LIMIT)}: {'met' if total < LIMIT else 'OVER'}): "
            f"plotly.js {kb(plotly_js)}, page HTML {kb(page)}, fragments ({', '.join(loaded)}) "
            f"{kb(fragments)}, other static files {kb(total - plotly_js - page - fragments)}; "
            f"without a compressing proxy {kb(total_raw)}",
            f"the same load with the full plotly.js bundle {kb(total_base)} (its plotly.js "
            f"{kb(base[static(PLOTLY_JS)])}): ratio {total / total_base:.2f}",
        )


if __name__ == "__main__":
    main()
