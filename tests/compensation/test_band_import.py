from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from compensation.band_import import band_import_csv
from compensation.models import Band
from tests.factories import BandFactory, CompanyFactory, LevelFactory

pytestmark = pytest.mark.django_db
HEADER = "company,level,currency,base_min,base_mid,base_max,stock_min,stock_mid,stock_max,bonus_target_pct,location,source,as_of\n"
GOOD = "Meta,E5,USD,196000,218000,240000,80000,115000,150000,15,,recruiter,2026-10-20\n"


@pytest.fixture
def meta(alice):
    company = CompanyFactory(owner=None, name="Meta")
    LevelFactory(company=company, code="E5", order=5)
    LevelFactory(company=company, code="E6", order=6)
    return company


def upload(text: str | bytes, name="bands.csv"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return SimpleUploadedFile(name, data, content_type="text/csv")


def run(user, text):
    return band_import_csv(user=user, file=upload(text))


def test_good_file_is_imported(alice, meta):
    text = HEADER + GOOD + "meta,e6,usd,240000,265000,290000,,,,20,Menlo Park,,\n"
    result = run(alice, text)
    assert result.ok and (result.created, result.updated) == (2, 0)
    e5 = Band.objects.get(owner=alice, level__code="E5")
    assert (e5.base_min, e5.base_mid, e5.base_max, e5.stock_mid) == (196000, 218000, 240000, 115000)
    assert str(e5.as_of) == "2026-10-20" and e5.source == "recruiter"
    e6 = Band.objects.get(owner=alice, level__code="E6")
    assert e6.currency == "USD" and e6.stock_max == 0 and e6.as_of is None


def test_reimport_updates_instead_of_duplicating(alice, meta):
    run(alice, HEADER + GOOD)
    result = run(alice, HEADER + GOOD.replace("240000,80000", "245000,80000"))
    assert (result.created, result.updated) == (0, 1)
    assert Band.objects.get(owner=alice).base_max == 245000


def test_bom_and_thousand_separators(alice, meta):
    text = HEADER + 'Meta,E5,USD,"196,000","218,000","240,000",0,0,0,15%,,,\n'
    result = band_import_csv(user=alice, file=upload(("\ufeff" + text).encode()))
    assert result.ok, result.errors


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ("Meta,E5,USD,196000,218000,210000,0,0,0,15,,,", "line 3: base_max: must be >= base_mid"),
        ("Meta,E5,USD,196000,190000,240000,0,0,0,15,,,", "line 3: base_mid: must be >= base_min"),
        ("Meta,E5,USD,1,2,3,10,20,5,15,,,", "line 3: stock_max: must be >= stock_mid"),
        ("Meta,E5,USD,abc,218000,240000,0,0,0,15,,,", "line 3: base_min: not a number ('abc')"),
        ("Meta,E5,USD,-1,218000,240000,0,0,0,15,,,", "line 3: base_min: must not be negative"),
        (
            "Meta,E5,US,196000,218000,240000,0,0,0,15,,,",
            "line 3: currency: US is not an ISO 4217 currency code; use one such as USD",
        ),
        ("Meta,E5,USD,196000,218000,240000,0,0,0,15,,,20/10/2026", "line 3: as_of: use a date"),
        (
            "Meta,E5,USD,196000,218000,240000,0,0,0,15,,,9999-12-31",
            "line 3: as_of: 9999-12-31 is outside the years 1900 to 2200",
        ),
        (
            "Meta,E5,USD,196000,218000,240000,0,0,0,500,,,",
            "line 3: bonus_target_pct: must be at most 200",
        ),
        (
            "Initech,E5,USD,196000,218000,240000,0,0,0,15,,,",
            "line 3: company: unknown company 'Initech'",
        ),
        (
            "Meta,E9,USD,196000,218000,240000,0,0,0,15,,,",
            "line 3: level: unknown level 'E9' of Meta",
        ),
        (",E5,USD,196000,218000,240000,0,0,0,15,,,", "line 3: company: is required"),
        ("Meta,E5,USD,,218000,240000,0,0,0,15,,,", "line 3: base_min: is required"),
        (
            "Meta,E5,USD,196000,218000,240000,0,0,0,15," + "x" * 81 + ",,",
            "line 3: location: at most 80",
        ),
    ],
)
def test_each_error_names_its_line_and_nothing_is_written(alice, meta, row, error):
    result = run(alice, HEADER + GOOD + row + "\n")
    assert not result.ok and result.created == 0
    assert any(e.startswith(error) for e in result.errors), result.errors
    assert not Band.objects.exists()


def test_errors_on_several_lines_are_all_reported(alice, meta):
    bad = "Meta,E5,USD,196000,218000,210000,0,0,0,15,,,\n"
    result = run(alice, HEADER + GOOD + bad + "\n" + GOOD + bad)
    assert [e.split(":")[0] for e in result.errors] == ["line 3", "line 6"]
    assert not Band.objects.exists()


def test_a_later_error_rolls_back_a_partial_write(alice, meta, monkeypatch):
    calls = {"n": 0}
    real = Band.full_clean

    def failing(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            from django.core.exceptions import ValidationError

            raise ValidationError({"source": "boom"})
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Band, "full_clean", failing)
    result = run(alice, HEADER + GOOD + GOOD.replace("E5", "E6"))
    assert result.errors == ["line 3: source: boom"] and result.created == 0
    assert not Band.objects.exists()


def test_missing_columns_and_empty_file(alice, meta):
    assert run(alice, "company,level\nMeta,E5\n").errors == [
        "line 1: missing columns: currency, base_min, base_mid, base_max"
    ]
    assert run(alice, HEADER).errors == ["The file has no rows to import."]
    assert run(alice, "").errors[0].startswith("line 1: missing columns")


def test_formula_cells_are_stored_as_plain_text(alice, meta, client_alice):
    hostile = '=HYPERLINK("http://evil.example","click")'
    row = f'Meta,E5,USD,196000,218000,240000,0,0,0,15,"@SUM(A1)","{hostile.replace(chr(34), chr(34) * 2)}",\n'
    assert run(alice, HEADER + row).ok
    band = Band.objects.get(owner=alice)
    assert band.source == hostile and band.location == "@SUM(A1)"
    page = client_alice.get(f"/compensation/companies/{meta.pk}/").content.decode()
    assert (
        "=HYPERLINK(&quot;http://evil.example&quot;" in page and '<a href="http://evil' not in page
    )


def test_oversized_file_is_refused(alice, meta):
    big = HEADER + GOOD * (5 * 1024 * 1024 // len(GOOD) + 10)
    result = run(alice, big)
    assert result.errors == ["The file is larger than 5 MB."]
    assert not Band.objects.exists()


def test_non_utf8_file_is_refused(alice, meta):
    result = band_import_csv(
        user=alice, file=upload((HEADER + "Méta,E5,USD,1,2,3,,,,,,,\n").encode("latin-1"))
    )
    assert result.errors == ["The file is not UTF-8 text; save it as CSV UTF-8."]


def test_own_company_wins_over_shared_name(alice, meta):
    mine = CompanyFactory(owner=alice, name="Meta")
    LevelFactory(company=mine, code="E5", order=5)
    assert run(alice, HEADER + GOOD).ok
    assert Band.objects.get(owner=alice).level.company == mine


def test_another_users_private_company_is_unknown(alice, charlie):
    hidden = CompanyFactory(owner=charlie, name="Secret")
    LevelFactory(company=hidden, code="E5")
    result = run(alice, HEADER + GOOD.replace("Meta", "Secret"))
    assert result.errors == ["line 2: company: unknown company 'Secret'"]


def test_existing_bands_untouched_by_failed_import(alice, meta):
    band = BandFactory(owner=alice, level=meta.levels.get(code="E5"), base_max=Decimal("240000"))
    run(alice, HEADER + GOOD + "Meta,E5,USD,x,1,1,,,,,,,\n")
    band.refresh_from_db()
    assert band.base_max == 240000 and Band.objects.count() == 1


def test_a_currency_outside_iso_4217_is_refused(alice, meta):
    result = run(alice, HEADER + GOOD.replace("USD", "XYZ"))
    assert result.errors == [
        "line 2: currency: XYZ is not an ISO 4217 currency code; use one such as USD, SGD, TWD."
    ]
    assert not Band.objects.exists()


@pytest.mark.parametrize("column", ["source", "location", "company", "base_min"])
def test_a_nul_byte_is_refused_not_a_database_error(alice, meta, column):
    # PostgreSQL text cannot hold U+0000: written, it would be a DataError (a 500).
    cells = dict(zip(HEADER.strip().split(","), GOOD.strip().split(","), strict=True))
    cells[column] = cells[column][:2] + "\x00" + cells[column][2:]
    result = run(alice, HEADER + ",".join(cells.values()) + "\n")
    assert result.errors == [
        f"line 2: {column}: contains U+0000, a character that cannot be stored; remove it"
    ]
    assert not Band.objects.exists()


def test_a_nul_byte_through_the_page_is_a_clear_refusal(client_alice, alice, meta):
    row = GOOD.replace("recruiter", "recr\x00uiter")
    response = client_alice.post(
        reverse("compensation:band_import"), {"file": upload(HEADER + row)}
    )
    assert response.status_code == 200
    assert "line 2: source: contains U+0000" in response.content.decode()
    assert not Band.objects.exists()


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("196_000", "Use digits 0-9, e.g. 120,000."),
        ("１９６０００", "Use digits 0-9, e.g. 120,000."),
        ("1.96e5", "without an exponent"),
    ],
)
def test_money_cells_are_read_as_the_forms_read_them(alice, meta, amount, message):
    result = run(alice, HEADER + GOOD.replace("196000", amount))
    assert len(result.errors) == 1 and result.errors[0].startswith("line 2: base_min: ")
    assert message in result.errors[0]
    assert not Band.objects.exists()
