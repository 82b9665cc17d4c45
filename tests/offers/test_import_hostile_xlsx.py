"""Hostile or damaged workbooks are refused with a message, never a 500, and write nothing."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from compensation.models import Package
from offers.import_columns import COLUMN_KEYS, COLUMNS
from offers.models import Offer
from tests.offers.test_import_offers import xlsx_bytes

pytestmark = pytest.mark.django_db
SHEET = "xl/worksheets/sheet1.xml"


def good_workbook() -> bytes:
    example = [c.example for c in COLUMNS]
    rows = [
        list(COLUMN_KEYS),
        [
            v if k not in ("company", "level") else ""
            for k, v in zip(COLUMN_KEYS, example, strict=True)
        ],
    ]
    return xlsx_bytes(rows)


def rewritten(raw: bytes, part: str, change) -> bytes:
    """Return the workbook with one part's bytes replaced by ``change(bytes)``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info.filename, change(data) if info.filename == part else data)
    return out.getvalue()


def upload(client, data):
    return client.post(
        reverse("offers:offer_import"), {"file": SimpleUploadedFile("offers.xlsx", data)}
    )


def nothing_written(user) -> bool:
    return (
        not Offer.objects.filter(owner=user).exists()
        and not Package.objects.filter(owner=user).exists()
    )


def test_the_untouched_workbook_imports(client_alice_reauth, alice):
    """The control: the same workbook, unchanged, is imported (so the refusals below are theirs)."""
    response = upload(client_alice_reauth, good_workbook())
    assert response.status_code == 302, response.context["import_errors"]
    assert Offer.objects.filter(owner=alice).count() == 1


def truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def unclosed(data: bytes) -> bytes:
    return data.replace(b"</sheetData>", b"")


def with_entities(data: bytes) -> bytes:
    # An internal entity used in a cell: a parser would expand it (billion laughs, XXE).
    doctype = b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">]>'
    return doctype + data.replace(b"<t>name</t>", b"<t>&a;</t>", 1)


def with_external_entity(data: bytes) -> bytes:
    doctype = b'<!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    return doctype + data.replace(b"<t>name</t>", b"<t>&x;</t>", 1)


def in_utf16_with_entity(data: bytes) -> bytes:
    doctype = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE worksheet [<!ENTITY a "aa">]>'
    return (doctype + data.decode().replace("<t>name</t>", "<t>&a;</t>", 1)).encode("utf-16")


def billion_laughs(data: bytes) -> bytes:
    entities = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    doctype = f'<!DOCTYPE worksheet [<!ENTITY l0 "lol">{entities}]>'.encode()
    return doctype + data.replace(b"<t>name</t>", b"<t>&l9;</t>", 1)


def test_the_sheets_are_parsed_by_defusedxml():
    """openpyxl uses defusedxml only when it is installed: without it, entities would expand."""
    import openpyxl.xml.functions

    assert openpyxl.DEFUSEDXML is True
    assert openpyxl.xml.functions.iterparse.__module__.startswith("defusedxml")


def test_a_document_type_without_entities_is_harmless_and_read(client_alice_reauth, alice):
    def with_doctype(data: bytes) -> bytes:
        return b"<!DOCTYPE worksheet>" + data

    response = upload(client_alice_reauth, rewritten(good_workbook(), SHEET, with_doctype))
    assert response.status_code == 302, response.context["import_errors"]
    assert Offer.objects.filter(owner=alice).count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (truncated, "not a readable XLSX workbook"),
        (unclosed, "not a readable XLSX workbook"),
        (with_entities, "declares entities"),
        (with_external_entity, "declares entities"),
        (in_utf16_with_entity, "declares entities"),
        (billion_laughs, "declares entities"),
    ],
)
def test_a_damaged_or_entity_declaring_sheet_is_refused(
    client_alice_reauth, alice, change, message
):
    """On the old code a truncated sheet raised ParseError mid-check: a 500."""
    response = upload(client_alice_reauth, rewritten(good_workbook(), SHEET, change))
    assert response.status_code == 400
    errors = [str(e) for e in response.context["import_errors"]]
    assert any(message in e for e in errors), errors
    assert nothing_written(alice)


def test_a_part_whose_checksum_is_wrong_is_refused(client_alice_reauth, alice):
    """A part that does not unpack to what the archive says (zipfile.BadZipFile: bad CRC)."""
    raw = bytearray(good_workbook())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo(SHEET)
    # Flip one byte of the stored (compressed) sheet: its checksum no longer matches.
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    raw[start + info.compress_size // 2] ^= 0xFF
    response = upload(client_alice_reauth, bytes(raw))
    assert response.status_code == 400
    assert response.context["import_errors"] == ["file: not a readable XLSX workbook"]
    assert nothing_written(alice)


def test_an_oversized_workbook_is_refused_before_it_is_opened(client_alice_reauth, alice, settings):
    settings.IMPORT_MAX_BYTES = 1000
    response = upload(client_alice_reauth, good_workbook())
    assert response.status_code == 400
    assert [str(e) for e in response.context["import_errors"]] == [
        "file: larger than the 1000\xa0bytes allowed"
    ]
    assert nothing_written(alice)
