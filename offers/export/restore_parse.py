"""Reading a backup file (`offers.export.backup`): the JSON document checked for its format,
version and size, and an older document brought up to the current one. Its records are checked
by `offers.export.restore_check` and written by `offers.export.restore`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from typing import Any

from django.conf import settings

from offers.export.backup import BACKUP_VERSION, FORMAT, SECTION_KEYS, BackupError

MAX_RECORDS = 500_000


def describe(value: Any) -> str:
    """Return a value as the start of its JSON, for an error message."""
    return json.dumps(value, ensure_ascii=False)[:60]


def backup_record_count(doc: dict[str, Any]) -> int:
    """Return how many records a parsed backup holds."""
    return sum(len(doc[k]) for k in SECTION_KEYS if isinstance(doc.get(k), list))


def backup_parse(raw: bytes | str) -> dict[str, Any]:
    """Return the parsed document, or raise BackupError saying why the file is not a backup."""
    limit = settings.IMPORT_MAX_BYTES
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > limit:
        raise BackupError(
            [f"file: {size:,} bytes is more than the {limit // (1024 * 1024)} MB a backup may be"]
        )
    try:
        doc = json.loads(raw)
    except UnicodeDecodeError:
        raise BackupError(["file: not UTF-8 text; is this an Offerdesk backup?"]) from None
    except json.JSONDecodeError as exc:
        raise BackupError(
            [f"file: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"]
        ) from None
    except RecursionError:
        raise BackupError(["file: nested too deeply to be a backup"]) from None
    return backup_document_read(doc)


def backup_document_read(doc: Any) -> dict[str, Any]:
    """Return a loaded document if it is a backup of this version, or raise BackupError."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BackupError([f'file: not an Offerdesk backup (no "format": "{FORMAT}")'])
    version = doc.get("schema_version")
    if type(version) is not int:  # JSON's true is a Python int (True == 1): refused too
        raise BackupError(
            [f"schema_version: expected the whole number {BACKUP_VERSION}, got {describe(version)}"]
        )
    if version != BACKUP_VERSION:
        raise BackupError(
            [
                f"schema_version: this version reads version {BACKUP_VERSION}, "
                f"the file is {describe(doc.get('schema_version'))}"
            ]
        )
    allowed = {"format", "schema_version", "exported_at", "username", "preferences", *SECTION_KEYS}
    unknown = sorted(set(doc) - allowed)
    if unknown:
        raise BackupError([f"{key}: unknown section" for key in unknown])
    total = backup_record_count(doc)
    if total > MAX_RECORDS:
        raise BackupError([f"file: {total:,} records is more than the {MAX_RECORDS:,} allowed"])
    return doc


def backup_upgrade(doc: dict[str, Any]) -> None:
    """Bring an older document's records up to the current models, in place."""
    _offer_terms_to_packages(doc)
    _scenario_stock_currency(doc)
    for section, keys in RETIRED_FIELDS.items():
        for record in doc.get(section) or []:
            for key in keys if isinstance(record, dict) else ():
                record.pop(key, None)


# Fields the models no longer have: an older file's values are read and left out.
RETIRED_FIELDS = {"locations": ("cost_of_living_index",)}  # no page ever read it


# An option's company, level and start date were its own before its package owned them.
LEGACY_OFFER_TERMS = ("company", "level", "start_date")


def _offer_terms_to_packages(doc: dict[str, Any]) -> None:
    """Move an older backup's option company, level and start date onto its package.

    As the migration that made the package their one owner did: the package takes the
    option's values where they differ, and a new job's grants move with its start date.
    """
    offers, packages = doc.get("offers"), doc.get("packages")
    if not isinstance(offers, list) or not isinstance(packages, list):
        return
    by_id = {p.get("id"): p for p in packages if isinstance(p, dict)}
    grants = [g for g in doc.get("grants") or [] if isinstance(g, dict)]
    for offer in offers:
        if isinstance(offer, dict) and any(k in offer for k in LEGACY_OFFER_TERMS):
            held = {k: offer.pop(k) for k in LEGACY_OFFER_TERMS if k in offer}
            package = by_id.get(offer.get("package"))
            if package is not None:
                _terms_to_package(offer, held, package, grants)


def _terms_to_package(
    offer: dict[str, Any], held: dict[str, Any], package: dict[str, Any], grants: list[Any]
) -> None:
    """Give ``package`` the option's own terms (``held``); a new job's grants follow its start."""
    package.update({k: held[k] for k in ("company", "level") if held.get(k) is not None})
    start, kind = held.get("start_date"), offer.get("kind")
    if not start or kind == "stay" or start == package.get("start_date"):
        return
    new, old = _iso_date(start), _iso_date(package.get("start_date"))
    if new is None or old is None:
        return  # the record's own checks name what is wrong
    for grant in grants if kind == "external" else []:
        day = _iso_date(grant.get("vest_start"))
        if grant.get("package") == offer.get("package") and day is not None:
            with contextlib.suppress(OverflowError):
                grant["vest_start"] = (day + (new - old)).isoformat()
    package["start_date"] = start


def _iso_date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return None


def _scenario_stock_currency(doc: dict[str, Any]) -> None:
    """Name the currency of an older backup's scenario stock amounts: its option's pay.

    Before scenarios named it, their extra stock and refreshers a year were typed in the
    option's pay currency (the migration that added it kept that meaning where it had no
    rate to convert with, as here).
    """
    scenarios, offers, packages = doc.get("scenarios"), doc.get("offers"), doc.get("packages")
    if not isinstance(scenarios, list) or not isinstance(offers, list):
        return
    packages_by_id = {p.get("id"): p for p in packages or [] if isinstance(p, dict)}
    offers_by_id = {o.get("id"): o for o in offers if isinstance(o, dict)}
    for scenario in scenarios:
        if not isinstance(scenario, dict) or "stock_currency" in scenario:
            continue
        offer = offers_by_id.get(scenario.get("offer"))
        package = packages_by_id.get(offer.get("package")) if offer is not None else None
        if package is not None and "currency" in package:
            scenario["stock_currency"] = package["currency"]
