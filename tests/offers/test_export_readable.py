"""The exports a partner reads: labels not codes, local times, scenario outcomes, a summary."""

from __future__ import annotations

import datetime as dt
import io
import re
from decimal import Decimal

import pytest
from django.apps import apps
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from accounts.wording import fit_percent
from compensation.engine.components import COMPONENTS
from compensation.engine.tax.tables import regimes
from compensation.engine.vesting import VESTING_PRESETS
from offers.board import board_build
from offers.export.comparison import comparison_build
from offers.export.formats import EXPORT_FORMATS
from offers.export.html import html_bytes
from offers.export.xlsx import xlsx_bytes
from offers.logic.criteria import BY_KEY as CRITERIA_BY_KEY
from offers.logic.rules import RULES_BY_KEY
from offers.logic.rules.base import EVIDENCE_STRENGTH
from offers.models import Scenario
from offers.scenarios.evaluation import scenario_view
from offers.verdict import board_verdict
from tests.factories import OfferFactory, PreferencesFactory
from tests.interviews.factories import ProcessFactory, RoundFactory

pytestmark = pytest.mark.django_db


def internal_codes() -> set[str]:
    """Return every stored code: each model's choice values and the registries' keys."""
    codes: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for value, label in getattr(field, "flatchoices", None) or ():
                # A code that is its own label (a currency, say) is what a person reads too.
                if isinstance(value, str) and value and value != str(label):
                    codes.add(value)
    for registry in (
        CRITERIA_BY_KEY,
        RULES_BY_KEY,
        EXPORT_FORMATS,
        regimes(),
        VESTING_PRESETS,
        EVIDENCE_STRENGTH,
    ):
        codes.update(registry)
    codes.update(COMPONENTS)
    return codes


def cells(wb):
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                yield ws.title, cell


@pytest.fixture
def demo(demo_user):
    return demo_user


def test_demo_xlsx_has_no_internal_code_in_any_cell(demo):
    codes = internal_codes()
    # The set is the real one: the codes a partner used to see are in it.
    assert {"external", "team_match", "hire_lower", "strong_hire", "system_design"} <= codes
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison_build(user=demo))))
    found = [
        (title, cell.coordinate, cell.value)
        for title, cell in cells(wb)
        if isinstance(cell.value, str) and cell.value.strip() in codes
    ]
    assert found == []
    ranking = [[c.value for c in r] for r in wb["Ranking"].iter_rows()]
    assert any("External offer" in r for r in ranking)
    interviews = [[c.value for c in r] for r in wb["Interviews"].iter_rows()]
    assert any("Team match" in r for r in interviews)
    assert any("Hire at a lower level" in r for r in interviews)
    assert any("Strong Hire" in r for r in interviews)


def test_demo_scores_read_as_fit_percentages(demo):
    comparison = comparison_build(user=demo)
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    ws = wb["Ranking"]
    header = [c.value for c in ws[4]]
    fit = header.index("Fit (%)")
    by_name = {o["name"]: o for o in comparison.options}
    checked = 0
    for row in ws.iter_rows(min_row=5, max_row=4 + len(comparison.options)):
        option = by_name[row[1].value]
        if option["score"] is None:
            continue
        assert row[fit].value == fit_percent(option["score"])
        assert row[fit].value > 1 or option["score"] < 0.01  # never a bare 0.846
        assert "%" in row[fit].number_format
        checked += 1
    assert checked >= 5


def test_summary_sheet_first_with_basis_verdict_and_the_boards_headlines(demo):
    board = board_build(user=demo)
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison_build(user=demo, board=board))))
    assert wb.sheetnames[0] == "Summary"
    rows = [[c.value for c in r] for r in wb["Summary"].iter_rows()]
    verdict = board_verdict(board)
    assert verdict is not None and verdict.sentence
    assert rows[1][0] == f"Every figure: {board.basis.label}."
    assert rows[2][0] == verdict.sentence
    header = next(r for r in rows if r and r[0] == "Rank")
    value_col = next(i for i, h in enumerate(header) if h and "-year value" in h)
    start = rows.index(header) + 1
    shown = {r[1]: (r[0], r[value_col]) for r in rows[start : start + len(board.evaluations)]}
    for ranked, ev in board.ranked:
        assert shown[ev.offer.name] == (ranked.rank, pytest.approx(ev.value, rel=1e-12))
    assert any(r and r[0] == "Deadlines" for r in rows)


def test_demo_scenarios_sheet_shows_each_scenarios_outcome_as_its_page_does(demo, client):
    client.force_login(demo)
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison_build(user=demo))))
    ws = wb["Scenarios"]
    header = [c.value for c in ws[1]]
    value_col = header.index("Value with the scenario (USD)")
    change_col = header.index("Change vs the offer as it is (USD)")
    rank_col = header.index("Rank with the scenario")
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=2)]
    scenarios = list(Scenario.objects.filter(owner=demo).order_by("offer__name", "name", "id"))
    assert len(scenarios) == len(rows) >= 2
    for scenario, row in zip(scenarios, rows, strict=True):
        assert row[1] == scenario.name
        view = scenario_view(user=demo, scenario=scenario)
        assert row[value_col] == pytest.approx(view.ev.value, rel=1e-12)
        assert row[change_col] == pytest.approx(view.gain, rel=1e-12)
        assert row[rank_col] == view.rank
        # …and the figures the scenario page prints.
        page = client.get(reverse("offers:scenario_detail", args=[scenario.pk])).content.decode()
        gain = re.search(r'class="kpi">([^<]*)<', page).group(1)
        assert round(float(re.sub(r"[^\d.-]", "", gain))) == round(view.gain)
        shown_rank = re.search(r'class="scenario-rank">([^<]*)<', page).group(1)
        assert shown_rank == str(row[rank_col])


def test_round_times_are_in_the_home_zone_across_a_dst_change(alice):
    PreferencesFactory(owner=alice, home_timezone="Europe/London")
    OfferFactory(owner=alice, name="Acme")
    process = ProcessFactory(owner=alice)
    # London moves from GMT to BST at 01:00 UTC on Sunday 29 March 2026.
    RoundFactory(
        owner=alice,
        process=process,
        order=1,
        scheduled_at=dt.datetime(2026, 3, 28, 9, tzinfo=dt.UTC),
    )
    RoundFactory(
        owner=alice,
        process=process,
        order=2,
        scheduled_at=dt.datetime(2026, 3, 30, 9, tzinfo=dt.UTC),
    )
    comparison = comparison_build(user=alice)
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    rows = [[c.value for c in r] for r in wb["Interviews"].iter_rows()]
    header = next(r for r in rows if "Round" in r)
    when = header.index("Scheduled (Europe/London time)")
    order = header.index("Round")
    times = {r[order]: r[when] for r in rows[rows.index(header) + 1 :]}
    assert times == {1: dt.datetime(2026, 3, 28, 9, 0), 2: dt.datetime(2026, 3, 30, 10, 0)}
    html = html_bytes(comparison).decode()
    assert "When (Europe/London time)" in html
    assert "28 Mar 2026 09:00" in html and "30 Mar 2026 10:00" in html


def test_progressive_tax_shows_the_rule_not_a_flat_rate(alice):
    from compensation.models import Package

    PreferencesFactory(owner=alice)
    offer = OfferFactory(owner=alice, name="Taxed")
    key = next(iter(regimes()))
    Package.objects.filter(pk=offer.package_id).update(tax_regime=key)
    comparison = comparison_build(user=alice)
    assert comparison.people["progressive_tax"][str(offer.pk)]
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    rows = [[c.value for c in r] for r in wb["Assumptions"].iter_rows()]
    row = next(r for r in rows if r[0] == "Taxed")
    assert row[4] == comparison.assumptions[0]["tax_rule"]
    assert isinstance(row[4], str) and row[4]


def test_report_opens_with_the_summary_and_labels(demo):
    board = board_build(user=demo)
    comparison = comparison_build(user=demo, board=board)
    html = html_bytes(comparison).decode()
    verdict = board_verdict(board)
    assert 'id="report-summary"' in html
    assert html.index('id="report-summary"') < html.index('id="report-ranking"')
    summary = html[html.index('id="report-summary"') : html.index('id="report-ranking"')]
    from django.utils.html import escape

    assert escape(verdict.sentence) in summary
    assert escape(f"Every figure: {board.basis.label}.") in summary
    for _ranked, ev in board.ranked:
        assert escape(ev.offer.name) in summary
    assert '<span class="badge">external</span>' not in html
    assert "External offer" in html
    assert "fit " in html


def test_json_keeps_its_schema_without_the_readable_part(demo):
    comparison = comparison_build(user=demo)
    assert comparison.people["scenario_outcomes"]
    assert "people" not in comparison.as_json()


def test_no_outcome_is_computed_for_a_board_too_large_to_read(alice, monkeypatch):
    from offers.export import readable

    monkeypatch.setattr(readable, "LARGE_OPTIONS", 0)
    PreferencesFactory(owner=alice)
    offer = OfferFactory(owner=alice)
    Scenario.objects.create(
        owner=alice, offer=offer, name="More", extra_sign_on=Decimal(1000), stock_currency="USD"
    )
    comparison = comparison_build(user=alice)
    assert comparison.people["scenario_outcomes"] == [None]
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    row = [c.value for c in wb["Scenarios"][2]]
    assert "Open the scenario page for its outcome." in row


def test_a_background_export_is_written_in_the_language_it_was_asked_in(
    client_alice_reauth, alice, settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks
):
    from django.utils import translation

    from offers.export import jobs
    from offers.models import Job, Offer

    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setattr(jobs, "LARGE_OPTIONS", 1)
    PreferencesFactory(owner=alice)
    OfferFactory(owner=alice, name="One")
    OfferFactory(owner=alice, name="Two")
    client_alice_reauth.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    try:
        with django_capture_on_commit_callbacks(execute=True):
            client_alice_reauth.post(reverse("offers:export_start"), {"format": "xlsx"})
    finally:
        # The request activated zh-Hant in this thread: leave the next tests in English.
        translation.activate(settings.LANGUAGE_CODE)
    job = Job.objects.get(owner=alice)
    assert job.language == "zh-hant" and job.status == Job.Status.DONE
    wb = load_workbook(jobs.job_path(job))
    with translation.override("zh-hant"):
        summary, external = translation.gettext("Summary"), str(Offer.Kind.EXTERNAL.label)
    assert summary != "Summary" and wb.sheetnames[0] == summary
    assert any(c.value == external for r in wb.worksheets[1].iter_rows() for c in r)


@given(
    instant=st.datetimes(
        min_value=dt.datetime(2000, 1, 1),
        max_value=dt.datetime(2037, 12, 31),
        timezones=st.just(dt.UTC),
    ),
    zone=st.sampled_from(
        ["Asia/Taipei", "Europe/London", "America/Los_Angeles", "Australia/Sydney"]
    ),
)
def test_local_time_is_the_same_instant_on_the_home_clock(instant, zone):
    from zoneinfo import ZoneInfo

    from offers.export.readable import local_time

    shown = local_time(instant.isoformat(), zone)
    assert shown.tzinfo is None
    # Read back on that clock (in a repeated hour, the fold that reads back), it is the instant.
    back = [shown.replace(tzinfo=ZoneInfo(zone), fold=f).astimezone(dt.UTC) for f in (0, 1)]
    assert instant in back


def test_scenario_outcomes_use_the_exports_board_and_build_no_other(demo, monkeypatch):
    """A cold export builds one board (without Monte Carlo); the outcomes reuse it."""
    from django.core.cache import cache

    from offers import board as board_module
    from offers import board_cache
    from offers.scenarios import evaluation

    cache.clear()
    board_cache.RECENT.clear()
    built = []
    real = board_module.board_build

    def counting(**kwargs):
        built.append(kwargs.get("overrides") is None)  # True: a board of its own, not a scenario's
        return real(**kwargs)

    monkeypatch.setattr(evaluation, "board_build", counting)
    monkeypatch.setattr(board_cache, "board_build", counting)
    monkeypatch.setattr("offers.export.comparison.board_build", counting)
    comparison = comparison_build(user=demo)
    assert comparison.people["scenario_outcomes"] and all(comparison.people["scenario_outcomes"])
    assert built.count(True) == 1  # the export's own board; each scenario only re-ranks it


def test_every_money_column_is_wide_enough_to_show_its_figures(demo):
    """A spreadsheet shows ### for a figure wider than its column: "USD 1,235,864" needs 14."""
    wb = load_workbook(io.BytesIO(xlsx_bytes(comparison_build(user=demo))))
    narrow = set()
    for ws in wb:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, int | float) and "[$" in cell.number_format:
                    width = ws.column_dimensions[cell.column_letter].width or 0
                    if width < 14:
                        narrow.add((ws.title, cell.column_letter, width))
    assert not narrow
