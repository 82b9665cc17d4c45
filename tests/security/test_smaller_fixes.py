"""The smaller holes of issue 18: far round dates, trash restores, CSV formulas, chart labels."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from plotly.basedatatypes import BaseFigure

from accounts.charts import plain
from accounts.models import Revision
from interviews.forms import QuickRoundForm, RoundForm
from interviews.models import Round
from offers import charts
from offers.board import board_build
from offers.export import neutralise
from offers.export.comparison import comparison_build
from offers.export.html import report_context
from offers.models import Offer
from tests.factories import OfferFactory, PreferencesFactory
from tests.interviews.factories import ProcessFactory, RoundFactory
from tests.interviews.test_views import round_post

LINK = '<a href="https://evil.example/">Acme</a>'


@pytest.mark.django_db
@pytest.mark.parametrize("form_class", [RoundForm, QuickRoundForm])
def test_round_at_9999_12_31_in_adak_is_a_form_error(alice, form_class):
    process = ProcessFactory(owner=alice)
    data = round_post(scheduled_at="9999-12-31T23:59", timezone="America/Adak")
    form = form_class(data, process=process)
    assert not form.is_valid()
    assert form.errors["scheduled_at"] == ["9999-12-31T23:59:00 is outside the years 1900 to 2200"]


@pytest.mark.django_db
@pytest.mark.parametrize("quick", ["", "1"])
def test_round_at_9999_12_31_in_adak_is_not_a_500_on_create(client_alice, alice, quick):
    process = ProcessFactory(owner=alice)
    data = round_post(scheduled_at="9999-12-31T23:59", timezone="America/Adak", quick=quick)
    response = client_alice.post(reverse("interviews:round_create", args=[process.pk]), data)
    assert response.status_code in (200, 400)
    assert "9999-12-31T23:59:00 is outside the years 1900 to 2200" in response.content.decode()
    assert not Round.objects.exists()


@pytest.mark.django_db
def test_round_at_9999_12_31_in_adak_is_not_a_500_on_edit(client_alice, alice):
    round_ = RoundFactory(owner=alice)
    data = round_post(version="1", scheduled_at="9999-12-31T23:59", timezone="America/Adak")
    response = client_alice.post(reverse("interviews:round_edit", args=[round_.pk]), data)
    assert response.status_code in (200, 400)
    assert "9999-12-31T23:59:00 is outside the years 1900 to 2200" in response.content.decode()
    round_.refresh_from_db()
    assert round_.scheduled_at.year == 2026


@pytest.mark.django_db
def test_restore_offer_from_trash_after_its_process_was_deleted(client_alice, alice):
    process = ProcessFactory(owner=alice)
    offer = OfferFactory(owner=alice, name="Keep me", process=process, company=process.company)
    assert client_alice.post(reverse("offers:offer_delete", args=[offer.pk])).status_code == 302
    revision = Revision.objects.get(owner=alice, action="deleted")
    url = reverse("interviews:process_delete", args=[process.pk])
    assert client_alice.post(url, {"confirm": "1"}).status_code == 302
    response = client_alice.post(reverse("offers:revision_restore", args=[revision.pk]))
    assert response.status_code == 302
    restored = Offer.objects.get(pk=offer.pk)
    assert restored.process_id is None
    assert client_alice.get(reverse("offers:offer_detail", args=[offer.pk])).status_code == 200


@pytest.mark.parametrize(
    "value", [" =1+1", "\n=1+1", "  \r\n=HYPERLINK(1)", "\t@SUM(A1)", " +1", "\n-1+1"]
)
def test_csv_neutralise_catches_a_leading_space_or_newline_before_a_formula(value):
    assert neutralise(value) == "'" + value


@pytest.mark.parametrize("value", ["=1+1", "\tx", "Acme", " Acme", "", 12, None])
def test_csv_neutralise_keeps_what_it_did(value):
    expected = "'" + value if isinstance(value, str) and value[:1] in ("=", "\t") else value
    assert neutralise(value) == expected


def test_plain_escapes_markup_for_plotly():
    assert plain(LINK) == '&lt;a href="https://evil.example/"&gt;Acme&lt;/a&gt;'
    assert plain("AT&T") == "AT&amp;T"


def _strings(obj):
    if isinstance(obj, BaseFigure):  # every string plotly will send to the page
        yield from _strings(obj.to_plotly_json())
    elif isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from _strings(v)


@pytest.mark.django_db
def test_chart_labels_are_plain_text(alice):
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name=LINK)
    other = OfferFactory(owner=alice, name="<b>Bold</b> & co")
    board = board_build(user=alice)
    ev_link = next(ev for _r, ev in board.ranked if ev.offer.name == LINK)
    ev_other = next(ev for _r, ev in board.ranked if ev.offer.pk == other.pk)
    figures = [
        charts.yearly_by_component(board),
        charts.cumulative_with_bands(board),
        charts.score_contributions(board),
        charts.comparison_diff(ev_link, ev_other, "USD"),
    ]
    context = report_context(comparison_build(user=alice))
    report_figures = [v for k, v in context.items() if k.startswith("fig") and v]
    assert len(report_figures) >= 3
    figures += report_figures
    text = json.dumps([list(_strings(f)) for f in figures])
    assert "&lt;a href" in text  # the name is there, as text
    for fig in figures:
        for s in _strings(fig):
            assert "<a" not in s and "<b>" not in s, s


@pytest.mark.django_db
def test_scenario_chart_labels_are_plain_text(alice):
    from offers.scenarios.evaluation import scenario_view
    from offers.scenarios.figures import cumulative_figure
    from tests.factories import ScenarioFactory

    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name="<b>Bold</b> & co")
    offer = OfferFactory(owner=alice, name=LINK)
    scenario = ScenarioFactory(owner=alice, offer=offer, name="<a href='x'>mine</a>")
    view = scenario_view(user=alice, scenario=scenario)
    figure = cumulative_figure(view)
    assert any("&lt;a href" in s for s in _strings(figure))
    for s in _strings(figure):
        assert "<a" not in s and "<b>" not in s, s
