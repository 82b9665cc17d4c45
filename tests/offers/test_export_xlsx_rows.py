"""The XLSX rows written as SpreadsheetML: every kind of value reads back as it was written."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from decimal import Decimal

import pytest
from openpyxl import load_workbook
from openpyxl.styles import Font

from offers.export.xlsx import Book, Sheet
from offers.export.xlsx_rows import Rows, cell_xml, splice


def read_back(fill) -> object:
    book = Book()
    sheet = Sheet(book, "Tëst & <sheet>", [10, 10], "B2")
    other = Sheet(book, "Other", [10], "A1")
    fill(sheet)
    other.append(["second sheet"])
    buffer = io.BytesIO()
    book.save(buffer)
    wb = load_workbook(io.BytesIO(buffer.getvalue()))
    assert wb.sheetnames == ["Tëst & <sheet>", "Other"]
    assert wb["Other"]["A1"].value == "second sheet"
    return wb["Tëst & <sheet>"]


def test_values_read_back_as_written():
    day = dt.date(2026, 2, 28)
    when = dt.datetime(2026, 11, 30, 9, 45)

    def fill(sheet):
        sheet.append(["a & b <c>", " padded ", "bell\x07gone", 7, 1.25, True, False])
        sheet.append([None, float("nan"), float("inf"), Decimal("12.5"), 10**6, "", day, when])
        sheet.append([f"col {i}" for i in range(30)])  # columns past Z: AA, AB, ...

    ws = read_back(fill)
    assert [c.value for c in ws[1]][:7] == [
        "a & b <c>",
        " padded ",
        "bellgone",
        7,
        1.25,
        True,
        False,
    ]
    row = [c.value for c in ws[2]][:8]
    assert row[:6] == [None, None, None, 12.5, 1_000_000, None]
    assert row[6] == dt.datetime(2026, 2, 28) and ws["G2"].number_format == "yyyy-mm-dd"
    assert row[7] == when and ws["H2"].number_format == "yyyy-mm-dd hh:mm:ss"
    assert ws["AD3"].value == "col 29"
    assert ws.freeze_panes == "B2"


def test_styles_formats_and_formula_text():
    def fill(sheet):
        sheet.header(["Name", "Total"])
        sheet.append(
            [
                sheet.cell("=HYPERLINK(1)"),  # a formula typed by a user stays text
                sheet.cell(1234.5, "[$USD] #,##0;[$USD] -#,##0", Font(bold=True)),
                sheet.cell("words", "0.0"),  # a format on text is dropped
                sheet.cell(dt.datetime(2026, 1, 2, 3, 4), "yyyy-mm-dd hh:mm"),
            ]
        )

    ws = read_back(fill)
    assert ws["A1"].font.bold and ws["A1"].fill.fgColor.rgb.endswith("3B5BDB")
    assert ws["A1"].alignment.wrap_text
    assert ws["A2"].value == "'=HYPERLINK(1)" and ws["A2"].data_type == "s"
    assert ws["B2"].value == 1234.5 and ws["B2"].font.bold
    assert ws["B2"].number_format == "[$USD] #,##0;[$USD] -#,##0"
    assert ws["C2"].value == "words" and ws["C2"].number_format == "General"
    assert ws["D2"].value == dt.datetime(2026, 1, 2, 3, 4)
    assert ws["D2"].number_format == "yyyy-mm-dd hh:mm"


def test_hostile_values_are_refused_with_a_reason():
    with pytest.raises(TypeError, match="time zone"):
        cell_xml("A1", dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    with pytest.raises(TypeError, match="list"):
        cell_xml("A1", [1, 2])


def test_splice_needs_every_sheet_it_is_given():
    book = Book()
    Sheet(book, "Only", [10], "A1")
    package = io.BytesIO()
    book.wb.save(package)
    with pytest.raises(ValueError, match="Missing"):
        splice(package.getvalue(), {"Missing": Rows()}, io.BytesIO())


def test_the_package_is_compressed_and_well_formed():
    book = Book()
    sheet = Sheet(book, "Big", [10], "A1")
    for i in range(2000):
        sheet.append([f"Option {i}", i, i * 1.5])
    buffer = io.BytesIO()
    book.save(buffer)
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as package:
        assert package.testzip() is None
        info = package.getinfo("xl/worksheets/sheet1.xml")
        assert info.compress_type == zipfile.ZIP_DEFLATED
        assert info.compress_size < info.file_size / 3
    ws = load_workbook(io.BytesIO(buffer.getvalue()), read_only=True)["Big"]
    rows = list(ws.iter_rows(values_only=True))
    assert len(rows) == 2000 and rows[-1] == ("Option 1999", 1999, 2998.5)


def test_a_header_is_as_tall_as_its_longest_wrapped_heading():
    def fill(sheet):
        sheet.header(["Short", "A heading of forty characters, it wraps"])  # column B: 10 wide
        sheet.header(["One", "Two"])

    ws = read_back(fill)
    assert ws.row_dimensions[1].height == 15 * 5  # 40 characters over 9 a line: 5 lines
    assert ws.row_dimensions[2].height is None  # one line: the sheet's default height
