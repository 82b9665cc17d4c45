"""Not an offer yet: a draft is marked wherever it ranks, and can be ranked after offers in hand."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from offers.board import board_build
from offers.export.comparison import comparison_build
from offers.export.csv_export import csv_bytes
from offers.export.html import html_bytes
from offers.export.json_export import json_bytes
from offers.export.xlsx import xlsx_bytes
from offers.logic.ranking import OptionFacts, RankingPrefs, rank_options
from offers.logic.verdict import VerdictBasis, winner_verdict
from offers.models import Offer, Preferences
from offers.verdict import board_verdict
from tests.factories import LocationPresetFactory, OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def options(alice):
    """A draft paying far more than an offer in hand; both taxed by a place's table."""
    PreferencesFactory(owner=alice, basis=Preferences.Basis.NET, home_currency="USD")
    bay = LocationPresetFactory(name="Bay Area", currency="USD", tax_regime="us-ca")
    draft = OfferFactory(
        owner=alice,
        name="Draft Co",
        status=Offer.Status.DRAFT,
        package__location=bay,
        package__base=Decimal("400000"),
    )
    held = OfferFactory(
        owner=alice,
        name="Held Co",
        status=Offer.Status.RECEIVED,
        package__location=bay,
        package__base=Decimal("200000"),
    )
    return {"draft": draft, "held": held}


def facts(key: str, value: float, in_hand: bool) -> OptionFacts:
    return OptionFacts(
        key=key,
        name=key,
        kind="external",
        comp_value=value,
        first_year_total=value / 4,
        remote_weeks_allowed=4,
        remote_policy="hybrid",
        overlap_hours=8,
        in_hand=in_hand,
    )


def test_the_preference_ranks_only_offers_in_hand():
    options = [facts("draft", 2_000_000, False), facts("held", 1_000_000, True)]
    weights = {"comp": 1.0}
    ranking = rank_options(options, RankingPrefs(weights=weights))
    assert [r.key for r in ranking] == ["draft", "held"]  # the draft ranks on its terms
    ranking = rank_options(options, RankingPrefs(weights=weights, in_hand_only=True))
    assert [r.key for r in ranking] == ["held", "draft"]
    assert ranking[1].excluded
    assert ranking[1].exclusion_reasons == ("not an offer in hand; you rank only offers in hand",)


def test_the_winner_sentence_says_if_the_offer_comes_in_as_expected():
    options = [facts("draft", 2_000_000, False), facts("held", 1_000_000, True)]
    prefs = RankingPrefs(weights={"comp": 1.0})
    basis = VerdictBasis("USD", 4, "after tax")
    verdict = winner_verdict(rank_options(options, prefs), options, prefs, basis)
    assert verdict is not None and verdict.winner_key == "draft"
    assert "if the offer comes in as expected" in verdict.sentence
    in_hand = [facts("draft", 2_000_000, True), facts("held", 1_000_000, True)]
    verdict = winner_verdict(rank_options(in_hand, prefs), in_hand, prefs, basis)
    assert "if the offer comes in as expected" not in verdict.sentence
    # Ranking only offers in hand, the verdict says what keeps the draft behind.
    strict = RankingPrefs(weights={"comp": 1.0}, in_hand_only=True)
    verdict = winner_verdict(rank_options(options, strict), options, strict, basis)
    assert verdict.winner_key == "held"
    assert [b.kind for b in verdict.blocked_by] == ["in_hand"]


def test_the_dashboard_marks_the_draft_and_says_so_in_the_verdict(client_alice, options):
    page = client_alice.get(reverse("offers:dashboard")).content.decode()
    row = page.split(f'data-option="{options["draft"].pk}"')[1].split("</tr>")[0]
    assert "data-not-an-offer-yet" in row and "Not an offer yet" in row
    other = page.split(f'data-option="{options["held"].pk}"')[1].split("</tr>")[0]
    assert "data-not-an-offer-yet" not in other
    verdict = page.split("data-verdict")[1].split("</p>")[0]
    assert "if the offer comes in as expected" in verdict


def test_the_users_preference_ranks_the_draft_last(alice, options):
    assert board_build(user=alice, mc_paths=0).ranking[0].name == "Draft Co"
    prefs = Preferences.objects.get(owner=alice)
    prefs.rank_in_hand_only = True
    prefs.save()
    board = board_build(user=alice, mc_paths=0)
    assert [r.name for r in board.ranking] == ["Held Co", "Draft Co"]
    verdict = board_verdict(board)
    assert verdict is not None and "if the offer comes in as expected" not in verdict.sentence


def test_the_preferences_form_saves_it(client_alice, alice, options):
    page = client_alice.get(reverse("offers:preferences"))
    assert "rank_in_hand_only" in page.content.decode()
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        {
            "rank_in_hand_only": "on",
            "day_start": "08:00",
            "day_end": "23:00",
            "version": Preferences.objects.get(owner=alice).version,
        }
    )
    client_alice.post(reverse("offers:preferences"), data)
    assert Preferences.objects.get(owner=alice).rank_in_hand_only


def test_compare_and_the_offer_page_mark_it(client_alice, options):
    draft, held = options["draft"], options["held"]
    page = client_alice.get(
        reverse("offers:offer_compare"), {"a": draft.pk, "b": held.pk}
    ).content.decode()
    assert page.count("data-not-an-offer-yet") == 1
    page = client_alice.get(reverse("offers:offer_detail", args=[draft.pk])).content.decode()
    assert "data-not-an-offer-yet" in page


def test_every_export_marks_it(alice, options):
    comparison = comparison_build(user=alice)
    draft, held = str(options["draft"].pk), str(options["held"].pk)
    doc = json.loads(json_bytes(comparison))
    assert {o["key"]: o["not_an_offer_yet"] for o in doc["options"]} == {draft: True, held: False}
    header, *rows = list(csv.reader(io.StringIO(csv_bytes(comparison).decode("utf-8-sig"))))
    at, key = header.index("warnings"), header.index("option_key")
    assert {r[at] for r in rows if r[key] == draft} == {"not an offer yet: the terms expected"}
    assert {r[at] for r in rows if r[key] == held} == {""}
    book = load_workbook(io.BytesIO(xlsx_bytes(comparison)))
    cells = [str(c.value) for row in book["Ranking"].iter_rows() for c in row if c.value]
    assert "not an offer yet: the terms expected" in cells
    report = html_bytes(comparison).decode()
    assert "not an offer yet: the terms expected" in report
    assert "if the offer comes in as expected" in report
