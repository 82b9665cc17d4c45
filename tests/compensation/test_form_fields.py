"""Inputs refused clearly: ISO 4217 codes, numbers in plain digits, bounded free text.

Each form is posted through the test client as its page renders it: the message is next to the
field it is about, and nothing is saved.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import escape

from compensation.form_fields import NumberField, parse_number, plain_figure
from compensation.models import Band, Company, FxRate, LocationPreset, Package
from compensation.package_parts import EquityGrant
from tests.compensation.test_views import package_post
from tests.factories import CompanyFactory, LevelFactory

pytestmark = pytest.mark.django_db

XYZ = "XYZ is not an ISO 4217 currency code; use one such as USD, SGD, TWD."
DIGITS = "Use digits 0-9, e.g. 120,000."
EXPONENT = "Write the number out in full, without an exponent: 1,500,000, not 1.5e6."


def assert_field_error(response, name: str, message: str) -> None:
    """Assert the page shows ``message`` in the error block of the field ``name``."""
    body = response.content.decode()
    block = f'id="id_{name}_error" role="alert">'
    assert block in body, f"no error next to {name}"
    errors = body.split(block, 1)[1].split("</div>", 1)[0]
    assert escape(message) in errors, errors


COMPANY = {
    "name": "Acme AI",
    "currency": "USD",
    "share_price": "50",
    "growth_pct": "5",
    "volatility_pct": "30",
    "liquidity_discount_pct": "0",
}
LOCATION = {
    "name": "Hsinchu",
    "currency": "TWD",
    "effective_tax_pct": "18",
    "time_zone": "Asia/Taipei",
}
FX = {"currency": "USD", "to_currency": "TWD", "rate": "31.5", "as_of": "2026-11-01"}


def band_data(level, **changes):
    return {
        "level": level.pk,
        "currency": "USD",
        "base_min": "100",
        "base_mid": "150",
        "base_max": "200",
        "stock_min": "0",
        "stock_mid": "0",
        "stock_max": "0",
        "bonus_target_pct": "10",
        **changes,
    }


@pytest.fixture
def level():
    return LevelFactory(company=CompanyFactory(owner=None))


# One currency validator --------------------------------------------------------------------


def test_company_refuses_a_code_outside_iso_4217(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:company_create"), {**COMPANY, "currency": "XYZ"}
    )
    assert response.status_code == 200
    assert_field_error(response, "currency", XYZ)
    assert not Company.objects.filter(owner=alice).exists()


def test_band_refuses_a_code_outside_iso_4217(client_alice, alice, level):
    response = client_alice.post(
        reverse("compensation:band_create"), band_data(level, currency="XYZ")
    )
    assert response.status_code == 200
    assert_field_error(response, "currency", XYZ)
    assert not Band.objects.exists()


@pytest.mark.parametrize("field", ["currency", "to_currency"])
def test_fx_rate_refuses_a_code_outside_iso_4217(client_alice, alice, field):
    response = client_alice.post(reverse("compensation:fx_list"), {**FX, field: "XYZ"})
    assert response.status_code == 200
    assert_field_error(response, field, XYZ)
    assert not FxRate.objects.filter(owner=alice).exists()


def test_location_refuses_a_code_outside_iso_4217(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:location_list"), {**LOCATION, "currency": "XYZ"}
    )
    assert response.status_code == 200
    assert_field_error(response, "currency", XYZ)
    assert not LocationPreset.objects.filter(owner=alice).exists()


@pytest.mark.parametrize("field", ["currency", "grants-0-price_currency"])
def test_package_and_grant_price_refuse_a_code_outside_iso_4217(client_alice, alice, field):
    response = client_alice.post(
        reverse("compensation:package_create"), package_post(**{field: "XYZ"})
    )
    assert response.status_code == 200
    assert_field_error(response, field, XYZ)
    assert not Package.objects.filter(owner=alice).exists()
    assert not EquityGrant.objects.exists()


def test_a_code_in_small_letters_is_read_in_capitals(client_alice, alice):
    response = client_alice.post(reverse("compensation:fx_list"), {**FX, "to_currency": "twd"})
    assert response.status_code == 302
    assert FxRate.objects.get(owner=alice).to_currency == "TWD"


def test_a_word_is_told_what_a_code_is(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:company_create"), {**COMPANY, "currency": "dollars"}
    )
    assert_field_error(
        response,
        "currency",
        "DOLLARS is not an ISO 4217 currency code; use one such as USD, SGD, TWD.",
    )


# Numbers in plain digits -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1_000", DIGITS),
        ("１２３", DIGITS),  # full-width
        ("٣", DIGITS),  # Arabic-Indic
        ("1e15", EXPONENT),
        ("abc", "Enter a number in digits, e.g. 120,000."),
        ("2,000,000,000", "Must be at most 1,000,000,000."),
        ("12,34", "Put commas only between groups of three digits, e.g. 1,200,000.50."),
        ("-1", "Must be at least 0."),
        ("100.555", "Ensure that there are no more than 2 decimal places."),
    ],
)
def test_band_money_is_refused_with_a_clear_message(client_alice, level, typed, message):
    response = client_alice.post(
        reverse("compensation:band_create"), band_data(level, base_min=typed)
    )
    assert response.status_code == 200
    assert_field_error(response, "base_min", message)
    assert not Band.objects.exists()


def test_band_money_takes_thousands_separators(client_alice, alice, level):
    data = band_data(level, base_min="196,000", base_mid="218,000.50", base_max=" 240000 ")
    assert client_alice.post(reverse("compensation:band_create"), data).status_code == 302
    band = Band.objects.get(owner=alice)
    assert (band.base_min, band.base_mid, band.base_max) == (196000, Decimal("218000.50"), 240000)


@pytest.mark.parametrize("typed", ["0", "-1", "0.000000001"])
def test_fx_rate_minimum_is_a_plain_decimal(client_alice, alice, typed):
    response = client_alice.post(reverse("compensation:fx_list"), {**FX, "rate": typed})
    assert response.status_code == 200
    assert_field_error(response, "rate", "Must be at least 0.00000001.")
    assert "1E-8" not in response.content.decode()
    assert not FxRate.objects.filter(owner=alice).exists()


def test_fx_rate_minimum_in_traditional_chinese_is_a_plain_decimal(client_alice, alice):
    client_alice.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    response = client_alice.post(reverse("compensation:fx_list"), {**FX, "rate": "0"})
    assert_field_error(response, "rate", "不得低於 0.00000001。")
    assert "1E-8" not in response.content.decode()
    response = client_alice.post(reverse("compensation:fx_list"), {**FX, "to_currency": "XYZ"})
    assert_field_error(
        response, "to_currency", "XYZ 不是 ISO 4217 貨幣代碼；請使用 USD、SGD、TWD 等代碼。"
    )
    assert not FxRate.objects.filter(owner=alice).exists()


def test_fx_rate_refuses_an_exponent(client_alice, alice):
    response = client_alice.post(reverse("compensation:fx_list"), {**FX, "rate": "3.15e1"})
    assert_field_error(response, "rate", EXPONENT)
    assert not FxRate.objects.filter(owner=alice).exists()


def test_package_money_bound_is_said_in_figures(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:package_create"), package_post(base="1000000000000000")
    )
    assert_field_error(response, "base", "Must be at most 1,000,000,000.")
    response = client_alice.post(
        reverse("compensation:package_create"), package_post(**{"signons-0-amount": "５０"})
    )
    assert_field_error(response, "signons-0-amount", DIGITS)
    assert not Package.objects.filter(owner=alice).exists()


def test_percentages_state_their_bounds(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:company_create"), {**COMPANY, "growth_pct": "-95"}
    )
    assert_field_error(response, "growth_pct", "Must be at least -90.")
    assert not Company.objects.filter(owner=alice).exists()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", Decimal("0")),
        ("120000", Decimal("120000")),
        ("120,000", Decimal("120000")),
        ("1,234,567.89", Decimal("1234567.89")),
        (" 31.5 ", Decimal("31.5")),
        (".5", Decimal("0.5")),
        ("7.", Decimal("7")),
        ("-90", Decimal("-90")),
    ],
)
def test_parse_number_reads_plain_digits(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1_000", "digits"),
        ("１２３", "digits"),
        ("٣", "digits"),
        ("१२", "digits"),  # Devanagari
        ("1e5", "exponent"),
        ("1.5E-3", "exponent"),
        ("1,00", "grouping"),
        ("1,0000", "grouping"),
        (",100", "grouping"),
        ("NaN", "invalid"),
        ("Infinity", "invalid"),
        ("0x1F", "invalid"),
        ("1.2.3", "invalid"),
        ("$100", "invalid"),
        ("", "invalid"),
        ("-", "invalid"),
    ],
)
def test_parse_number_refuses_everything_else_with_its_reason(text, code):
    with pytest.raises(ValidationError) as info:
        parse_number(text)
    assert info.value.code == code


def test_bounds_are_written_as_people_write_them():
    assert plain_figure(Decimal("1000000000")) == "1,000,000,000"
    assert plain_figure(Decimal("0.00000001")) == "0.00000001"
    assert plain_figure(Decimal("99999.99")) == "99,999.99"
    assert plain_figure(Decimal("-90.000")) == "-90"


def test_number_field_widget_lets_commas_be_typed():
    html = str(NumberField(label="Base").widget.render("base", "120000"))
    assert 'type="text"' in html and 'inputmode="decimal"' in html


# Free text ---------------------------------------------------------------------------------


def test_company_notes_have_a_limit_with_a_counter(client_alice, alice):
    url = reverse("compensation:company_create")
    response = client_alice.post(url, {**COMPANY, "notes": "n" * 10_001})
    assert response.status_code == 200
    assert_field_error(
        response, "notes", "Ensure this value has at most 10000 characters (it has 10001)."
    )
    assert 'maxlength="10000"' in response.content.decode()
    assert not Company.objects.filter(owner=alice).exists()
    assert client_alice.post(url, {**COMPANY, "notes": "n" * 10_000}).status_code == 302


def test_vesting_text_has_a_limit(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:package_create"),
        package_post(**{"grants-0-weights_text": "25," * 40 + "25"}),
    )
    assert_field_error(
        response,
        "grants-0-weights_text",
        "Ensure this value has at most 100 characters (it has 122).",
    )
    assert not Package.objects.filter(owner=alice).exists()
