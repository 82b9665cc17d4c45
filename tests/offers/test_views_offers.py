"""Offer pages: create, edit (with stale-edit protection), delete to trash, compare, preferences."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Revision
from compensation.models import Package
from offers.logic.criteria import CRITERIA
from offers.models import Offer, Preferences
from tests.factories import (
    BandFactory,
    CompanyFactory,
    EquityGrantFactory,
    LevelFactory,
    OfferFactory,
    PreferencesFactory,
)

pytestmark = pytest.mark.django_db


def offer_post(**overrides):
    data = {
        "name": "Acme offer",
        "kind": "external",
        "status": "received",
        "work_timezone": "Asia/Singapore",
        "remote_policy": "hybrid",
        "office_days_per_week": "3",
        "remote_weeks_per_year": "6",
        "currency": "SGD",
        "base": "250000",
        "raise_pct": "3",
        "bonus_target_pct": "20",
        "bonus_multiplier": "1",
        "sign_on_year1": "30000",
        "clawback_months": "12",
        "stock_grant": "400000",
        "vesting_preset": "even_4y_quarterly",
        "start_date": "2027-02-01",
    }
    data.update(overrides)
    return data


def test_create_offer_with_package(client_alice, alice):
    response = client_alice.post(reverse("offers:offer_create"), offer_post())
    assert response.status_code == 302
    offer = Offer.objects.get(owner=alice)
    assert offer.package.currency == "SGD"
    assert offer.package.base == Decimal("250000")
    assert offer.package.sign_ons.get().amount == Decimal("30000")
    grant = offer.package.grants.get()
    assert grant.value == Decimal("400000") and grant.frequency_months == 3
    assert Revision.objects.filter(owner=alice, action="created").count() == 1


def test_create_defaults_from_band(client_alice, alice):
    company = CompanyFactory(owner=None, name="Bandco", share_price=Decimal("50"))
    level = LevelFactory(company=company, code="E5")
    BandFactory(
        level=level,
        base_mid=Decimal("210000"),
        stock_mid=Decimal("120000"),
        bonus_target_pct=Decimal("15"),
    )
    data = offer_post(
        company=company.pk,
        level=level.pk,
        base="",
        stock_grant="",
        bonus_target_pct="",
        currency="USD",
    )
    response = client_alice.post(reverse("offers:offer_create"), data)
    assert response.status_code == 302, response.content[:2000]
    package = Package.objects.get(owner=alice)
    assert package.base == Decimal("210000")
    assert package.bonus_target_pct == Decimal("15")
    assert package.grants.get().value == Decimal("480000")


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("work_timezone", "Mars/Olympus", "not a known time zone"),
        ("base", "-5", "Must be at least 0."),
        ("currency", "U$D", "not an ISO 4217 currency code"),
        ("raise_pct", "200", "Must be at most 50."),
        ("base", "1e30", "without an exponent"),
        ("start_date", "2500-01-01", "2500-01-01 is outside the years 1900 to 2200"),
        ("deadline", "1899-12-31", "1899-12-31 is outside the years 1900 to 2200"),
    ],
)
def test_bad_input_is_a_form_error(client_alice, alice, field, value, message):
    response = client_alice.post(reverse("offers:offer_create"), offer_post(**{field: value}))
    assert response.status_code == 400
    assert message.encode() in response.content
    assert not Offer.objects.exists() and not Package.objects.exists()


def test_edit_refuses_stale_version(client, alice):
    offer = OfferFactory(owner=alice, name="Original")
    client.force_login(alice)
    url = reverse("offers:offer_edit", args=[offer.pk])
    page = client.get(url)
    assert page.status_code == 200
    version = offer.version
    base = offer_post(
        name="First tab",
        version=str(version),
        package_version=str(offer.package.version),
        currency="USD",
    )
    for k in ("sign_on_year1", "clawback_months", "stock_grant", "vesting_preset"):
        base.pop(k)
    assert client.post(url, base).status_code == 302
    second = dict(base, name="Second tab")
    response = client.post(url, second)
    assert response.status_code == 409
    assert b"changed since you opened it" in response.content
    offer.refresh_from_db()
    assert offer.name == "First tab"
    assert Revision.objects.filter(owner=alice, object_id=offer.pk, action="changed").count() >= 1


def test_delete_moves_to_trash_and_restores(client_alice, alice):
    offer = OfferFactory(owner=alice, name="Keep me")
    EquityGrantFactory(package=offer.package)
    url = reverse("offers:offer_delete", args=[offer.pk])
    assert client_alice.get(url).status_code == 200
    assert Offer.objects.filter(pk=offer.pk).exists()
    assert client_alice.post(url).status_code == 302
    assert not Offer.objects.filter(pk=offer.pk).exists()
    assert not Package.objects.filter(pk=offer.package_id).exists()
    revision = Revision.objects.get(owner=alice, action="deleted")
    trash = client_alice.get(reverse("offers:trash"))
    assert b"Keep me" in trash.content
    client_alice.post(reverse("offers:revision_restore", args=[revision.pk]))
    restored = Offer.objects.get(pk=offer.pk)
    assert restored.package.grants.count() == 1


def test_compare_shows_difference_per_year(client_alice, alice):
    # Both start on 4 Jan 2027: valued from that day, each year 1 is a full year of base.
    PreferencesFactory(owner=alice, home_currency="USD", decision_date=dt.date(2027, 1, 4))
    a = OfferFactory(owner=alice, name="A")
    b = OfferFactory(owner=alice, name="B")
    Package.objects.filter(pk=a.package_id).update(
        base=Decimal("240000"), raise_pct=0, bonus_target_pct=0
    )
    Package.objects.filter(pk=b.package_id).update(
        base=Decimal("200000"), raise_pct=0, bonus_target_pct=0
    )
    response = client_alice.get(reverse("offers:offer_compare"), {"a": a.pk, "b": b.pk})
    assert response.status_code == 200
    rows = response.context["rows"]
    base_cell = next(c for c in rows[0]["cells"] if c[0] == "base")
    assert base_cell[3] == pytest.approx(40000)


def test_preferences_save_and_bad_timezone(client_alice, alice):
    url = reverse("offers:preferences")
    data = {
        "home_timezone": "Asia/Taipei",
        "day_start": "08:00",
        "day_end": "23:00",
        "required_remote_weeks": "8",
        "horizon_years": "4",
        "home_currency": "usd",
        "basis": "gross",
        "risk_percentile": "50",
        "relocation_ok": "on",
        "reminder_days": "3",
        **{c.weight_field: "1" for c in CRITERIA},
    }
    assert client_alice.post(url, data).status_code == 302
    prefs = Preferences.objects.get(owner=alice)
    assert prefs.home_currency == "USD" and prefs.required_remote_weeks == 8
    bad = client_alice.post(
        url, dict(data, home_timezone="Nowhere/Atlantis", version=str(prefs.version))
    )
    assert bad.status_code == 400 and b"not a known time zone" in bad.content
    zero = client_alice.post(
        url,
        dict(
            data,
            version=str(prefs.version),
            **{c.weight_field: "0" for c in CRITERIA},
        ),
    )
    assert zero.status_code == 400


def test_dashboard_ranks_and_explains(client_alice, alice):
    PreferencesFactory(owner=alice, required_remote_weeks=8)
    remote = OfferFactory(
        owner=alice, name="Remote one", remote_policy="fully_remote", work_timezone="Asia/Taipei"
    )
    onsite = OfferFactory(owner=alice, name="Onsite one", remote_weeks_per_year=2)
    response = client_alice.get(reverse("offers:dashboard"))
    assert response.status_code == 200
    ranking = response.context["board"].ranking
    assert ranking[0].key == str(remote.pk)
    excluded = next(r for r in ranking if r.key == str(onsite.pk))
    assert excluded.excluded and "2 remote weeks" in excluded.exclusion_reasons[0]
    html = response.content.decode()
    assert 'data-chart="fig-yearly"' in html and 'id="fig-cumulative"' in html
    assert "Excluded" in html


def test_dashboard_empty_state(client_alice):
    response = client_alice.get(reverse("offers:dashboard"))
    assert b"Add your first option" in response.content


def _many_offers(user, n):
    PreferencesFactory(owner=user)
    company = CompanyFactory(owner=user)
    for i in range(n):
        offer = OfferFactory(
            owner=user,
            name=f"Option {i:02d}",
            package__company=company,
            company=company,
            start_date=dt.date(2027, 1, 4),
        )
        EquityGrantFactory(package=offer.package, vest_start=dt.date(2027, 1, 4))


@pytest.mark.parametrize("n", [1, 10, 50])
def test_dashboard_query_count_is_constant(client_alice, alice, n):
    _many_offers(alice, n)
    client_alice.get(reverse("offers:dashboard"))  # warm-up: stamps the session once
    # session, user, preferences, offers (+ joins), sign-ons, grants, refreshers, fx rates,
    # the current job's package (no stay option here: the pay until each start date comes
    # from it), upcoming rounds, deadlines: 11 whatever the number of options. Savepoints of
    # ATOMIC_REQUESTS inside the test transaction are not queries of the page.
    with CaptureQueriesContext(connection) as ctx:
        response = client_alice.get(reverse("offers:dashboard"))
    assert response.status_code == 200
    queries = [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(queries) <= 11, "\n".join(q[:120] for q in queries)
    counts = getattr(test_dashboard_query_count_is_constant, "counts", {})
    counts[n] = len(queries)
    test_dashboard_query_count_is_constant.counts = counts
    if len(counts) > 1:
        assert len(set(counts.values())) == 1, counts


def test_dashboard_html_size_with_50_options(client_alice, alice):
    _many_offers(alice, 50)
    response = client_alice.get(reverse("offers:dashboard"))
    assert response.status_code == 200
    assert len(response.content) <= 150 * 1024, len(response.content)


def test_offer_list_query_count_constant(client_alice, alice):
    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client_alice.get(reverse("offers:offer_list")).status_code == 200
        return len([q for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]])

    _many_offers(alice, 2)
    count()  # warm-up: stamps the session once
    # session, user, offers (+ joins), sign-ons, grants, refreshers
    few = count()
    _many_offers(alice, 20)
    assert count() == few <= 6


def test_restoring_a_version_drops_children_added_later(client_alice, alice):
    from accounts.history import history_for
    from compensation.package_parts import SignOn
    from offers import services

    offer = OfferFactory(owner=alice)
    EquityGrantFactory(package=offer.package)
    scenario = services.scenario_create(
        user=alice,
        offer=offer,
        data={
            "name": "more",
            "extra_sign_on": Decimal("25000"),
            "extra_stock_yearly": Decimal("10000"),
        },
    )
    services.scenario_accept(user=alice, scenario=scenario)
    assert (
        offer.package.grants.count() == 2
        and SignOn.objects.filter(package=offer.package).count() == 1
    )
    before = history_for(user=alice, obj=offer).filter(summary__startswith="before accepting").get()
    response = client_alice.post(reverse("offers:revision_restore", args=[before.pk]))
    assert response.status_code == 302
    assert offer.package.grants.count() == 1
    assert not SignOn.objects.filter(package=offer.package).exists()


def test_unknown_currency_is_shown_as_not_evaluable(client_alice, alice):
    # An ISO 4217 code without an exchange rate (a code outside ISO 4217 is refused by the form).
    assert (
        client_alice.post(reverse("offers:offer_create"), offer_post(currency="ISK")).status_code
        == 302
    )
    response = client_alice.get(reverse("offers:dashboard"))
    assert response.status_code == 200
    assert b"No exchange rate from ISK to USD" in response.content


def test_compare_shows_both_figures_the_difference_and_the_cumulative(client_alice, alice):
    PreferencesFactory(
        owner=alice, home_currency="USD", decision_date=dt.date(2027, 1, 4), horizon_years=3
    )
    a = OfferFactory(owner=alice, name="Option A")
    b = OfferFactory(owner=alice, name="Option B")
    Package.objects.filter(pk=a.package_id).update(
        base=Decimal("240000"), raise_pct=0, bonus_target_pct=0
    )
    Package.objects.filter(pk=b.package_id).update(
        base=Decimal("200000"), raise_pct=0, bonus_target_pct=0
    )
    response = client_alice.get(reverse("offers:offer_compare"), {"a": a.pk, "b": b.pk})
    side = response.context["side_by_side"]
    assert len(side) == 3
    # Same stock and start: the 40,000 base gap is the whole gap, each year and summed.
    assert [r.difference for r in side] == pytest.approx([40000, 40000, 40000])
    assert [r.cumulative_difference for r in side] == pytest.approx([40000, 80000, 120000])
    assert side[-1].a_cumulative - side[-1].b_cumulative == pytest.approx(120000)
    cumulative = {comp: diff for comp, _a, _b, diff in response.context["cumulative"]}
    assert cumulative["base"] == pytest.approx(120000)
    html = response.content.decode()
    assert "Side by side" in html and "Cumulative difference" in html
    assert "data-cumulative" in html
    assert "120,000" in html  # the cumulative difference, as the page prints it
    assert html.count('class="valuation"') == 2  # both options' own tables stay
