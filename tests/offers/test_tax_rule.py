"""A package's tax rule: stored, given to the engine with its FX, shown beside each option."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from compensation import selectors
from compensation.engine.tax.compute import yearly_tax
from compensation.engine.tax.tables import regime_get
from compensation.models import Package
from offers.board import board_build
from offers.models import Offer
from tests.factories import FxRateFactory, LocationPresetFactory, PackageFactory
from tests.offers.test_views_offers import offer_post

pytestmark = pytest.mark.django_db


def test_package_to_spec_carries_the_regime_and_the_rate_into_its_currency(alice):
    # A USD package taxed in Singapore: 1 SGD = 0.74 USD, so 1 USD = 1 / 0.74 SGD.
    FxRateFactory(owner=None, currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    package = PackageFactory(owner=alice, currency="USD", tax_regime="sg")
    spec = selectors.package_to_spec(
        selectors.package_get(user=alice, pk=package.pk), horizon_years=4
    )
    assert spec.tax_regime == "sg"
    assert spec.fx_to_tax == pytest.approx(1 / 0.74)
    # The words name the table and, for years after the latest one, say it is used for them.
    assert selectors.tax_rule_words(spec) == regime_get("sg").label_for(*spec.tax_years)
    assert selectors.tax_rule_words(spec).startswith("Singapore resident YA 2026 tax")


def test_without_a_regime_the_location_flat_rate_applies_and_says_so(alice):
    place = LocationPresetFactory(effective_tax_pct=Decimal("30"))
    package = PackageFactory(owner=alice, location=place)
    spec = selectors.package_to_spec(
        selectors.package_get(user=alice, pk=package.pk), horizon_years=4
    )
    assert spec.tax_regime is None and spec.tax_rate_pct == 30.0
    assert selectors.tax_rule_words(spec) == "flat 30% (no tax table for this place)"


def test_the_offer_form_saves_and_edits_the_tax_rule(client_alice, alice):
    response = client_alice.post(
        reverse("offers:offer_create"), offer_post(tax_regime="sg", currency="SGD")
    )
    assert response.status_code == 302
    offer = Offer.objects.get(owner=alice)
    assert offer.package.tax_regime == "sg"
    page = client_alice.get(reverse("offers:offer_edit", args=[offer.pk]))
    assert page.context["form"]["tax_regime"].value() == "sg"


def test_the_offer_form_refuses_an_unknown_tax_rule(client_alice, alice):
    response = client_alice.post(reverse("offers:offer_create"), offer_post(tax_regime="mars"))
    assert response.status_code == 400  # the form again, with its errors
    assert "tax_regime" in response.context["form"].errors
    assert not Package.objects.filter(owner=alice).exists()


@pytest.fixture
def demo(demo_user):
    return demo_user


def test_demo_options_are_taxed_by_their_places(demo):
    board = board_build(user=demo, mc_paths=0)
    by_name = {ev.offer.name: ev for ev in board.evaluations}
    stay = by_name["Stay at Northwind AI"]
    last_day = board.basis.end - dt.timedelta(days=1)

    def words(key: str, first_day: dt.date) -> str:
        # The tables of the tax years counted: each year's own, or the latest for later ones.
        regime = regime_get(key)
        return regime.label_for(regime.tax_year_of(first_day), regime.tax_year_of(last_day))

    assert stay.tax_words == words("us-ca", board.basis.start)
    # The window from 1 Dec 2026 counts 2026 (its own tables) and 2027 on (2026's, the latest).
    assert stay.tax_words.startswith(
        "California + US federal 2026 tax (2026 table used for 2027 on)"
    )
    meta = by_name["Meta E5 (Menlo Park)"]
    assert meta.tax_words.endswith(words("us-ca", meta.segments[-1].start))
    tiktok = by_name["TikTok Singapore (expected)"]
    assert tiktok.tax_words.endswith("then " + words("sg", tiktok.segments[-1].start))
    assert "then Singapore resident YA 2026 tax" in tiktok.tax_words
    taipei = by_name["Internal transfer: Northwind Taipei"]
    # The transfer's kept US grants are taxed in each place by their days (issue 34, item 3).
    kept = "; the kept stock taxed in each place by the days worked there"
    assert taipei.tax_words.endswith("then " + words("tw", taipei.segments[-1].start) + kept)
    # Staying: every window year's tax is the brackets' tax on that year's income, shared out
    # by tax year; over the window it is a progressive rate, above the flat 0 and below the top.
    tax, total = stay.component("tax"), stay.component("total")
    rate = sum(tax) / sum(total)
    assert 0.30 < rate < 0.55


def test_the_option_page_says_which_tax_rule_applies(demo, client):
    client.force_login(demo)
    offer = Offer.objects.get(owner=demo, name="TikTok Singapore (expected)")
    page = client.get(reverse("offers:offer_detail", args=[offer.pk])).content.decode()
    assert "data-tax-rule" in page
    assert "Singapore resident YA 2026 tax" in page


def test_the_window_tax_of_a_whole_calendar_year_is_the_tables_tax(alice):
    # A sanity link between the page and the tables: 200,000 of wages in California, by the
    # latest (2026) tables: federal 36,734 + FICA 14,339 + California 14,507.98 + SDI 2,600
    # (tests/compensation/engine/test_tax_tables_2026.py).
    assert float(yearly_tax(regime_get("us-ca"), 200_000)) == pytest.approx(68_180.98, abs=1)


def test_exports_name_the_tax_rule_of_each_option(demo):
    from offers.export.comparison import comparison_build

    comparison = comparison_build(user=demo)
    options = {o["name"]: o for o in comparison.options}
    assert options["Stay at Northwind AI"]["tax_rule"].startswith(
        "California + US federal 2026 tax (2026 table used for 2027 on)"
    )
    rows = {a["option"]: a for a in comparison.assumptions}
    assert "then Singapore resident YA 2026 tax" in rows["TikTok Singapore (expected)"]["tax_rule"]


@pytest.mark.parametrize("field", ["currency", "stock_currency"])
def test_the_offer_form_refuses_a_code_outside_iso_4217(client_alice, alice, field):
    response = client_alice.post(reverse("offers:offer_create"), offer_post(**{field: "ABC"}))
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not Package.objects.filter(owner=alice).exists()
