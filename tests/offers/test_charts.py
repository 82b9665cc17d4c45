"""The dashboard's and compare page's charts: plotly figures whose numbers are the board's."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import plotly.graph_objects as go
import pytest
from django.urls import reverse

from accounts.charts import plain
from compensation.engine.components import COMPONENTS
from offers import charts
from offers.board import board_build
from tests.factories import EquityGrantFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


def options_of(alice):
    """Give alice three options; return her."""
    PreferencesFactory(owner=alice)
    for name, base in (("Acme", "210000"), ("Beta & Co", "190000"), ("Gamma", "250000")):
        offer = OfferFactory(owner=alice, name=name, package__base=Decimal(base))
        EquityGrantFactory(package=offer.package)
    return alice


@pytest.fixture
def three_options(alice):
    return options_of(alice)


def page_figure(html: str, fig_id: str) -> dict:
    match = re.search(rf'<script id="{fig_id}" type="application/json">(.*?)</script>', html, re.S)
    assert match, f"no {fig_id}"
    return json.loads(match.group(1))


def by_axis(fig: dict) -> dict[str, list[dict]]:
    panels: dict[str, list[dict]] = {}
    for trace in fig["data"]:
        panels.setdefault(trace.get("xaxis", "x"), []).append(trace)
    return panels


def test_dashboard_charts_carry_the_boards_numbers(client_alice, three_options):
    html = client_alice.get(reverse("offers:dashboard")).content.decode()
    board = board_build(user=three_options)
    ranked = [ev for _r, ev in board.ranked]
    assert len(ranked) == 3

    yearly = page_figure(html, "fig-yearly")
    panels = by_axis(yearly)
    assert list(panels) == ["x", "x2", "x3"]  # one panel per option, in rank order
    shown = [*COMPONENTS, "tax", "net"] if board.basis.after_tax else list(COMPONENTS)
    for ev, (axis, traces) in zip(ranked, panels.items(), strict=True):
        layout_key = "xaxis" + axis[1:]
        assert yearly["layout"][layout_key]["title"]["text"] == plain(ev.offer.name)
        assert [t["legendgroup"] for t in traces] == shown
        for comp, trace in zip(shown, traces, strict=True):
            if comp == "net":
                expected = [round(v) for v in ev.values]
            elif comp == "tax":
                expected = [-round(v) for v in ev.component("tax")]
            else:
                expected = [round(v) for v in ev.component(comp)]
            assert trace["y"] == expected, (ev.offer.name, comp)
    # Every panel on one money scale; the basis in the title.
    assert all(yearly["layout"][f"yaxis{i}"]["matches"] == "y" for i in (2, 3))
    assert board.basis.label in yearly["layout"]["title"]["text"]

    cumulative = page_figure(html, "fig-cumulative")
    lines = [t for t in cumulative["data"] if t["mode"] == "lines+markers"]
    for ev, line in zip(ranked, lines, strict=True):
        assert line["name"] == plain(ev.offer.name)
        assert line["y"][-1] == round(ev.value)  # the running value ends on the headline

    scores = page_figure(html, "fig-scores")
    ranking = board.ranking
    for trace, criterion in zip(scores["data"], ranking[0].criteria, strict=True):
        assert trace["x"] == [round(r.criteria[criterion].contribution, 4) for r in ranking][::-1]


def test_dashboard_figures_are_built_once_per_board(
    client_alice, alice, monkeypatch, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # committed: the board is cached
        PreferencesFactory(owner=alice)
        OfferFactory(owner=alice, name="Acme")
        OfferFactory(owner=alice, name="Beta")
    calls = []
    real = charts.yearly_by_component

    def counting(board):
        calls.append(board)
        return real(board)

    monkeypatch.setattr(charts, "yearly_by_component", counting)
    first = client_alice.get(reverse("offers:dashboard")).content.decode()
    second = client_alice.get(reverse("offers:dashboard")).content.decode()
    assert len(calls) == 1
    assert page_figure(first, "fig-yearly") == page_figure(second, "fig-yearly")


def test_every_chart_has_a_phone_layout_that_plotly_accepts(three_options):
    board = board_build(user=three_options)
    a, b = (ev for _r, ev in list(board.ranked)[:2])
    for fig in (
        charts.yearly_by_component(board),
        charts.cumulative_with_bands(board),
        charts.score_contributions(board),
        charts.comparison_diff(a, b, "USD"),
    ):
        assert isinstance(fig, go.Figure)
        narrow = fig.layout.meta["narrow"]
        go.Layout(narrow)  # raises on an invalid property
        assert narrow["title"]["text"] and narrow["margin"]["t"] > 0
    yearly = charts.yearly_by_component(board)
    assert yearly.layout.grid.columns == 3  # three options side by side on a wide screen
    assert yearly.layout.meta["narrow"]["grid"]["columns"] == charts.FACETS_NARROW


def test_compare_chart_is_the_difference_of_the_two_options(client_alice, three_options):
    board = board_build(user=three_options)
    a, b = (ev for _r, ev in list(board.ranked)[:2])
    response = client_alice.get(reverse("offers:offer_compare"), {"a": a.key, "b": b.key})
    diff = page_figure(response.content.decode(), "fig-diff")
    shown = (*COMPONENTS, "tax") if a.basis.after_tax else COMPONENTS
    for comp, trace in zip(shown, diff["data"], strict=True):
        sign = -1 if comp == "tax" else 1
        expected = [sign * round(x - y) for x, y in zip(a.component(comp), b.component(comp))]
        assert trace["y"] == expected, comp


def test_the_compare_figure_is_built_once_per_board_and_pair(
    client_alice, alice, monkeypatch, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # committed: the board is cached
        options_of(alice)
    built = []
    real = charts.comparison_diff
    monkeypatch.setattr(charts, "comparison_diff", lambda *a: built.append(a[:2]) or real(*a))
    board = board_build(user=alice)
    a, b, c = (ev.key for _r, ev in board.ranked)
    url = reverse("offers:offer_compare")
    pages = [client_alice.get(url, {"a": a, "b": b}).content.decode() for _ in range(2)]
    assert len(built) == 1
    assert page_figure(pages[0], "fig-diff") == page_figure(pages[1], "fig-diff")
    client_alice.get(url, {"a": a, "b": c})
    assert len(built) == 2  # another pair: its own figure
    client_alice.get(url, {"a": a, "b": b})
    assert len(built) == 2


def test_a_long_list_charts_the_top_options_and_says_so(alice):
    PreferencesFactory(owner=alice)
    total = charts.CHART_OPTIONS + 2
    for i in range(total):
        OfferFactory(owner=alice, name=f"Option {i:02d}")
    board = board_build(user=alice)
    assert len(board.ranked) == total
    yearly = charts.yearly_by_component(board)
    top = [ev.offer.name for _r, ev in board.ranked][: charts.CHART_OPTIONS]
    titles = [yearly.layout[f"xaxis{'' if i == 0 else i + 1}"].title.text for i in range(len(top))]
    assert titles == [plain(n) for n in top]
    assert len({t.xaxis for t in yearly.data}) == charts.CHART_OPTIONS
    note = f"the top {charts.CHART_OPTIONS} of {total} options"
    assert note in yearly.layout.title.text
    assert note in charts.cumulative_with_bands(board).layout.title.text
