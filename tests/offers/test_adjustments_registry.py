"""Every place that lists scenario adjustments reads offers.scenarios.adjustments; none keeps a list.

Adding an adjustment is one registry entry and its model field (see "Adding a scenario
adjustment" in docs/architecture.md); these tests fail if the form, the services, the exports
or a page names the adjustments itself and so would miss the new one.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from offers.export.columns import Unit
from offers.export.comparison import comparison_build
from offers.export.html import html_bytes
from offers.export.rows import ScenarioRow
from offers.export.xlsx import xlsx_bytes
from offers.forms import OfferForm, ScenarioForm
from offers.models import Scenario
from offers.scenarios.adjustments import ADJUSTMENTS, Applies
from offers.scenarios.montecarlo import mc_input_hash
from tests.factories import (
    FxRateFactory,
    LevelFactory,
    OfferFactory,
    PreferencesFactory,
    ScenarioFactory,
)

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
KEYS = tuple(a.key for a in ADJUSTMENTS)
# The keys of a scenario's row around its adjustments (`offers.export.rows.ScenarioRow`).
ROW_HEAD = ("option_key", "option", "name")
ROW_TAIL = ("stock_currency", "mc_status", "mc_result", "notes")
# Keys added to version 2 after its first files: optional, so those files still validate.
ADDED_LATER = {"stock_currency"}


def test_every_adjustment_is_an_editable_scenario_field_with_a_unit_and_a_heading():
    assert len(set(KEYS)) == len(KEYS)
    assert list(ScenarioForm.base_fields) == ["name", *KEYS, "notes", "version"]
    for a in ADJUSTMENTS:
        field = Scenario._meta.get_field(a.key)
        assert field.editable, a.key
        assert a.applies in (Applies.TERMS, Applies.OPTION, Applies.MARKET), a.key
        assert (a.change is not None) == (a.applies == Applies.TERMS), a.key
        assert a.heading, a.key
        with translation.override("zh-hant"):
            assert CJK.search(a.heading), f"{a.key}: its heading is not translated"


@pytest.mark.django_db
def test_the_monte_carlo_key_changes_with_every_adjustment():
    scenario = ScenarioFactory()
    before = mc_input_hash(scenario)
    for a in ADJUSTMENTS:
        scenario.refresh_from_db()
        if a.unit == Unit.LEVEL:
            setattr(scenario, a.key, LevelFactory(company=scenario.offer.package.company))
        elif a.unit == Unit.DATE:
            setattr(scenario, a.key, dt.date(2031, 2, 3))
        else:
            setattr(scenario, a.key, 7)
        assert mc_input_hash(scenario) != before, a.key


def test_the_json_schema_names_every_adjustment_in_the_registrys_order():
    schema = json.loads((ROOT / "offers/export/schema/comparison-v2.json").read_text())
    item = schema["properties"]["scenarios"]["items"]
    assert item["additionalProperties"] is False
    assert list(item["properties"]) == [*ROW_HEAD, *KEYS, *ROW_TAIL]
    # A key added to version 2 is optional: what older exports wrote still validates.
    assert {*ROW_HEAD, *ROW_TAIL} - ADDED_LATER <= set(item["required"]) <= set(item["properties"])
    assert not ADDED_LATER & set(item["required"])
    for a in ADJUSTMENTS:
        kind = a.unit.json_type
        nullable = Scenario._meta.get_field(a.key).null and a.unit != Unit.LEVEL
        assert item["properties"][a.key]["type"] == ([kind, "null"] if nullable else kind), a.key


def test_the_typed_row_leaves_the_adjustments_to_the_registry():
    assert tuple(ScenarioRow.__annotations__) == (*ROW_HEAD, *ROW_TAIL)


@pytest.fixture
def scenario_user(alice):
    """Alice with an offer paid in SGD with USD-priced stock, and a scenario setting every
    money adjustment."""
    PreferencesFactory(owner=alice, home_currency="USD", horizon_years=4)
    FxRateFactory(owner=None, currency="USD", to_currency="SGD", rate=Decimal("1.35"))
    offer = OfferFactory(owner=alice, name="Acme", package__currency="SGD")
    scenario = ScenarioFactory(
        owner=alice,
        offer=offer,
        name="Ask",
        **{a.key: 1234 for a in ADJUSTMENTS if a.unit.money},
    )
    assert scenario.stock_currency == "USD"  # the company's share price currency
    return alice


@pytest.mark.django_db
def test_the_exports_show_every_adjustment_as_the_registry_says(scenario_user):
    comparison = comparison_build(user=scenario_user)
    (row,) = comparison.scenarios
    assert list(row) == [*ROW_HEAD, *KEYS, *ROW_TAIL]
    assert row["stock_currency"] == "USD"
    for a in ADJUSTMENTS:
        if a.unit.money:
            assert row[a.key] == 1234.0, a.key
    sheet = load_workbook(io.BytesIO(xlsx_bytes(comparison)))["Scenarios"]
    header = [c.value for c in sheet[1]]
    start = header.index(ADJUSTMENTS[0].heading)
    assert header[start : start + len(KEYS)] == [a.heading for a in ADJUSTMENTS]
    for a, cell in zip(ADJUSTMENTS, sheet[2][start : start + len(KEYS)], strict=True):
        width = sheet.column_dimensions[cell.column_letter].width
        if a.unit.money:
            # Pay in the option's currency, stock in the grant's: each says its own.
            code = "[$SGD]" if a.unit == Unit.PAY else "[$USD]"
            assert cell.value == 1234 and code in cell.number_format, a.key
            assert width >= 14, a.key  # "USD 1,235,864" shows in full
    report = html_bytes(comparison).decode()
    table = report[
        report.index("<h2>Scenarios</h2>") : report.index("</table>", report.index("data-scenario"))
    ]
    for a in ADJUSTMENTS:
        assert (f">{a.heading}</th>" in table) == a.in_report, a.key
    cells = re.findall(r'<td class="num">([^<]*)</td>', table)
    for a in ADJUSTMENTS:
        if a.in_report and a.unit.money:
            said = ("SGD" if a.unit == Unit.PAY else "USD") + " 1,234"
            assert said in cells, (a.key, cells)


# The model and the registry; the deliberate others, each for its reason:
# - offers/logic/: the pure negotiation rules speak of their own ScenarioAdjustment and
#   ScenarioOutcome (what a rule can ask and check; no Django, so no registry);
# - offers/scenarios/points.py: the one bridge between those and the scenario's fields;
# - offers/scenarios/flip.py: the flip finder probes the money asks it names (FLIP_COMPONENTS);
# - offers/scenarios/evaluation.py: the option's level and start date the ranking reads, and
#   the market assumptions handed to package_to_spec;
# - templates/offers/scenario_list.html: its summary columns, a chosen few.
MAY_LIST = {
    "offers/models.py",
    "offers/scenarios/adjustments.py",
    "offers/scenarios/points.py",
    "offers/scenarios/flip.py",
    "offers/scenarios/evaluation.py",
    "templates/offers/scenario_list.html",
}


def scenario_only_keys() -> set[str]:
    """Return the adjustments no other model or the offer form has a field of that name."""
    others = {
        f.name
        for model in apps.get_models()
        if model is not Scenario
        for f in model._meta.get_fields()
    }
    return set(KEYS) - others - set(OfferForm.base_fields)


def keeps_a_list(text: str) -> bool:
    """Return whether a text names two adjustments itself: a scenario's field or their keys."""
    own = {k for k in scenario_only_keys() if re.search(rf"\b{k}\b", text)}
    read = {
        k
        for k in KEYS
        if re.search(rf"\b(?:scenario|s)\.{k}\b|\b(?:scenario|s|row)\[[\"']{k}[\"']\]", text)
    }
    return len(own) >= 2 or len(read) >= 2


def test_the_list_detector_catches_the_old_hand_kept_lists():
    assert scenario_only_keys() >= {"extra_sign_on", "extra_stock_yearly"}
    assert keeps_a_list('"raise_pct": _decimal(s.raise_pct),\n"level": s.level.code')
    assert keeps_a_list('sheet.cell(s["base"], money),\nsheet.cell(s["raise_pct"], PCT),')
    assert keeps_a_list("<td>{{ s.base|money }}</td><td>{{ s.extra_sign_on|money }}</td>")
    assert keeps_a_list('fields = ("extra_sign_on", "extra_stock_yearly")')
    assert not keeps_a_list('package.base, package.raise_pct, a["raise_pct"], "level"')


def test_no_code_or_template_keeps_its_own_list_of_adjustments():
    sources = [*(ROOT / "offers").glob("**/*.py"), *(ROOT / "templates").glob("**/*.html")]
    offenders = []
    for path in sources:
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" in relative or relative.startswith("offers/logic/"):
            continue
        if relative in MAY_LIST:
            continue
        if keeps_a_list(path.read_text(encoding="utf-8")):
            offenders.append(relative)
    assert not offenders, f"read offers.scenarios.adjustments instead of listing: {offenders}"


@pytest.mark.django_db
def test_the_scenario_page_renders_every_adjustment(client_alice, alice):
    scenario = ScenarioFactory(owner=alice, offer__owner=alice)
    html = client_alice.get(reverse("offers:scenario_detail", args=[scenario.pk])).content.decode()
    for key in KEYS:
        assert re.search(rf'name="{key}"', html), key


@pytest.mark.django_db
def test_the_monte_carlo_key_changes_with_the_stock_currency():
    """USD 20,000 of stock a year is not SGD 20,000: the cached result must not be reused."""
    scenario = ScenarioFactory()
    before = mc_input_hash(scenario)
    scenario.stock_currency = "SGD" if scenario.stock_currency != "SGD" else "USD"
    assert mc_input_hash(scenario) != before
