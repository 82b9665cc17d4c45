from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from compensation import demo
from compensation.models import Band, Company, FxRate, LocationPreset, Package
from tests.factories import (
    BandFactory,
    CompanyFactory,
    FxRateFactory,
    LevelFactory,
    LocationPresetFactory,
    PackageFactory,
)

pytestmark = pytest.mark.django_db
# Every page: session, user, preferences (time-zone middleware), request savepoint and its
# release, session save (savepoint, update, release).
PAGE_OVERHEAD = 8


def fig_of(response, fig_id):
    match = re.search(
        rf'<script id="{fig_id}" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, f"no {fig_id}"
    return json.loads(match.group(1))


# Companies --------------------------------------------------------------------------------


def test_company_list_shows_ladders(client_alice):
    demo.seed_reference()
    response = client_alice.get(reverse("compensation:company_list"))
    assert response.status_code == 200
    body = response.content.decode()
    for name in ("Google", "Meta", "TikTok", "Northwind AI", "ICT4", "3-1"):
        assert name in body


@pytest.mark.parametrize("n", [1, 20])
def test_company_list_query_count_is_constant(client_alice, alice, django_assert_num_queries, n):
    for _ in range(n):
        LevelFactory(company=CompanyFactory(owner=alice))
    # session, user, preferences (time-zone middleware), savepoint, companies, levels,
    # release, then the session save (savepoint, update, release).
    with django_assert_num_queries(PAGE_OVERHEAD + 2):
        assert client_alice.get(reverse("compensation:company_list")).status_code == 200


def test_shared_company_detail_with_bands_and_chart(client_alice, alice, charlie):
    demo.seed_reference()
    meta = Company.objects.get(name="Meta")
    mine = BandFactory(owner=alice, level=meta.levels.get(code="E5"), source="my recruiter")
    BandFactory(owner=charlie, level=meta.levels.get(code="E5"), source="charlie's secret")
    response = client_alice.get(reverse("compensation:company_detail", args=[meta.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "my recruiter" in body and "charlie&#x27;s secret" not in body and "secret" not in body
    assert reverse("compensation:band_edit", args=[mine.pk]) in body
    fig = fig_of(response, "ladder-fig")
    assert fig["data"][0]["x"] == [["E5", "E6"], ["Base", "Base"]]


def test_company_create_edit_and_bad_input(client_alice, alice):
    url = reverse("compensation:company_create")
    assert client_alice.get(url).status_code == 200
    data = {
        "name": "Acme AI",
        "currency": "USD",
        "share_price": "50",
        "growth_pct": "5",
        "volatility_pct": "30",
        "liquidity_discount_pct": "0",
        "vesting_preset": "meta_quarterly",
    }
    response = client_alice.post(url, data)
    company = Company.objects.get(owner=alice)
    assert response.status_code == 302 and company.vesting_preset == "meta_quarterly"
    again = client_alice.post(url, data)  # duplicate name: form error, not a 500
    assert again.status_code == 200 and Company.objects.filter(owner=alice).count() == 1
    bad = client_alice.post(
        url, {**data, "name": "B", "currency": "dollars", "volatility_pct": "-1"}
    )
    assert bad.status_code == 200 and "field-error" in bad.content.decode()
    edit = reverse("compensation:company_edit", args=[company.pk])
    assert client_alice.get(edit).status_code == 200
    assert client_alice.post(edit, {**data, "name": "Acme 2"}).status_code == 302
    company.refresh_from_db()
    assert company.name == "Acme 2"


def test_shared_company_cannot_be_edited(client_alice):
    shared = CompanyFactory(owner=None)
    assert (
        client_alice.get(reverse("compensation:company_edit", args=[shared.pk])).status_code == 404
    )


def test_level_create(client_alice, alice):
    company = CompanyFactory(owner=alice)
    url = reverse("compensation:level_create", args=[company.pk])
    assert (
        client_alice.post(url, {"code": "E5", "order": "5", "equivalence": "5"}).status_code == 302
    )
    assert company.levels.get().code == "E5"
    bad = client_alice.post(url, {"code": "", "order": "x"})
    assert bad.status_code == 200 and company.levels.count() == 1


# Bands ------------------------------------------------------------------------------------


def test_band_create_edit_delete(client_alice, alice):
    level = LevelFactory(company=CompanyFactory(owner=None))
    data = {
        "level": level.pk,
        "currency": "USD",
        "base_min": "100",
        "base_mid": "150",
        "base_max": "200",
        "stock_min": "0",
        "stock_mid": "0",
        "stock_max": "0",
        "bonus_target_pct": "10",
        "as_of": "2026-10-01",
    }
    assert client_alice.get(reverse("compensation:band_create")).status_code == 200
    assert client_alice.post(reverse("compensation:band_create"), data).status_code == 302
    band = Band.objects.get(owner=alice)
    bad = client_alice.post(
        reverse("compensation:band_edit", args=[band.pk]), {**data, "base_max": "120"}
    )
    assert bad.status_code == 200 and "Must be at least the mid-point" in bad.content.decode()
    assert (
        client_alice.post(
            reverse("compensation:band_edit", args=[band.pk]), {**data, "base_max": "300"}
        ).status_code
        == 302
    )
    band.refresh_from_db()
    assert band.base_max == 300
    assert client_alice.get(reverse("compensation:band_delete", args=[band.pk])).status_code == 405
    assert client_alice.post(reverse("compensation:band_delete", args=[band.pk])).status_code == 302
    assert not Band.objects.filter(pk=band.pk).exists()


def test_band_form_hides_other_users_levels(client_alice, charlie):
    hidden = LevelFactory(company=CompanyFactory(owner=charlie))
    data = {
        "level": hidden.pk,
        "currency": "USD",
        "base_min": "1",
        "base_mid": "2",
        "base_max": "3",
        "stock_min": "0",
        "stock_mid": "0",
        "stock_max": "0",
        "bonus_target_pct": "0",
    }
    response = client_alice.post(reverse("compensation:band_create"), data)
    assert response.status_code == 200 and not Band.objects.exists()


def test_band_import_page(client_alice, alice):
    company = CompanyFactory(owner=None, name="Meta")
    LevelFactory(company=company, code="E5")
    url = reverse("compensation:band_import")
    assert client_alice.get(url).status_code == 200
    example = client_alice.get(reverse("compensation:band_import_example"))
    assert example["Content-Type"].startswith("text/csv") and b"base_mid" in example.content
    header = example.content.decode().splitlines()[0]
    good = header + "\nMeta,E5,USD,1,2,3,,,,,,,\n"
    response = client_alice.post(url, {"file": SimpleUploadedFile("b.csv", good.encode())})
    assert response.status_code == 302 and Band.objects.filter(owner=alice).count() == 1
    bad = header + "\nMeta,E5,USD,1,2,3,,,,,,,\nMeta,E5,USD,3,2,1,,,,,,,\n"
    response = client_alice.post(url, {"file": SimpleUploadedFile("b.csv", bad.encode())})
    assert response.status_code == 200
    assert "line 3: base_mid: must be &gt;= base_min" in response.content.decode()
    assert client_alice.post(url, {}).status_code == 200


# FX and places ----------------------------------------------------------------------------


def test_fx_pages(client_alice, alice):
    FxRateFactory()
    url = reverse("compensation:fx_list")
    data = {"currency": "USD", "to_currency": "TWD", "rate": "31.5", "as_of": "2026-11-01"}
    assert client_alice.post(url, data).status_code == 302
    fx = FxRate.objects.get(owner=alice)
    assert client_alice.post(url, {**data, "to_currency": "USD"}).status_code == 200
    assert client_alice.post(url, {**data, "rate": "-1"}).status_code == 200
    edit = reverse("compensation:fx_edit", args=[fx.pk])
    assert client_alice.get(edit).status_code == 200
    assert client_alice.post(edit, {**data, "rate": "32"}).status_code == 302
    fx.refresh_from_db()
    assert fx.rate == 32


@pytest.mark.parametrize("n", [1, 20])
@pytest.mark.parametrize("name", ["compensation:fx_list", "compensation:location_list"])
def test_fx_and_location_lists_query_count(client_alice, alice, django_assert_num_queries, n, name):
    for i in range(n):
        FxRateFactory(owner=alice, as_of=dt.date(2026, 1, 1) + dt.timedelta(i))
        LocationPresetFactory(owner=alice)
    with django_assert_num_queries(PAGE_OVERHEAD + 1):  # the rows
        assert client_alice.get(reverse(name)).status_code == 200


def test_location_pages(client_alice, alice):
    url = reverse("compensation:location_list")
    data = {
        "name": "Hsinchu",
        "currency": "TWD",
        "effective_tax_pct": "18",
        "time_zone": "Asia/Taipei",
    }
    assert client_alice.post(url, data).status_code == 302
    place = LocationPreset.objects.get(owner=alice)
    assert client_alice.post(url, {**data, "effective_tax_pct": "99"}).status_code == 200
    edit = reverse("compensation:location_edit", args=[place.pk])
    assert client_alice.post(edit, {**data, "effective_tax_pct": "19"}).status_code == 302
    assert client_alice.get(url).status_code == 200


# Packages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 20])
def test_package_list_query_count(client_alice, alice, django_assert_num_queries, n):
    for _ in range(n):
        PackageFactory(owner=alice)
    # packages (+company, level, location), sign-ons, grants, refreshers
    with django_assert_num_queries(PAGE_OVERHEAD + 4):
        assert client_alice.get(reverse("compensation:package_list")).status_code == 200


def test_package_detail_shows_projection_and_band_position(client_alice, alice, package):
    level = LevelFactory(company=package.company, order=5)
    package.level = level
    package.save()
    BandFactory(level=level)
    BandFactory(
        level=LevelFactory(company=package.company, order=6, code="NEXT"),
        base_min=240000,
        base_mid=265000,
        base_max=290000,
    )
    response = client_alice.get(reverse("compensation:package_detail", args=[package.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "380,000" in body  # year 1: 200k + 30k + 50k + 100k
    assert "Stock in total" in body and "Stock per year" in body
    assert "4 years: 25/25/25/25% per year, vesting quarterly, no cliff" in body
    assert "th percentile" in body
    fig = fig_of(response, "band-fig")
    assert fig["data"][2]["x"] == [200000.0, 100000.0]


def test_package_detail_survives_invalid_stored_schedule(client_alice, package):
    package.grants.update(weights=[50, 10])
    response = client_alice.get(reverse("compensation:package_detail", args=[package.pk]))
    assert response.status_code == 200 and "could not be computed" in response.content.decode()


def management(prefix, total, initial):
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def package_post(package=None, **overrides):
    data = {
        "name": "Meta E5",
        "currency": "USD",
        "base": "230000",
        "raise_pct": "3",
        "bonus_target_pct": "15",
        "bonus_multiplier": "1",
        "relocation": "0",
        "start_date": "2027-01-04",
        "version": str(package.version) if package else "",
    }
    if package is None:
        data.update(management("signons", 1, 0))
        data.update(
            {"signons-0-amount": "50000", "signons-0-year": "1", "signons-0-clawback_months": "12"}
        )
        data.update(management("grants", 1, 0))
        data.update(
            {
                "grants-0-value": "480000",
                "grants-0-grant_price": "600",
                "grants-0-vest_start": "2027-01-04",
                "grants-0-weights_text": "33,33,22,12",
                "grants-0-frequency_months": "1",
                "grants-0-cliff_months": "0",
            }
        )
        data.update(management("refreshers", 1, 0))
        data.update(
            {
                "refreshers-0-yearly_value": "",
                "refreshers-0-first_year": "2",
                "refreshers-0-weights_text": "25,25,25,25",
                "refreshers-0-frequency_months": "3",
                "refreshers-0-cliff_months": "0",
            }
        )
    else:
        for prefix, items in (
            ("signons", package.sign_ons.all()),
            ("grants", package.grants.all()),
            ("refreshers", package.refreshers.all()),
        ):
            items = list(items)
            data.update(management(prefix, len(items), len(items)))
            for i, obj in enumerate(items):
                data[f"{prefix}-{i}-id"] = str(obj.pk)
                data[f"{prefix}-{i}-package"] = str(package.pk)
                for f in obj._meta.concrete_fields:
                    if f.name in ("id", "package", "weights", "year_frequencies"):
                        continue
                    value = getattr(obj, f.attname)
                    data[f"{prefix}-{i}-{f.name}"] = "" if value is None else str(value)
                if hasattr(obj, "weights"):
                    data[f"{prefix}-{i}-weights_text"] = ",".join(f"{w:g}" for w in obj.weights)
    data.update(overrides)
    return data


def test_package_create_through_the_form(client_alice, alice):
    url = reverse("compensation:package_create")
    assert client_alice.get(url).status_code == 200
    response = client_alice.post(url, package_post())
    assert response.status_code == 302, response.content.decode()[:3000]
    pkg = Package.objects.get(owner=alice)
    grant = pkg.grants.get()
    assert grant.weights == [33.0, 33.0, 22.0, 12.0] and grant.frequency_months == 1
    assert pkg.sign_ons.get().amount == 50000 and not pkg.refreshers.exists()


def test_package_create_with_preset(client_alice, alice):
    data = package_post(**{"grants-0-preset": "amazon_5_15_40_40", "grants-0-weights_text": ""})
    assert client_alice.post(reverse("compensation:package_create"), data).status_code == 302
    grant = Package.objects.get(owner=alice).grants.get()
    assert grant.weights == [5, 15, 40, 40] and grant.year_frequencies == [12, 12, 6, 6]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("grants-0-weights_text", "50,10", "must add up to 100"),
        ("grants-0-weights_text", "a,b", "numbers separated by commas"),
        ("grants-0-cliff_months", "100", "cliff_months"),
        ("grants-0-value", "", "value or its number of shares"),
        ("base", "-5", "Must be at least 0."),
        ("start_date", "someday", "Enter a valid date"),
    ],
)
def test_package_form_errors_are_shown_not_500(client_alice, field, value, message):
    response = client_alice.post(
        reverse("compensation:package_create"), package_post(**{field: value})
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Package.objects.exists()


def test_package_edit_keeps_and_deletes_children(client_alice, package):
    url = reverse("compensation:package_edit", args=[package.pk])
    assert client_alice.get(url).status_code == 200
    data = package_post(package, base="210000", **{"signons-0-DELETE": "on"})
    response = client_alice.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    package.refresh_from_db()
    assert package.base == 210000 and package.version == 2
    assert not package.sign_ons.exists() and package.grants.count() == 1


def test_a_post_without_a_term_keeps_what_is_saved(client_alice, package):
    # A page opened before the bonus timing was on it sends none of it: the package keeps its
    # own (not the model's defaults, 1 and 3); a value sent empty is refused, not defaulted.
    Package.objects.filter(pk=package.pk).update(bonus_fiscal_start_month=4, bonus_payout_month=6)
    package.refresh_from_db()
    url = reverse("compensation:package_edit", args=[package.pk])
    assert client_alice.post(url, package_post(package, base="210000")).status_code == 302
    package.refresh_from_db()
    assert (package.base, package.bonus_fiscal_start_month, package.bonus_payout_month) == (
        210000,
        4,
        6,
    )
    empty = client_alice.post(url, package_post(package, bonus_payout_month=""))
    assert empty.status_code == 200 and "bonus_payout_month" in empty.context["form"].errors
    package.refresh_from_db()
    assert package.bonus_payout_month == 6


def test_stale_edit_is_refused_with_the_users_input_kept(client_alice, package):
    url = reverse("compensation:package_edit", args=[package.pk])
    first = package_post(package, base="210000")
    second = package_post(package, base="999999")
    assert client_alice.post(url, first).status_code == 302
    response = client_alice.post(url, second)
    body = response.content.decode()
    assert response.status_code == 409
    assert "was changed since you opened it" in body and 'value="999999"' in body
    package.refresh_from_db()
    assert package.base == 210000 and package.version == 2


def test_package_form_rejects_level_of_another_company(client_alice, alice):
    company = CompanyFactory(owner=alice)
    level = LevelFactory(company=CompanyFactory(owner=None))
    data = package_post(company=str(company.pk), level=str(level.pk))
    response = client_alice.post(reverse("compensation:package_create"), data)
    assert response.status_code == 200 and "level of the package" in response.content.decode()


def test_package_tax_rule_through_the_form_and_on_the_page(client_alice, alice):
    # 230,000 base + 15% bonus, 50,000 sign-on and 480,000 of stock over 33/33/22/12 from
    # 4 Jan 2027: the page names the rule that taxes its net figures.
    url = reverse("compensation:package_create")
    response = client_alice.post(url, package_post(tax_regime="us-wa"))
    assert response.status_code == 302, response.content.decode()[:3000]
    pkg = Package.objects.get(owner=alice)
    assert pkg.tax_regime == "us-wa"
    body = client_alice.get(reverse("compensation:package_detail", args=[pkg.pk])).content
    # From 4 Jan 2027: taxed by the latest tables, 2026's, and the words say so.
    assert "Washington + US federal 2026 tax (2026 table used for 2027 on)" in body.decode()
    bad = client_alice.post(url, package_post(name="Other", tax_regime="moon"))
    assert bad.status_code == 200 and "tax_regime" in bad.context["form"].errors


def test_package_form_refuses_a_currency_outside_iso_4217(client_alice, alice):
    response = client_alice.post(
        reverse("compensation:package_create"), package_post(currency="ABC")
    )
    assert response.status_code == 200 and "currency" in response.context["form"].errors
    assert not Package.objects.filter(owner=alice).exists()


def test_package_detail_band_wording_is_right(client_alice, alice, package):
    level = LevelFactory(company=package.company, order=5)
    package.level = level
    package.save()
    # Base 200k over a 150k-190k band; stock 100k a year in an 80k-160k band; bonus on target.
    BandFactory(level=level, base_min=150000, base_mid=170000, base_max=190000)
    body = client_alice.get(reverse("compensation:package_detail", args=[package.pk])).content
    text = body.decode()
    assert "above the top of the band" in text  # not "150th percentile"
    assert "25th percentile" in text  # stock: (100k - 80k) / (120k - 80k) x 50
    assert "on target" in text and "0 points" not in text
    assert not re.search(r"\b\d*(1th|2th|3th)\b", text)


def test_the_yearly_projection_has_a_column_per_pay_component_adding_up_to_the_total(
    client_alice, package
):
    """The table's columns are the pay components' (a new one appears without a template edit)."""
    from compensation.engine.components import PAY_COMPONENTS

    response = client_alice.get(reverse("compensation:package_detail", args=[package.pk]))
    projection = response.context["projection"]
    assert projection["components"] == [c.label for c in PAY_COMPONENTS]
    first = projection["rows"][0]
    # Year 1: base 200,000 + bonus 30,000 + sign-on 50,000 + relocation 0 + stock 100,000
    # (any other component 0).
    paid = {"base": 200000, "bonus": 30000, "sign_on": 50000, "equity": 100000}
    assert first["components"] == pytest.approx([paid.get(c.key, 0) for c in PAY_COMPONENTS])
    assert sum(first["components"]) == pytest.approx(first["total"]) == 380000
    table = response.content.decode().split('id="proj-h"')[1].split("</thead>")[0]
    headings = "".join(f'<th scope="col" class="num">{c.label}</th>' for c in PAY_COMPONENTS)
    assert headings in table
