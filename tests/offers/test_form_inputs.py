"""Inputs refused clearly on the offers pages: preferences, scenarios, the negotiation log, offers.

Posted through the test client as the pages render the forms: the message next to its field,
nothing saved.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from compensation.form_fields import TEXT_MAX_LENGTH, NumberField
from offers.forms import money_field
from offers.logic.criteria import CRITERIA
from offers.models import NegotiationEntry, Offer, Preferences, Scenario
from tests.compensation.test_form_fields import DIGITS, EXPONENT, XYZ, assert_field_error
from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory
from tests.offers.test_negotiation_log import form_data
from tests.offers.test_scenarios import _form as scenario_form
from tests.offers.test_views_offers import offer_post

pytestmark = pytest.mark.django_db
TOO_LONG = (
    f"Ensure this value has at most {TEXT_MAX_LENGTH} characters (it has {TEXT_MAX_LENGTH + 1})."
)


def preferences_post(**changes):
    return {
        "home_timezone": "Asia/Taipei",
        "day_start": "08:00",
        "day_end": "23:00",
        "required_remote_weeks": "8",
        "horizon_years": "4",
        "home_currency": "USD",
        "basis": "gross",
        "risk_percentile": "50",
        **{c.weight_field: "1" for c in CRITERIA},
        **changes,
    }


# Preferences -------------------------------------------------------------------------------


def test_preferences_refuse_a_home_currency_outside_iso_4217(client_alice, alice):
    # It used to be saved ("Preferences saved"), and then every option read "Cannot evaluate".
    response = client_alice.post(
        reverse("offers:preferences"), preferences_post(home_currency="XYZ")
    )
    assert response.status_code == 400
    assert_field_error(response, "home_currency", XYZ)
    assert not Preferences.objects.filter(owner=alice).exists()


def test_preferences_keep_the_saved_currency_when_refused(client_alice, alice):
    prefs = PreferencesFactory(owner=alice, home_currency="TWD")
    data = preferences_post(home_currency="xyz", version=str(prefs.version))
    assert client_alice.post(reverse("offers:preferences"), data).status_code == 400
    prefs.refresh_from_db()
    assert prefs.home_currency == "TWD" and prefs.version == 1


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1_000", DIGITS),
        ("１２３", DIGITS),
        ("٣", DIGITS),
        ("1e15", EXPONENT),
        ("1000000000000000", "Must be at most 1,000,000,000."),
    ],
)
def test_preferences_minimum_total_is_a_plain_amount(client_alice, alice, typed, message):
    response = client_alice.post(
        reverse("offers:preferences"), preferences_post(min_first_year_total=typed)
    )
    assert response.status_code == 400
    assert_field_error(response, "min_first_year_total", message)
    assert not Preferences.objects.filter(owner=alice).exists()


# Scenarios ---------------------------------------------------------------------------------


@pytest.fixture
def scenario(alice):
    PreferencesFactory(owner=alice)
    return ScenarioFactory(owner=alice, offer=OfferFactory(owner=alice), name="Counter")


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("base", "250_000", DIGITS),
        ("extra_sign_on", "５０００", DIGITS),
        ("extra_stock_yearly", "5e4", EXPONENT),
        ("refresher_yearly", "9,999,999,999", "Must be at most 1,000,000,000."),
        ("notes", "n" * (TEXT_MAX_LENGTH + 1), TOO_LONG),
    ],
)
def test_scenario_form_refuses_clearly(client_alice, scenario, field, typed, message):
    before = Scenario.objects.values().get(pk=scenario.pk)
    response = client_alice.post(
        reverse("offers:scenario_update", args=[scenario.pk]),
        scenario_form(scenario, **{field: typed}),
    )
    assert response.status_code == 200
    assert_field_error(response, field, message)
    assert Scenario.objects.values().get(pk=scenario.pk) == before


def test_scenario_amount_takes_thousands_separators(client_alice, scenario):
    response = client_alice.post(
        reverse("offers:scenario_update", args=[scenario.pk]),
        scenario_form(scenario, base="250,000"),
    )
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.base == 250000


# The negotiation log -----------------------------------------------------------------------


@pytest.fixture
def offer(alice):
    PreferencesFactory(owner=alice)
    return OfferFactory(owner=alice)


@pytest.mark.parametrize(
    ("typed", "message"),
    [("260_000", DIGITS), ("٢٦٠٠٠٠", DIGITS), ("2.6e5", EXPONENT)],
)
def test_negotiation_revised_terms_are_plain_amounts(client_alice, offer, typed, message):
    response = client_alice.post(
        reverse("offers:negotiation_log", args=[offer.pk]),
        form_data(offer, outcome="countered", answered_on="2026-11-24", revised_base=typed),
    )
    assert response.status_code == 400
    assert_field_error(response, "revised_base", message)
    assert not NegotiationEntry.objects.exists()


# The offer form's amounts (money_field, outside the OfferForm class) ------------------------


def test_money_field_is_the_shared_number_field():
    field = money_field("Base")
    assert isinstance(field, NumberField)
    assert field.min_value == 0 and field.max_value == 1_000_000_000


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("base", "250_000", DIGITS),
        ("base", "２５００００", DIGITS),
        ("sign_on_year1", "3e4", EXPONENT),
        ("stock_grant", "1000000000000000", "Must be at most 1,000,000,000."),
    ],
)
def test_offer_amounts_are_refused_clearly(client_alice, alice, field, typed, message):
    response = client_alice.post(reverse("offers:offer_create"), offer_post(**{field: typed}))
    assert response.status_code == 400
    assert_field_error(response, field, message)
    assert not Offer.objects.filter(owner=alice).exists()


def test_offer_amounts_take_thousands_separators(client_alice, alice):
    data = offer_post(base="250,000", start_date=str(dt.date(2027, 2, 1)))
    assert client_alice.post(reverse("offers:offer_create"), data).status_code == 302
    assert Offer.objects.get(owner=alice).package.base == 250000


# The offer form ------------------------------------------------------------------------------


def test_offer_notes_of_5_mb_are_refused(client_alice, alice):
    five_mb = "n" * (5 * 1024 * 1024)
    response = client_alice.post(reverse("offers:offer_create"), offer_post(notes=five_mb))
    assert_field_error(
        response,
        "notes",
        f"Ensure this value has at most {TEXT_MAX_LENGTH} characters (it has {len(five_mb)}).",
    )
    assert not Offer.objects.filter(owner=alice).exists()


@pytest.mark.parametrize("field", ["currency", "stock_currency"])
def test_offer_currency_outside_iso_4217_says_so(client_alice, alice, field):
    response = client_alice.post(reverse("offers:offer_create"), offer_post(**{field: "XYZ"}))
    assert_field_error(response, field, XYZ)
    assert not Offer.objects.filter(owner=alice).exists()
