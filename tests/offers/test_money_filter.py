"""The money filter's fast path writes exactly what Django's floatformat(value, "0g") writes."""

from __future__ import annotations

import pytest
from django.template.defaultfilters import floatformat
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from offers.templatetags.offerdesk import money


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.5, "1"),
        (-0.5, "-1"),
        (2.5, "3"),
        (-2.5, "-3"),
        (0.49999999999999994, "0"),
        (-0.3, "0"),
        (1234567.5, "1,234,568"),
        (-999.5, "-1,000"),
    ],
)
def test_halves_round_away_from_zero_and_thousands_are_grouped(language, value, text):
    with translation.override(language):
        assert money(value) == text == floatformat(value, "0g")
        assert money(value, "USD") == f"USD {text}"


# Amounts to the millionth (Django's filter prints a float below ~1e-200 as it is, not "0").
@given(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e16, max_value=1e16).map(
        lambda v: round(v, 6)
    )
)
def test_same_text_as_floatformat(value):
    with translation.override("en"):
        assert money(value) == floatformat(value, "0g")
    with translation.override("zh-hant"):
        assert money(value) == floatformat(value, "0g")


def test_empty_and_text_values():
    assert money(None) == "—"
    assert money("") == "—"
    assert money("n/a") == "n/a"
    assert money(float("nan")) == floatformat(float("nan"), "0g")
