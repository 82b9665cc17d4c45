"""No tax rule never means 0 %: a place's table by default, else a visible "tax unknown"."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from compensation import selectors
from offers.board import board_build
from offers.export.comparison import comparison_build
from offers.export.csv_export import csv_bytes
from offers.export.html import html_bytes
from offers.export.json_export import json_bytes
from offers.export.xlsx import xlsx_bytes
from offers.models import Preferences
from offers.negotiation import alternatives
from tests.factories import LocationPresetFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def options(alice):
    """Alice: one option with no tax rule and no tax location, one taxed by a place's table."""
    PreferencesFactory(owner=alice, basis=Preferences.Basis.NET, home_currency="USD")
    bay = LocationPresetFactory(name="Bay Area", currency="USD", tax_regime="us-ca")
    unknown = OfferFactory(owner=alice, name="Nowhere Inc", package__location=None)
    known = OfferFactory(owner=alice, name="Placed Inc", package__location=bay)
    return {"unknown": unknown, "known": known}


def test_a_package_takes_its_locations_table_by_default(alice, options):
    package = selectors.package_get(user=alice, pk=options["known"].package.pk)
    assert package.tax_regime == ""  # no rule of its own
    spec = selectors.package_to_spec(package, horizon_years=4)
    assert spec.tax_regime == "us-ca" and not spec.tax_unknown
    board = board_build(user=alice, mc_paths=0)
    ev = next(e for e in board.evaluations if e.offer.pk == options["known"].pk)
    assert not ev.tax_unknown
    assert ev.tax_words.startswith("California + US federal")
    assert sum(ev.component("tax")) > 0


def test_a_place_without_a_table_keeps_its_flat_rate(alice):
    place = LocationPresetFactory(effective_tax_pct=Decimal("30"))
    offer = OfferFactory(owner=alice, package__location=place)
    spec = selectors.package_to_spec(offer.package, horizon_years=4)
    assert spec.tax_regime is None and spec.tax_rate_pct == 30.0 and not spec.tax_unknown


def test_no_rule_and_no_place_is_tax_unknown_not_a_quiet_zero(alice, options):
    board = board_build(user=alice, mc_paths=0)
    ev = next(e for e in board.evaluations if e.offer.pk == options["unknown"].pk)
    assert ev.tax_unknown
    assert ev.tax_words == "tax unknown (no tax rule or rate: counted as 0%)"
    # The figures are still shown (no tax counted), and flagged everywhere below.
    assert sum(ev.component("tax")) == 0 and ev.value == sum(ev.component("total"))


def test_the_dashboard_flags_it(client_alice, options):
    page = client_alice.get(reverse("offers:dashboard")).content.decode()
    row = page.split(f'data-option="{options["unknown"].pk}"')[1].split("</tr>")[0]
    assert "data-tax-unknown" in row and "Tax unknown" in row
    other = page.split(f'data-option="{options["known"].pk}"')[1].split("</tr>")[0]
    assert "data-tax-unknown" not in other


def test_the_offer_page_warns_and_links_to_where_to_choose(client_alice, options):
    offer = options["unknown"]
    page = client_alice.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    assert "data-tax-unknown" in page and "data-tax-unknown-warning" in page
    assert (
        reverse("offers:offer_edit", args=[offer.pk]) in page.split("data-tax-unknown-warning")[1]
    )
    known = options["known"]
    page = client_alice.get(reverse("offers:offer_detail", args=[known.pk])).content.decode()
    assert "data-tax-unknown" not in page


def test_compare_flags_it(client_alice, options):
    response = client_alice.get(
        reverse("offers:offer_compare"),
        {"a": options["unknown"].pk, "b": options["known"].pk},
    )
    page = response.content.decode()
    assert page.count("data-tax-unknown-warning") == 1
    assert "data-tax-unknown " in page or "data-tax-unknown title" in page


def test_every_export_flags_it(alice, options):
    comparison = comparison_build(user=alice)
    unknown, known = str(options["unknown"].pk), str(options["known"].pk)

    doc = json.loads(json_bytes(comparison))
    flags = {o["key"]: o["tax_unknown"] for o in doc["options"]}
    assert flags == {unknown: True, known: False}

    text = csv_bytes(comparison).decode("utf-8-sig")
    header, *rows = list(csv.reader(io.StringIO(text)))
    at, key = header.index("warnings"), header.index("option_key")
    assert {r[at].startswith("tax unknown") for r in rows if r[key] == unknown} == {True}
    assert {r[at] for r in rows if r[key] == known} == {""}

    book = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    cells = [str(c.value) for row in book["Ranking"].iter_rows() for c in row if c.value]
    assert any(c.startswith("tax unknown") for c in cells)

    report = html_bytes(comparison).decode()
    assert "tax unknown: no tax rule or tax location" in report


def test_it_is_never_cited_as_leverage_after_tax(alice, options):
    board = board_build(user=alice, mc_paths=0)
    from compensation.selectors import fx_table

    found = alternatives(user=alice, offer=options["known"], board=board, fx=fx_table(user=alice))
    assert "Nowhere Inc" not in [a.name for a in found]
    # Gross, its value does not depend on tax: it is evidence again.
    prefs = Preferences.objects.get(owner=alice)
    prefs.basis = Preferences.Basis.GROSS
    prefs.save()
    board = board_build(user=alice, mc_paths=0)
    found = alternatives(user=alice, offer=options["known"], board=board, fx=fx_table(user=alice))
    assert "Nowhere Inc" in [a.name for a in found]


def test_the_demo_has_no_option_whose_tax_is_unknown(django_user_model):
    call_command("seed_demo", force=True)
    demo = django_user_model.objects.get(username="demo")
    board = board_build(user=demo, mc_paths=0)
    assert board.evaluations
    assert [e.offer.name for e in board.evaluations if e.tax_unknown] == []
