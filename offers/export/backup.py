"""Backup of everything a user owns, as one JSON file (see docs/export.md): its sections,
the document a backup is, and its JSON schema. Reading one back: `offers.export.restore_parse`,
`restore_check` and `restore`.

Records refer to each other by local ids (their position in the file, from 1); shared
reference data (companies, levels and places with no owner) is referred to by natural key:
``{"name": "Meta"}``, ``{"company": "Meta", "code": "E5"}``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils import timezone

from compensation.models import Band, Company, FxRate, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from interviews.models import Debrief, Process, Question, Round, StageChange, TeamMatch
from offers.models import NegotiationEntry, Offer, Preferences, Scenario

FORMAT = "offerdesk-backup"
BACKUP_VERSION = 1
MAX_VESTING_YEARS = 10


class BackupError(Exception):
    """A backup file that cannot be restored; `errors` name the record and the field."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors[:5]))
        self.errors = errors


@dataclasses.dataclass(frozen=True)
class Section:
    """One list of records in the file: its model, how to find the user's rows, its references.

    ``refs`` maps a foreign key to "company", "level" or "location" (the user's own by local
    id, or shared by natural key) or to "@section" (a record of that section, by local id).
    """

    key: str
    model: type[models.Model]
    owned_by: str
    refs: dict[str, str]


SECTIONS: tuple[Section, ...] = (
    Section("companies", Company, "owner", {}),
    Section("levels", Level, "company__owner", {"company": "@companies"}),
    Section("locations", LocationPreset, "owner", {}),
    Section("fx_rates", FxRate, "owner", {}),
    Section("bands", Band, "owner", {"level": "level"}),
    Section(
        "packages",
        Package,
        "owner",
        {"company": "company", "level": "level", "location": "location"},
    ),
    Section("sign_ons", SignOn, "package__owner", {"package": "@packages"}),
    Section("grants", EquityGrant, "package__owner", {"package": "@packages"}),
    Section("refreshers", Refresher, "package__owner", {"package": "@packages"}),
    Section(
        "processes",
        Process,
        "owner",
        {"company": "company", "target_level": "level", "offered_level": "level"},
    ),
    Section("stage_changes", StageChange, "process__owner", {"process": "@processes"}),
    Section("rounds", Round, "owner", {"process": "@processes"}),
    Section("questions", Question, "round__owner", {"round": "@rounds"}),
    Section("debriefs", Debrief, "owner", {"process": "@processes", "level_decided": "level"}),
    Section("team_matches", TeamMatch, "owner", {"process": "@processes"}),
    Section(
        "offers",
        Offer,
        "owner",
        {"package": "@packages", "target_level": "level", "process": "@processes"},
    ),
    Section("scenarios", Scenario, "owner", {"offer": "@offers", "level": "level"}),
    Section(
        "negotiation_entries",
        NegotiationEntry,
        "owner",
        {"offer": "@offers", "revised_level": "level"},
    ),
)
SECTION_KEYS = tuple(s.key for s in SECTIONS)
# A reference to the user's own company, level or place: a record of this section.
OWN_SECTIONS = {"company": "companies", "level": "levels", "location": "locations"}
# Also stored by the app, on purpose not in a backup: history and trash (snapshots of the
# rows above), export and restore jobs, one-time form tokens, the calendar feed's token and
# which reminders were emailed (a restored deadline still to come is reminded again).
NOT_BACKED_UP = (
    "accounts.Revision",
    "accounts.FormToken",
    "accounts.CalendarFeed",
    "offers.Job",
    "offers.ReminderSent",
)
# Links into the history (not in a backup): a restored log entry keeps its offer versions
# before and after, without the history entries they pointed to. A run's last progress time
# is the worker's, not the user's data: a restored scenario starts its own.
NOT_BACKED_UP_FIELDS = {
    "offers.NegotiationEntry": ("revision_before", "revision_after"),
    "offers.Scenario": ("mc_progress_at",),
}
SINGULAR = {
    "companies": "company",
    "processes": "process",
    "fx_rates": "FX rate",
    "team_matches": "team match",
    "negotiation_entries": "negotiation entry",
}


def singular(section: str) -> str:
    return SINGULAR.get(section, section.rstrip("s").replace("_", " "))


def data_fields(model: type[models.Model], refs: Iterable[str]) -> list[models.Field]:
    """Return the fields a record carries as plain values (no id, owner, references, timestamps)."""
    skip = {"id", "owner", *refs, *NOT_BACKED_UP_FIELDS.get(model._meta.label, ())}
    fields = []
    for field in model._meta.concrete_fields:
        timestamp = getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        if field.name in skip or timestamp:
            continue
        if field.is_relation:
            raise TypeError(f"{model.__name__}.{field.name} is a reference with no rule")
        fields.append(field)
    return fields


# Export ----------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.date | dt.time):  # datetime is a date
        return value.isoformat()
    return value


class _Refs:
    """Turn database ids into local ids or natural keys while exporting."""

    def __init__(self, user: AbstractBaseUser) -> None:
        self.local: dict[str, dict[int, int]] = {}
        levels = Level.objects.filter(company__owner__isnull=True)
        self.shared: dict[str, dict[int, dict[str, str]]] = {
            "company": {
                pk: {"name": name}
                for pk, name in Company.objects.filter(owner__isnull=True).values_list("pk", "name")
            },
            "level": {
                pk: {"company": name, "code": code}
                for pk, name, code in levels.values_list("pk", "company__name", "code")
            },
            "location": {
                pk: {"name": name}
                for pk, name in LocationPreset.objects.filter(owner__isnull=True).values_list(
                    "pk", "name"
                )
            },
        }

    def ref(self, kind: str, pk: int | None) -> Any:
        if pk is None:
            return None
        if kind.startswith("@"):
            return self.local[kind[1:]].get(pk)
        own = self.local[OWN_SECTIONS[kind]]
        if pk in own:
            return own[pk]
        shared = self.shared[kind].get(pk)
        return dict(shared) if shared else None  # someone else's row: never leaks into the file


def backup_build(*, user: AbstractBaseUser) -> dict[str, Any]:
    """Return every object the user owns as one JSON-ready document."""
    refs = _Refs(user)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "schema_version": BACKUP_VERSION,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "username": user.get_username(),
    }
    prefs = Preferences.objects.filter(owner=user).values().first()
    fields = data_fields(Preferences, ())
    doc["preferences"] = (
        {f.name: _plain(prefs[f.attname]) for f in fields} if prefs is not None else None
    )
    for section in SECTIONS:
        fields = data_fields(section.model, section.refs)
        ref_fields = [section.model._meta.get_field(name) for name in section.refs]
        attnames = ["pk", *[f.attname for f in fields], *[f.attname for f in ref_fields]]
        rows = section.model.objects.filter(**{section.owned_by: user}).order_by("pk")
        local: dict[int, int] = {}
        records = []
        for i, row in enumerate(rows.values(*attnames).iterator(chunk_size=2000), start=1):
            local[row["pk"]] = i
            record: dict[str, Any] = {"id": i}
            for f in ref_fields:
                record[f.name] = refs.ref(section.refs[f.name], row[f.attname])
            for f in fields:
                record[f.name] = _plain(row[f.attname])
            records.append(record)
        refs.local[section.key] = local
        doc[section.key] = records
    return doc


def backup_bytes(*, user: AbstractBaseUser) -> bytes:
    """Return the user's backup as UTF-8 JSON."""
    return json.dumps(backup_build(user=user), ensure_ascii=False, indent=1).encode("utf-8")


# Restore ---------------------------------------------------------------------------------


def _field_schema(field: models.Field) -> dict[str, Any]:
    if isinstance(field, models.BooleanField):
        schema: dict[str, Any] = {"type": "boolean"}
    elif isinstance(field, models.IntegerField):  # the small, big and positive ones too
        schema = {"type": "integer"}
    elif isinstance(field, models.DecimalField):
        schema = {"type": ["string", "number"], "pattern": r"^-?\d+(\.\d+)?$"}
    elif isinstance(field, models.JSONField):
        return {}
    elif isinstance(field, models.DateTimeField):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(field, models.DateField):
        schema = {"type": "string", "format": "date"}
    elif isinstance(field, models.TimeField):
        schema = {"type": "string", "format": "time"}
    else:
        schema = {"type": "string"}
        if getattr(field, "max_length", None):
            schema["maxLength"] = field.max_length
    if field.choices:
        schema["enum"] = [value for value, _label in field.flatchoices]
    if field.null:
        schema["type"] = [
            *([schema["type"]] if isinstance(schema["type"], str) else schema["type"]),
            "null",
        ]
        if "enum" in schema:
            schema["enum"].append(None)
    return schema


def _record_schema(model: type[models.Model], refs: dict[str, str]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    if refs or model is not Preferences:
        props["id"] = {"type": "integer", "minimum": 1}
    for name, kind in refs.items():
        field = model._meta.get_field(name)
        options: list[dict[str, Any]] = [{"type": "integer", "minimum": 1}]
        if not kind.startswith("@"):
            options.append({"$ref": f"#/$defs/shared_{kind}"})
        if field.null:
            options.append({"type": "null"})
        props[name] = {"anyOf": options}
    for field in data_fields(model, refs):
        props[field.name] = _field_schema(field)
    required = ["id", *[n for n in refs if not model._meta.get_field(n).null]]
    return {
        "type": "object",
        "additionalProperties": False,
        "required": required if "id" in props else [],
        "properties": props,
    }


def backup_schema() -> dict[str, Any]:
    """Return the JSON Schema of a backup file, derived from the models."""
    name = {
        "type": "object",
        "additionalProperties": False,
        "required": ["name"],
        "properties": {"name": {"type": "string"}},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://offerdesk.example/schema/backup-v1.json",
        "title": "Offerdesk backup of one user's data, version 1",
        "description": "See docs/export.md. Local ids refer to records of the same file.",
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "schema_version"],
        "$defs": {
            "shared_company": name,
            "shared_location": name,
            "shared_level": {
                "type": "object",
                "additionalProperties": False,
                "required": ["company", "code"],
                "properties": {"company": {"type": "string"}, "code": {"type": "string"}},
            },
        },
        "properties": {
            "format": {"const": FORMAT},
            "schema_version": {"const": BACKUP_VERSION},
            "exported_at": {"type": "string", "format": "date-time"},
            "username": {"type": "string"},
            "preferences": {"anyOf": [_record_schema(Preferences, {}), {"type": "null"}]},
            **{
                s.key: {"type": "array", "items": _record_schema(s.model, s.refs)} for s in SECTIONS
            },
        },
    }
