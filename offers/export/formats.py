"""The comparison export formats: one entry per format, read by the model, views, job and command.

Adding a format is one entry here plus its writer module (see docs/architecture.md).
Writers are named by dotted path and imported on first use, so the model can read this
registry without loading openpyxl or the templates.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django.utils.functional import Promise
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _


@dataclasses.dataclass(frozen=True)
class ExportFormat:
    """One downloadable form of the comparison."""

    key: str  # stored in Job.format (at most 4 characters)
    label: str | Promise
    content_type: str
    extension: str
    writer: str  # dotted path of a function Comparison -> bytes
    inline: bool = True  # False: always built by a background job, however small the export

    def write(self, comparison: Any) -> bytes:
        """Return the comparison (an `offers.export.comparison.Comparison`) as a file."""
        # Typed Any, not Comparison: importing comparison here would close a cycle via models.
        writer: Callable[[Any], bytes] = import_string(self.writer)
        return writer(comparison)


EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.key: f
    for f in (
        ExportFormat(
            key="csv",
            label="CSV",
            content_type="text/csv; charset=utf-8",
            extension="csv",
            writer="offers.export.csv_export.csv_bytes",
        ),
        ExportFormat(
            key="xlsx",
            label=_("Excel (XLSX)"),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            extension="xlsx",
            writer="offers.export.xlsx.xlsx_bytes",
        ),
        ExportFormat(
            key="json",
            label="JSON",
            content_type="application/json",
            extension="json",
            writer="offers.export.json_export.json_bytes",
        ),
        ExportFormat(
            key="html",
            label=_("HTML report"),
            content_type="text/html; charset=utf-8",
            extension="html",
            writer="offers.export.html.html_bytes",
        ),
    )
}
FORMAT_CHOICES: list[tuple[str, str | Promise]] = [
    (f.key, f.label) for f in EXPORT_FORMATS.values()
]


def export_format(key: str) -> ExportFormat:
    """Return the registered format ``key``; ValueError for any other."""
    try:
        return EXPORT_FORMATS[key]
    except KeyError:
        raise ValueError(f"unknown export format {key!r}") from None


def content_type_of(filename: str) -> str:
    """Return the content type of a file named like one of the formats (by its extension)."""
    extension = filename.rsplit(".", 1)[-1].lower()
    for fmt in EXPORT_FORMATS.values():
        if fmt.extension == extension:
            return fmt.content_type
    raise ValueError(f"no export format has the extension of {filename!r}")
