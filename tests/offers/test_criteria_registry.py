"""Every place that deals with ranking criteria reads offers.logic.criteria; none keeps a list.

Adding a criterion is one registry entry (see docs/architecture.md); these tests fail if a
model, form, page, chart or export names the criteria itself and so would miss the new one.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from offers.export.comparison import comparison_build
from offers.export.html import figure_scores
from offers.forms import OfferForm, PreferencesForm
from offers.logic.criteria import CRITERIA, KEYS, RATINGS
from offers.logic.criteria import label as criterion_label
from offers.models import OFFER_FIELDS, Offer, Preferences
from tests.factories import OfferFactory, PreferencesFactory

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


class InputNames(HTMLParser):
    """Collect the name of every input, select and textarea, in page order."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = dict(attrs).get("name")
        if tag in ("input", "select", "textarea") and name:
            self.names.append(name)


def input_names(html: str, prefix: str) -> list[str]:
    parser = InputNames()
    parser.feed(html)
    return [n for n in parser.names if n.startswith(prefix)]


def test_preferences_has_a_weight_field_per_criterion_as_the_registry_says():
    fields = [f for f in Preferences._meta.fields if f.name.startswith("weight_")]
    assert [f.name for f in fields] == [c.weight_field for c in CRITERIA]
    for field, criterion in zip(fields, CRITERIA, strict=True):
        assert field.default == criterion.default_weight
        assert str(field.verbose_name) == criterion.weight_label
        assert (field.max_digits, field.decimal_places) == (5, 2)
    names = {c.name for c in Preferences._meta.constraints}
    assert {f"prefs_weight_{k}_range" for k in KEYS} <= names
    assert list(Preferences().weights) == list(KEYS)
    assert Preferences().weights == {c.key: float(c.default_weight) for c in CRITERIA}


def test_offer_has_a_rating_field_per_rating_criterion_as_the_registry_says():
    fields = [f for f in Offer._meta.fields if f.name.startswith("rating_")]
    assert [f.name for f in fields] == [c.rating_field for c in RATINGS]
    for field, criterion in zip(fields, RATINGS, strict=True):
        assert str(field.verbose_name) == criterion.rating_label
        assert field.null and field.blank
    names = {c.name for c in Offer._meta.constraints}
    assert {f"offer_rating_{c.key}_range" for c in RATINGS} <= names
    assert [n for n in OFFER_FIELDS if n.startswith("rating_")] == [c.rating_field for c in RATINGS]


def test_forms_carry_every_criterion_field():
    weights = [n for n in PreferencesForm.base_fields if n.startswith("weight_")]
    assert weights == [c.weight_field for c in CRITERIA]
    assert PreferencesForm.weight_names.split(",") == weights
    ratings = [n for n in OfferForm.base_fields if n.startswith("rating_")]
    assert ratings == [c.rating_field for c in RATINGS]
    assert OfferForm.rating_names.split(",") == ratings


@pytest.mark.django_db
def test_preferences_page_shows_every_weight_with_its_translated_label(client_alice):
    html = client_alice.get(reverse("offers:preferences")).content.decode()
    assert input_names(html, "weight_") == [c.weight_field for c in CRITERIA]
    with translation.override("zh-hant"):
        labels = {c.key: translation.gettext(c.weight_label) for c in CRITERIA}
    client_alice.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    html = client_alice.get(reverse("offers:preferences")).content.decode()
    for key, label in labels.items():
        assert CJK.search(label) and label in html, key


@pytest.mark.django_db
def test_offer_form_page_shows_every_rating(client_alice):
    html = client_alice.get(reverse("offers:offer_create")).content.decode()
    assert input_names(html, "rating_") == [c.rating_field for c in RATINGS]


def test_chart_labels_come_from_the_registry_and_are_translated():
    for criterion in CRITERIA:
        assert criterion_label(criterion.key) == criterion.label
        with translation.override("zh-hant"):
            assert CJK.search(criterion_label(criterion.key)), criterion.key


@pytest.fixture
def ranked_user(alice):
    """Alice with two offers, each rated on every rating criterion (1, 2, ... and 5, 4, ...)."""
    PreferencesFactory(owner=alice, home_currency="USD", horizon_years=4)
    for name, ratings in (("First", range(1, 6)), ("Second", range(5, 0, -1))):
        OfferFactory(
            owner=alice,
            name=name,
            **{c.rating_field: r for c, r in zip(RATINGS, ratings, strict=False)},
        )
    return alice


@pytest.mark.django_db
def test_dashboard_ranks_and_charts_every_criterion(client, ranked_user):
    client.force_login(ranked_user)
    response = client.get(reverse("offers:dashboard"))
    assert response.status_code == 200
    ranking = {r.name: r for r in response.context["board"].ranking}
    for name, ratings in (("First", range(1, 6)), ("Second", range(5, 0, -1))):
        assert tuple(ranking[name].criteria) == KEYS
        for criterion, rating in zip(RATINGS, ratings, strict=False):
            assert ranking[name].criteria[criterion.key].figures["rating"] == rating
    names = [trace["name"] for trace in json.loads(response.context["fig_scores"])["data"]]
    assert names == [criterion_label(k) for k in KEYS]


@pytest.mark.django_db
def test_export_report_legend_names_every_criterion(ranked_user):
    comparison = comparison_build(user=ranked_user)
    assert [o["criteria"] and list(o["criteria"]) for o in comparison.options] == [list(KEYS)] * 2
    names = [trace.name for trace in figure_scores(comparison).data]
    assert names == [criterion_label(k) for k in KEYS]
    with translation.override("zh-hant"):
        names = [trace.name for trace in figure_scores(comparison).data]
        assert all(CJK.search(n) for n in names)


# The registry itself, and demo data (a value for each criterion, not a list of them).
MAY_NAME_CRITERIA = {"offers/logic/criteria.py", "offers/demo.py"}


def named_criteria(text: str) -> tuple[set[str], set[str]]:
    """Return the criteria a text names by field (weight_x, rating_x) and by quoted key."""
    by_field = {k for k in KEYS if re.search(rf"\b(weight|rating)_{k}\b", text)}
    by_key = {k for k in KEYS if re.search(rf"[\"']{k}[\"']", text)}
    return by_field, by_key


def keeps_a_list(text: str) -> bool:
    """Return whether a text names several criteria, i.e. keeps its own list of them."""
    by_field, by_key = named_criteria(text)
    return len(by_field) >= 3 or len(by_key) > len(KEYS) // 2


def test_the_list_detector_catches_the_old_hand_kept_lists():
    assert keeps_a_list('names="rating_scope,rating_growth,rating_team,rating_learning,notes"')
    assert keeps_a_list('CRITERIA = ("comp", "remote", "timezone", "level", "scope", "growth")')
    assert keeps_a_list('{"comp": _("Pay"), "remote": 1, "timezone": 2, "level": 3, "team": 4}')
    assert not keeps_a_list('if prefs.weight_timezone > 0: fields = ["level", "team"]')


def test_no_code_or_template_keeps_its_own_list_of_criteria():
    sources = [
        *ROOT.glob("*/**/*.py"),
        *(ROOT / "templates").glob("**/*.html"),
        *(ROOT / "static" / "js").glob("*.js"),
    ]
    offenders = []
    for path in sources:
        relative = path.relative_to(ROOT).as_posix()
        top = relative.split("/")[0]
        if top in {".venv", "tests", "bench"} or "/migrations/" in relative:
            continue
        if relative in MAY_NAME_CRITERIA:
            continue
        if keeps_a_list(path.read_text(encoding="utf-8", errors="replace")):
            offenders.append(relative)
    assert not offenders, f"read offers.logic.criteria instead of listing criteria: {offenders}"
