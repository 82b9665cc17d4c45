"""`manage.py load_reference`: the shared data a new install needs before its first user.

On an empty database (no seed_demo) the first account's offer form lists tax locations, the
company list its companies; loading twice changes no row; no user is ever created.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from compensation import demo, reference
from compensation.models import Company, FxRate, Level, LocationPreset

pytestmark = pytest.mark.django_db

SHARED = (Company, Level, FxRate, LocationPreset)


class SelectOptions(HTMLParser):
    """Collect the option labels of one <select name=...> of a page."""

    def __init__(self, name: str) -> None:
        super().__init__(convert_charrefs=True)
        self.name = name
        self.inside = False
        self.in_option = False
        self.options: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "select":
            self.inside = a.get("name") == self.name
        elif tag == "option" and self.inside:
            self.in_option = True
            self.options.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.inside = False
        elif tag == "option":
            self.in_option = False

    def handle_data(self, data: str) -> None:
        if self.in_option:
            self.options[-1] += data.strip()


def tax_locations(client) -> list[str]:
    response = client.get(reverse("offers:offer_create"))
    assert response.status_code == 200
    parser = SelectOptions("tax_location")
    parser.feed(response.content.decode())
    return [label for label in parser.options if label and not label.startswith("---")]


def snapshot() -> list[list[dict]]:
    return [list(model.objects.order_by("pk").values()) for model in SHARED]


def test_a_new_install_has_no_tax_location_until_the_reference_is_loaded(client):
    User = get_user_model()
    assert User.objects.count() == 0
    call_command("load_reference")
    assert User.objects.count() == 0  # no demo user, no account of any kind
    first = User.objects.create_user("first", password="first-password-123")
    client.force_login(first)
    assert set(tax_locations(client)) == set(reference.LOCATIONS)
    assert "Taipei" in tax_locations(client)


def test_without_it_the_offer_form_lists_no_tax_location(client_alice):
    assert tax_locations(client_alice) == []


def test_it_loads_places_with_tax_rules_companies_ladders_and_dated_fx():
    call_command("load_reference")
    assert not any(
        m.objects.exclude(owner=None).exists() for m in (Company, FxRate, LocationPreset)
    )
    taipei = LocationPreset.objects.get(name="Taipei")
    assert (taipei.currency, taipei.tax_regime, taipei.time_zone) == ("TWD", "tw", "Asia/Taipei")
    assert LocationPreset.objects.get(name="San Francisco Bay Area").tax_regime == "us-ca"
    assert set(Company.objects.values_list("name", flat=True)) == set(reference.COMPANIES)
    assert not Company.objects.filter(name="Northwind AI").exists()  # the demo's own employer
    assert Level.objects.count() == 25  # 5 companies x 5 levels
    senior = {(lv.company.name, lv.code) for lv in Level.objects.filter(equivalence=5)}
    assert senior == {
        ("Google", "L5"),
        ("Meta", "E5"),
        ("Amazon", "L6"),
        ("Apple", "ICT4"),
        ("TikTok", "2-2"),
    }
    usd_twd = FxRate.objects.get(currency="USD", to_currency="TWD")
    assert usd_twd.rate == 32 and usd_twd.as_of == reference.FX_AS_OF


def test_running_it_twice_changes_nothing(capsys):
    call_command("load_reference")
    first = snapshot()
    call_command("load_reference")
    assert snapshot() == first
    assert get_user_model().objects.count() == 0
    out = capsys.readouterr().out
    assert "6 places, 5 companies with 25 levels, 5 FX rates as of 2026-11-01" in out
    assert reference.FX_SOURCE in out


def test_seed_demo_loads_the_same_reference_for_its_shared_part():
    demo.seed_reference()
    names = set(Company.objects.values_list("name", flat=True))
    assert names == set(reference.COMPANIES) | {"Northwind AI"}
    before = snapshot()
    call_command("load_reference")  # on a demo install too: nothing moves
    assert snapshot() == before
