"""Spreadsheet import of options: template round trip, line-numbered errors, all or nothing."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from compensation.models import Package
from offers.import_columns import COLUMN_KEYS, COLUMNS, HEADERS
from offers.import_files import OfferImportError
from offers.imports import offers_import
from offers.models import Offer
from tests.factories import CompanyFactory, LevelFactory, OfferFactory

pytestmark = pytest.mark.django_db
IMPORT = "offers:offer_import"


@pytest.fixture
def meta(alice):
    company = CompanyFactory(owner=alice, name="Meta", currency="USD", share_price=Decimal("500"))
    LevelFactory(company=company, code="E5")
    LevelFactory(company=company, code="E6")
    return company


def upload(client, name, data):
    return client.post(reverse(IMPORT), {"file": SimpleUploadedFile(name, data)})


def errors_of(response):
    return [str(e) for e in response.context["import_errors"]]


def xlsx_bytes(rows):
    wb = Workbook()
    ws = wb.active
    ws.title = "Offers"
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def csv_bytes(rows, encoding="utf-8"):
    out = io.StringIO(newline="")
    csv.writer(out).writerows(rows)
    return out.getvalue().encode(encoding)


def row(**values):
    """Return a template row: the example's values with some replaced."""
    example = {c.key: c.example for c in COLUMNS}
    example.update({k: str(v) for k, v in values.items()})
    return [example[k] for k in COLUMN_KEYS]


# Round trips ---------------------------------------------------------------------------


def test_xlsx_template_round_trip(client_alice_reauth, alice, meta):
    response = client_alice_reauth.get(reverse("offers:offer_import_template_xlsx"))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.xlsx"')
    wb = load_workbook(io.BytesIO(response.content))
    assert wb.sheetnames == ["Offers", "Columns"]
    ws = wb["Offers"]
    header = [c.value for c in ws[1]]
    assert tuple(header) == COLUMN_KEYS
    guide = {r[0]: r for r in wb["Columns"].iter_rows(min_row=2, values_only=True) if r[0]}
    assert set(COLUMN_KEYS) <= set(guide)
    assert "external" in guide["kind"][3] and "stay" in guide["kind"][3]
    assert "USD" in guide["currency"][3] and "TWD" in guide["currency"][3]
    # The user fills it in: the example row becomes a real offer, a second row is added.
    values = dict(zip(header, [c.value for c in ws[2]], strict=True))
    values.update(name="Meta E5", base_salary=218000, sign_on_year1=50000, stock_grant=460000)
    for i, key in enumerate(header, start=1):
        ws.cell(row=2, column=i, value=values[key])
    second = dict(values, name="Meta E6", level="E6", base_salary="260,000", sign_on_year1=None)
    second.update(start_date=dt.datetime(2027, 4, 1), relocation_required="no", kind="internal")
    ws.append([second[k] for k in header])
    out = io.BytesIO()
    wb.save(out)

    response = upload(client_alice_reauth, "offers.xlsx", out.getvalue())

    assert response.status_code == 302, errors_of(response)
    assert response["Location"] == reverse("offers:offer_list")
    e5 = Offer.objects.get(owner=alice, name="Meta E5")
    assert e5.company == meta and e5.level.code == "E5"
    assert e5.kind == "external" and e5.status == "received"
    assert e5.work_timezone == "Europe/London" and e5.remote_policy == "hybrid"
    assert e5.office_days_per_week == 3 and e5.relocation_required is True
    assert e5.start_date == dt.date(2027, 3, 1) and e5.deadline == dt.date(2027, 1, 15)
    package = e5.package
    assert package.owner == alice and package.currency == "USD"
    assert package.base == Decimal("218000")
    assert package.bonus_target_pct == Decimal("15") and package.raise_pct == Decimal("3")
    assert package.relocation == Decimal("20000")
    assert [(s.year, s.amount, s.clawback_months) for s in package.sign_ons.all()] == [
        (1, Decimal("50000"), 12)
    ]
    grant = package.grants.get()
    assert grant.value == Decimal("460000") and grant.grant_price == Decimal("500")
    e6 = Offer.objects.get(owner=alice, name="Meta E6")
    assert e6.package.base == Decimal("260000") and e6.level.code == "E6"
    assert e6.kind == "internal" and e6.relocation_required is False
    assert e6.start_date == dt.date(2027, 4, 1)
    assert not e6.package.sign_ons.exists()


def test_csv_template_round_trip(client_alice_reauth, alice, meta):
    response = client_alice_reauth.get(reverse("offers:offer_import_template_csv"))
    assert response.status_code == 200
    text = response.content.decode("utf-8-sig")
    header, example = list(csv.reader(io.StringIO(text)))
    assert tuple(header) == COLUMN_KEYS
    example[header.index("name")] = "Meta London"
    example[header.index("base_salary")] = "231000.50"
    response = upload(client_alice_reauth, "offers.csv", csv_bytes([header, example]))
    assert response.status_code == 302, errors_of(response)
    offer = Offer.objects.get(owner=alice)
    assert offer.name == "Meta London" and offer.package.base == Decimal("231000.50")

    guide = client_alice_reauth.get(reverse("offers:offer_import_columns"))
    lines = list(csv.reader(io.StringIO(guide.content.decode("utf-8-sig"))))
    assert lines[0][:4] == ["column", "required", "holds", "allowed"]
    assert [line[0] for line in lines[1:]] == list(COLUMN_KEYS)


def test_semicolon_csv_and_only_some_columns(client_alice_reauth, alice):
    data = b"name;currency;base_salary;kind\nMy job;TWD;2400000;stay\n"
    response = upload(client_alice_reauth, "mine.csv", data)
    assert response.status_code == 302, errors_of(response)
    offer = Offer.objects.get(owner=alice)
    assert offer.kind == "stay" and offer.package.currency == "TWD"
    assert offer.package.base == Decimal("2400000")


# Refused, with nothing written ---------------------------------------------------------


def nothing_written(alice):
    return (
        not Offer.objects.filter(owner=alice).exists()
        and not Package.objects.filter(owner=alice).exists()
    )


def test_bad_row_is_refused_with_its_line_number_and_nothing_is_written(
    client_alice_reauth, alice, meta
):
    rows = [
        list(COLUMN_KEYS),
        row(name="A"),
        row(name="B"),
        row(name="C", base_salary="abc"),
    ]
    response = upload(client_alice_reauth, "offers.xlsx", xlsx_bytes(rows))
    assert response.status_code == 400
    assert errors_of(response) == ["Row 4, column base_salary: “abc” is not a number"]
    assert "Row 4, column base_salary" in response.content.decode()
    assert nothing_written(alice)


def test_form_rules_name_the_row_and_column(client_alice_reauth, alice, meta):
    rows = [
        list(COLUMN_KEYS),
        row(name="A", kind="freelance"),
        row(name="B", work_timezone="Mars/Olympus"),
        row(name="C", level="L9"),
        row(name="D", currency="dollars"),
        row(name="E", office_days_per_week="9"),
        row(name="F", start_date="next spring"),
        row(name="", currency="USD"),
        row(name="G", deadline="2027-05-01"),
    ]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    errors = errors_of(response)
    assert errors[0].startswith("Row 2, column kind: “freelance” is not one of: external,")
    assert errors[1].startswith("Row 3, column work_timezone: “Mars/Olympus” is not a known")
    assert errors[2] == "Row 4, column level: Meta has no level “L9”"
    assert errors[3].startswith("Row 5, column currency: ")
    assert errors[4].startswith("Row 6, column office_days_per_week: ")
    assert errors[5] == "Row 7, column start_date: “next spring” is not a date like 2027-03-01"
    assert errors[6] == "Row 8, column name: is required"
    assert errors[7] == (
        "Row 9, column deadline: The decision deadline must come before the start date."
    )
    assert len(errors) == 8
    assert nothing_written(alice)


def test_a_write_error_in_a_late_row_rolls_back_the_earlier_rows(client_alice_reauth, alice, meta):
    # EUR stock needs an exchange rate to the company's USD share price: the service refuses.
    rows = [list(COLUMN_KEYS), row(name="A"), row(name="B"), row(name="C", stock_currency="EUR")]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    (error,) = errors_of(response)
    assert error.startswith("Row 4, column stock_currency: ")
    assert nothing_written(alice)


def test_duplicate_rows_and_names_are_refused(client_alice_reauth, alice, meta):
    OfferFactory(owner=alice, name="Already here")
    rows = [
        list(COLUMN_KEYS),
        row(name="A"),
        row(name="A"),
        row(name="a", base_salary="1"),
        row(name="Already here"),
    ]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    assert errors_of(response) == [
        "Row 3: repeats row 2",
        "Row 4, column name: row 2 already has this name",
        "Row 5, column name: you already have an option with this name",
    ]
    assert Offer.objects.filter(owner=alice).count() == 1


def test_formulas_are_text_never_run(client_alice_reauth, alice, meta):
    rows = [list(COLUMN_KEYS), row(name="A", base_salary="=1+1")]
    response = upload(client_alice_reauth, "offers.xlsx", xlsx_bytes(rows))
    assert response.status_code == 400
    assert errors_of(response) == ["Row 2, column base_salary: “=1+1” is not a number"]
    rows = [list(COLUMN_KEYS), row(name="A", notes="=cmd|' /C calc'!A0")]
    response = upload(client_alice_reauth, "offers.xlsx", xlsx_bytes(rows))
    assert response.status_code == 302, errors_of(response)
    assert Offer.objects.get(owner=alice).notes == "=cmd|' /C calc'!A0"


def test_template_neutralises_formula_like_examples(alice):
    from offers.import_columns import template_xlsx

    ws = load_workbook(io.BytesIO(template_xlsx(user=alice)))["Offers"]
    assert all(c.data_type != "f" for c in ws[2])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("name,currency\nCafé,USD\n".encode("latin-1"), "not UTF-8"),
        (b" \r\n ", "file: empty"),
        (b"PK\x03\x04garbage", "not a readable XLSX"),
        (b"\x00\x01\x02name", "not a CSV"),
        (b"name,salary\nA,1\n", "unknown columns “salary”"),
        (b"currency\nUSD\n", "missing columns: name"),
        (b"name,currency\n", "no rows to import"),
        (b"name,currency\nA,USD,extra\n", "Row 2: values beyond the last named column"),
    ],
)
def test_unreadable_files_are_refused_clearly(client_alice_reauth, alice, data, message):
    response = upload(client_alice_reauth, "offers.csv", data)
    assert response.status_code == 400
    assert any(message in e for e in errors_of(response)), errors_of(response)
    assert nothing_written(alice)


def test_utf16_csv_with_a_bom_is_read(client_alice_reauth, alice):
    data = "name\tcurrency\tbase_salary\n台北 offer\tTWD\t2400000\n".encode("utf-16")
    response = upload(client_alice_reauth, "offers.csv", data)
    assert response.status_code == 302, errors_of(response)
    assert Offer.objects.get(owner=alice).name == "台北 offer"


def test_huge_file_is_refused(client_alice_reauth, alice, settings):
    settings.IMPORT_MAX_BYTES = 2000
    data = csv_bytes([list(COLUMN_KEYS)] + [row(name=f"O{i}") for i in range(40)])
    response = upload(client_alice_reauth, "offers.csv", data)
    assert response.status_code == 400
    assert errors_of(response) == ["file: larger than the 2.0\xa0KB allowed"]
    assert nothing_written(alice)


def test_zip_bomb_is_refused(alice, monkeypatch):
    from offers import import_files

    monkeypatch.setattr(import_files, "MAX_UNPACKED_BYTES", 1000)
    with pytest.raises(OfferImportError, match="unpacks to more than"):
        offers_import(user=alice, raw=xlsx_bytes([list(COLUMN_KEYS), row(name="A")]))


def test_too_many_rows_are_refused(alice, monkeypatch):
    from offers import imports

    monkeypatch.setattr(imports, "MAX_ROWS", 3)
    rows = [list(COLUMN_KEYS)] + [row(name=f"O{i}", company="", level="") for i in range(5)]
    with pytest.raises(OfferImportError, match="more than 3 rows"):
        offers_import(user=alice, raw=csv_bytes(rows))
    assert nothing_written(alice)


# Ownership and access ------------------------------------------------------------------


def test_another_users_company_and_location_are_unknown(client_alice_reauth, alice, bob):
    secret = CompanyFactory(owner=bob, name="Bob's startup")
    LevelFactory(company=secret, code="S1")
    rows = [list(COLUMN_KEYS), row(name="A", company="Bob's startup", level="S1")]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    assert errors_of(response) == [
        "Row 2, column company: no company named “Bob's startup”; add it on the Companies "
        "page first"
    ]
    assert nothing_written(alice)


def test_imported_offers_belong_to_the_uploader_only(client_alice_reauth, alice, bob):
    OfferFactory(owner=bob, name="Bob's offer")
    rows = [list(COLUMN_KEYS), row(name="Bob's offer", company="", level="")]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 302, errors_of(response)  # Bob's names do not clash
    assert Offer.objects.get(owner=alice).package.owner == alice
    assert Offer.objects.filter(owner=bob).count() == 1


def test_upload_asks_for_the_password_first(client_alice, alice):
    response = client_alice.get(reverse(IMPORT))
    assert response.status_code == 302 and response["Location"].startswith(reverse("reauth"))
    rows = [list(COLUMN_KEYS), row(name="A", company="", level="")]
    response = upload(client_alice, "offers.csv", csv_bytes(rows))
    assert response.status_code == 302 and response["Location"].startswith(reverse("reauth"))
    assert nothing_written(alice)


def test_page_lists_the_columns_and_is_linked(client_alice_reauth):
    page = client_alice_reauth.get(reverse(IMPORT)).content.decode()
    for key in COLUMN_KEYS:
        assert f"<code>{key}</code>" in page
    assert reverse("offers:offer_import_template_xlsx") in page
    assert reverse("offers:offer_import_template_csv") in page
    for name in ("offers:offer_list", "offers:export"):
        assert reverse(IMPORT) in client_alice_reauth.get(reverse(name)).content.decode()


def test_missing_file_rerenders_the_form(client_alice_reauth):
    response = client_alice_reauth.post(reverse(IMPORT), {})
    assert response.status_code == 400
    assert response.context["form"].errors["file"]


def test_a_percentage_cell_is_read_as_its_percent(client_alice_reauth, alice):
    """Excel keeps 15% as 0.15 with a % format: the import reads 15, as the user sees it."""
    wb = Workbook()
    ws = wb.active
    ws.append(["name", "currency", "base_salary", "bonus_target_pct", "raise_pct"])
    ws.append(["Percent Co", "USD", 200000, 0.15, 3])
    ws["D2"].number_format = "0%"
    out = io.BytesIO()
    wb.save(out)
    response = upload(client_alice_reauth, "offers.xlsx", out.getvalue())
    assert response.status_code == 302, errors_of(response)
    package = Offer.objects.get(owner=alice).package
    assert package.bonus_target_pct == Decimal("15") and package.raise_pct == Decimal("3")


def test_a_sheet_declaring_a_million_rows_is_refused_quickly(alice):
    """A workbook whose last row is far below: padded blank rows count, and stop the read."""
    wb = Workbook()
    ws = wb.active
    ws.append(["name", "currency"])
    ws.append(["A", "USD"])
    ws.cell(row=1_000_000, column=16_000, value="far away")
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(OfferImportError, match="more than 1500 lines"):
        offers_import(user=alice, raw=out.getvalue())
    assert nothing_written(alice)


def test_blank_lines_only_are_refused(alice):
    with pytest.raises(OfferImportError, match="more than 1500 lines"):
        offers_import(user=alice, raw=b"name,currency\n" + b",\n" * 2000 + b"A,USD\n")


# The form's terms, the form's checks ---------------------------------------------------


def test_the_columns_are_the_offer_forms_fields():
    """A field added to the offer form is a column of the import, named, explained and checked."""
    from offers.forms import OfferForm
    from offers.import_columns import NOT_IMPORTED

    visible = {n for n, f in OfferForm.base_fields.items() if not f.widget.is_hidden}
    assert {c.field for c in COLUMNS} == visible - NOT_IMPORTED
    assert set(NOT_IMPORTED) == {"process"}
    assert "tax_regime" in COLUMN_KEYS and "target_level" in COLUMN_KEYS


def test_the_guide_lists_the_tax_rules_by_key_and_name(client_alice_reauth):
    from compensation.models import tax_regime_choices

    response = client_alice_reauth.get(reverse("offers:offer_import_columns"))
    lines = {
        line[0]: line for line in csv.reader(io.StringIO(response.content.decode("utf-8-sig")))
    }
    allowed, meaning = lines["tax_regime"][3], lines["tax_regime"][4]
    for key, label in tax_regime_choices()[1:]:
        assert f"{key} ({label})" in allowed
    assert meaning.startswith("Tax rule. Income tax by the place's published brackets")


SINGAPORE = {
    "kind": "external",
    "status": "received",
    "company": "Sea",
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
    "stock_currency": "USD",
    "vesting_preset": "even_4y_quarterly",
    "start_date": "2027-02-01",
    "tax_location": "Singapore",
    "tax_regime": "sg",
}


def _terms(offer):
    """Return an offer's package terms without the row ids (two packages, the same terms)."""
    import dataclasses

    from compensation.selectors import package_terms

    terms = package_terms(Package.objects.get(pk=offer.package_id))
    return dataclasses.replace(
        terms,
        sign_ons=tuple(dataclasses.replace(s, id=None) for s in terms.sign_ons),
        grants=tuple(dataclasses.replace(g, id=None) for g in terms.grants),
        refreshers=tuple(dataclasses.replace(r, id=None) for r in terms.refreshers),
    )


def test_an_imported_singapore_offer_is_the_typed_in_one(client_alice_reauth, alice):
    """The same terms through the page and through the import: the same package and value."""
    from offers.board_cache import board_get
    from tests.factories import FxRateFactory, LocationPresetFactory, PreferencesFactory

    PreferencesFactory(owner=alice, home_currency="TWD")
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    FxRateFactory(currency="TWD", to_currency="USD", rate=Decimal("0.031"))
    sea = CompanyFactory(owner=alice, name="Sea", currency="USD", share_price=Decimal("100"))
    singapore = LocationPresetFactory(
        name="Singapore", currency="SGD", effective_tax_pct=Decimal("15")
    )
    typed = dict(SINGAPORE, name="Sea typed in", company=sea.pk, tax_location=singapore.pk)
    response = client_alice_reauth.post(reverse("offers:offer_create"), typed)
    assert response.status_code == 302, response.content[:2000]
    header = [HEADERS.get(k, k) for k in ["name", *SINGAPORE]]
    imported = ["Sea imported", *SINGAPORE.values()]

    response = upload(client_alice_reauth, "offers.csv", csv_bytes([header, imported]))

    assert response.status_code == 302, errors_of(response)
    by_hand = Offer.objects.get(owner=alice, name="Sea typed in")
    from_sheet = Offer.objects.get(owner=alice, name="Sea imported")
    assert _terms(from_sheet) == _terms(by_hand)
    assert _terms(from_sheet).tax_regime == "sg" and from_sheet.package.location == singapore
    assert from_sheet.package.grants.get().price_currency == "USD"
    values = {ev.offer.pk: ev for ev in board_get(user=alice).evaluations}
    assert not values[by_hand.pk].error and values[by_hand.pk].value > 0
    assert values[from_sheet.pk].value == values[by_hand.pk].value


def test_a_tax_rule_is_read_by_its_key_or_its_name(client_alice_reauth, alice):
    from compensation.models import tax_regime_choices

    label = dict(tax_regime_choices())["tw"]
    rows = [
        ["name", "currency", "base_salary", "kind", "tax_regime"],
        ["By key", "TWD", "2400000", "stay", "SG"],
        ["By name", "TWD", "2400000", "Stay in current job", label.upper()],
        ["Flat", "TWD", "2400000", "stay", ""],
    ]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 302, errors_of(response)
    rules = dict(Offer.objects.filter(owner=alice).values_list("name", "package__tax_regime"))
    assert rules == {"By key": "sg", "By name": "tw", "Flat": ""}
    assert set(Offer.objects.filter(owner=alice).values_list("kind", flat=True)) == {"stay"}


def test_a_bad_tax_rule_is_refused_naming_its_column(client_alice_reauth, alice, meta):
    rows = [list(COLUMN_KEYS), row(name="A"), row(name="B", tax_regime="mars")]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    (error,) = errors_of(response)
    assert error.startswith("Row 3, column tax_regime: “mars” is not one of: us-ca, ")
    assert ", sg, " in error and ", tw, " in error
    assert nothing_written(alice)


def test_every_bad_cell_of_a_row_is_named_at_once(client_alice_reauth, alice, meta):
    rows = [
        list(COLUMN_KEYS),
        row(
            name="A",
            kind="freelance",
            company="Nope",
            start_date="soon",
            relocation_required="maybe",
            base_salary="abc",
            raise_pct="90",
            tax_regime="mars",
        ),
        row(name="B", currency="", deadline="2027-05-01"),
    ]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    errors = errors_of(response)
    assert [e.split(":")[0] for e in errors] == [
        "Row 2, column kind",
        "Row 2, column company",
        "Row 2, column relocation_required",
        "Row 2, column start_date",
        "Row 2, column base_salary",
        "Row 2, column raise_pct",
        "Row 2, column tax_regime",
        "Row 3, column deadline",
        "Row 3, column currency",
    ]
    assert errors[2] == "Row 2, column relocation_required: “maybe”: write yes or no"
    assert errors[4] == "Row 2, column base_salary: “abc” is not a number"
    assert errors[5] == "Row 2, column raise_pct: Must be at most 50."
    assert errors[8] == "Row 3, column currency: is required"
    assert nothing_written(alice)


def test_a_name_already_taken_still_checks_the_rest_of_its_row(client_alice_reauth, alice, meta):
    OfferFactory(owner=alice, name="Already here")
    rows = [list(COLUMN_KEYS), row(name="Already here", base_salary="abc")]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert errors_of(response) == [
        "Row 2, column name: you already have an option with this name",
        "Row 2, column base_salary: “abc” is not a number",
    ]


def test_dates_the_form_refuses_are_refused(client_alice_reauth, alice, meta):
    """The years a backup restores: the offer form says it, so the import does."""
    rows = [list(COLUMN_KEYS), row(name="A", start_date="2500-01-01", deadline="1899-12-31")]
    response = upload(client_alice_reauth, "offers.csv", csv_bytes(rows))
    assert response.status_code == 400
    assert errors_of(response) == [
        "Row 2, column start_date: 2500-01-01 is outside the years 1900 to 2200",
        "Row 2, column deadline: 1899-12-31 is outside the years 1900 to 2200",
    ]
    assert nothing_written(alice)


def test_an_empty_cell_is_what_the_form_shows(client_alice_reauth, alice, meta):
    data = csv_bytes(
        [["name", "currency", "base_salary", "company", "level", "target_level", "shareable"]]
        + [["Defaults", "USD", "200000", "Meta", "E5", "e6", "yes"]]
    )
    response = upload(client_alice_reauth, "offers.csv", data)
    assert response.status_code == 302, errors_of(response)
    offer = Offer.objects.get(owner=alice)
    assert offer.target_level.code == "E6" and offer.shareable is True
    assert offer.kind == "external" and offer.work_timezone == "America/Los_Angeles"
    assert offer.package.raise_pct == Decimal("3") and offer.package.tax_regime == ""


def test_the_guides_example_row_is_in_the_pages_language(client_alice_reauth):
    client_alice_reauth.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    page = client_alice_reauth.get(reverse(IMPORT)).content.decode()
    for words in ("Meta E5 倫敦（示意）", "機器學習工程師", "招募人員：一月中旬前做出決定。"):
        assert f"<td>{words}</td>" in page
    for english in ("London (illustrative)", "decision by mid-January", "Ranking"):
        assert english not in page
    # The codes stay what the file takes.
    assert "<td>Europe/London</td>" in page and "<td>hybrid</td>" in page
