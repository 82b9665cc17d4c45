"""The dashboard's first load stays under 500 KB at 50 options (bench/bench_page_weight.py).

Counted as the bench counts it, compressed: what a browser downloads over the README's path,
Caddy in front (deploy/Caddyfile's `encode`), the page and each fragment it loads with htmx
gzipped at Caddy's default level, each static file as whitenoise serves it (its gzip).
"""

from __future__ import annotations

import re
from pathlib import Path

import plotly
import pytest
from django.templatetags.static import static

from accounts.charts import PLOTLY_JS
from bench.bench_page_weight import LIMIT, documents, first_load
from bench.demo import grow_demo
from offers.models import Offer

ROOT = Path(__file__).resolve().parents[2]
FULL_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


def test_the_count_is_what_caddy_sends():
    # gzip without a level: Caddy's default (5), the level the bench compresses pages at.
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text("utf-8")
    assert re.search(r"^\s*encode zstd gzip$", caddyfile, re.MULTILINE)


@pytest.mark.django_db
def test_the_dashboards_first_load_at_50_options_is_under_500_kb(client, demo_user):
    grow_demo(demo_user, 50)
    assert Offer.objects.filter(owner=demo_user).count() == 50
    client.force_login(demo_user)
    docs = documents(client)
    assert list(docs) == ["/", "/chance/"]  # the page, then the fragment it loads on load
    assert b"(45)" in docs["/"] and b"(45)" in docs["/chance/"]  # all 50 options shown
    sizes = first_load(docs)
    assert static(PLOTLY_JS) in sizes and static("js/app.js") in sizes
    assert sum(sizes.values()) < LIMIT, sizes
    # The bound is one this test can miss: the same pages uncompressed with the full bundle.
    assert sum(first_load(docs, plotly_js=FULL_JS.read_bytes()).values()) > LIMIT
    assert sum(first_load(docs, compressed=False).values()) > sum(sizes.values()) + 100_000
