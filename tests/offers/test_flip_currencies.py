"""Every amount says its currency: the flip finder's answer, and the demo's negotiation pages."""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from offers.models import Offer
from offers.scenarios.flip import FLIP_MAX_ASK, FlipAnswer
from offers.views_scenarios import FlipForm
from tests.factories import EquityGrantFactory, OfferFactory, PreferencesFactory, ScenarioFactory

pytestmark = pytest.mark.django_db

# A figure grouped in thousands (1,234 or 1,234,567.8) not right after a currency code.
BARE_AMOUNT = re.compile(r"(?<![A-Z]{3} )(?<![\d,.])\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_the_flip_answer_says_the_currency_of_the_ask_and_of_the_value_it_adds(client_alice, alice):
    PreferencesFactory(owner=alice, required_remote_weeks=0)
    mine = OfferFactory(owner=alice, name="Acme")
    EquityGrantFactory(package=mine.package)
    other = OfferFactory(owner=alice, name="Bigco")
    other.package.base = Decimal("260000")
    other.package.save()
    EquityGrantFactory(package=other.package)
    scenario = ScenarioFactory(owner=alice, offer=mine, extra_stock_yearly=Decimal("0"))
    response = client_alice.post(
        reverse("offers:scenario_flip", args=[scenario.pk]), {"component": "sign_on"}
    )
    assert response.status_code == 200
    text = _text(response)
    assert re.search(r"Ask for USD [\d,]+ more sign-on to rank first\.", text), text
    # The value a unit adds: per USD 1 of the ask, in the home currency (USD here too).
    assert re.search(r"Each USD 1 adds about USD \d+\.\d\d to the value", text), text
    assert not BARE_AMOUNT.findall(text.split("Find the ask", 1)[1])


def test_an_ask_out_of_reach_names_the_limit_in_the_asks_currency(alice):
    scenario = ScenarioFactory(owner=alice)
    answer = FlipAnswer("base", None, None, "SGD", "USD", message="out_of_reach")
    page = render_to_string(
        "offers/partials/scenario_flip.html",
        {"answer": answer, "scenario": scenario, "flip_form": FlipForm(others=[])},
    )
    assert FLIP_MAX_ASK == 5_000_000
    assert "No ask up to SGD 5,000,000 in this component is enough." in html.unescape(page)


def test_every_amount_on_the_demos_negotiation_pages_says_its_currency(client, demo_user):
    client.force_login(demo_user)
    for offer in Offer.objects.filter(owner=demo_user):
        text = _text(client.get(reverse("offers:negotiation", args=[offer.pk])))
        assert not BARE_AMOUNT.findall(text), (offer.name, BARE_AMOUNT.findall(text))
        # The log page, too: Meta's holds a counter that revised the stock, its value before
        # and after and the change each with the currency.
        text = _text(client.get(reverse("offers:negotiation_log", args=[offer.pk])))
        assert not BARE_AMOUNT.findall(text), (offer.name, BARE_AMOUNT.findall(text))
    meta = Offer.objects.get(owner=demo_user, name__startswith="Meta")
    text = _text(client.get(reverse("offers:negotiation_log", args=[meta.pk])))
    assert re.search(r"USD [\d,]+ → USD [\d,]+ \(\+USD [\d,]+\)", text), text
