"""Figures are plotly's: validated when built, written by plotly's encoder, embedded as data."""

from __future__ import annotations

import base64
import json
import math
import re

import numpy as np
import plotly.graph_objects as go
import pytest
from django.template import Context, Template
from plotly.offline import get_plotlyjs_version

from accounts.charts import PLOTLY_JS, figure, figure_json, phone_title


def test_figure_is_a_validated_plotly_figure():
    fig = figure(
        [go.Bar(x=[1, 2], y=[3, 4]), {"type": "scatter", "x": [1], "y": [2]}],
        {"title": {"text": "Pay"}, "height": 300},
        narrow={"height": 420, "margin": {"t": 90}},
    )
    assert isinstance(fig, go.Figure)
    assert [t.type for t in fig.data] == ["bar", "scatter"]
    assert fig.layout.height == 300 and fig.layout.title.text == "Pay"
    # The phone layout travels with the figure, checked as a layout.
    assert fig.layout.meta["narrow"] == {"height": 420, "margin": {"t": 90}}


@pytest.mark.parametrize(
    ("data", "layout", "narrow"),
    [
        ([{"type": "bar", "colr": "#fff"}], {}, None),  # a misspelt trace property
        ([go.Bar(x=[1])], {"titel": {"text": "x"}}, None),  # a misspelt layout property
        ([go.Bar(x=[1])], {"barmode": "sideways"}, None),  # a value plotly does not know
        ([{"type": "bar", "xaxis": "x0"}], {}, None),  # a subplot reference plotly refuses
        ([go.Bar(x=[1])], {}, {"heigth": 400}),  # the phone layout is checked too
    ],
)
def test_an_invalid_property_raises_when_the_figure_is_built(data, layout, narrow):
    with pytest.raises(ValueError, match="Invalid"):
        figure(data, layout, narrow=narrow)


def test_a_trace_object_is_checked_when_it_is_made():
    with pytest.raises(ValueError, match="Invalid"):
        go.Bar(x=[1], marker={"colour": "#fff"})


def test_figure_json_is_written_by_plotly():
    fig = figure([{"type": "bar", "x": np.array([1, 2]), "y": [math.nan, 4.0]}], {})
    text = figure_json(fig)
    parsed = json.loads(text)  # strict JSON: NaN became null
    assert parsed["data"][0]["y"] == [None, 4.0]
    # A numpy array goes as plotly.js's typed array (base64), which plotly.js reads back.
    typed = parsed["data"][0]["x"]
    decoded = np.frombuffer(base64.b64decode(typed["bdata"]), dtype=typed["dtype"])
    assert decoded.tolist() == [1, 2]
    assert "NaN" not in text
    # No plotly.py theme: the page's stylesheet gives the colours (and keeps the JSON small).
    assert parsed["layout"]["template"] == {"data": {"scatter": [{"type": "scatter"}]}}
    assert parsed == json.loads(fig.to_json())


def test_the_template_filter_embeds_json_that_cannot_end_the_script():
    name = "</script><script>alert(1)</script> & <b>co</b>"
    fig = figure([go.Bar(x=[name], y=[1])], {})
    html = Template('{% load charts %}{{ fig|plotly_json_script:"fig-x" }}').render(
        Context({"fig": fig})
    )
    match = re.fullmatch(r'<script id="fig-x" type="application/json">(.*)</script>', html, re.S)
    assert match, html
    assert "<" not in match.group(1) and ">" not in match.group(1) and "&" not in match.group(1)
    assert json.loads(match.group(1))["data"][0]["x"] == [name]
    # A chart kept as JSON (the dashboard caches its charts so) embeds the same way.
    cached = Template('{% load charts %}{{ fig|plotly_json_script:"fig-x" }}').render(
        Context({"fig": figure_json(fig)})
    )
    assert cached == html


def test_phone_title_wraps_words_and_makes_room_for_them():
    short, short_top = phone_title("Pay by year")
    long, long_top = phone_title(
        "Internal transfer: Northwind Taipei minus AT&amp;T Research, by year",
        "4-year value from 30 Nov 2026 · USD · after tax · stock at the median share price",
    )
    assert short["text"] == "Pay by year"
    lines = long["text"].split("<br>")
    assert len(lines) >= 4
    assert all(len(re.sub(r"</?sub>", "", line)) <= 46 for line in lines)
    assert "AT&amp;T" in long["text"]  # an entity is never cut in two
    assert long_top > short_top and long["pad"]["t"] > short["pad"]["t"]


def test_plotly_js_path_names_the_version_the_python_library_bundles():
    assert f"vendor/plotly-{get_plotlyjs_version()}-offerdesk.min.js" == PLOTLY_JS
