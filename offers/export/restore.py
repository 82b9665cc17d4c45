"""Restore of a backup (`offers.export.backup`): the file checked whole, then written.

A restore checks the whole file first and then writes everything in one transaction, as new
rows owned by the target user (or, for a large file, in short transactions for a stand-in
user handed over at the end).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.dates import date_refusal
from accounts.history import replaced_data_keep, revision_restored_mark
from accounts.models import Revision
from accounts.services import account_delete
from accounts.text import text_refusal
from accounts.zones import TIME_ZONE_FIELDS, known_zone
from compensation.engine import EngineInputError
from compensation.form_fields import validate_currency
from compensation.models import Company, FxRate, Level, LocationPreset, Package, currency_validator
from compensation.package_parts import EquityGrant, Refresher, SignOn, VestingFields
from compensation.selectors import bonus_cycle_of, rows_terms, schedule_of, sign_on_of
from compensation.services import ChildValidationError, package_rows_build
from offers.board_cache import board_changed
from offers.export.backup import (
    _INT_TYPES,
    BACKUP_VERSION,
    FORMAT,
    MAX_VESTING_YEARS,
    SECTION_KEYS,
    SECTIONS,
    BackupError,
    Section,
    backup_build,
    data_fields,
    singular,
)
from offers.models import Preferences, Scenario

MAX_ERRORS = 25
MAX_RECORDS = 500_000
BATCH = 500


def _describe(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)[:60]
    return text


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@functools.cache
def _currency_fields(model: type[models.Model]) -> frozenset[str]:
    """Return the names of a model's ISO 4217 code fields."""
    return frozenset(
        f.name for f in model._meta.concrete_fields if currency_validator in f.validators
    )


def _unstorable(value: Any) -> str:
    """Return why a text or JSON value cannot be stored (a NUL, a lone surrogate), else ""."""
    # A loop, not recursion: a JSON value may be nested as deep as the parser allows.
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            refusal = text_refusal(item)
            if refusal:
                return refusal
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
    return ""


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and all(_is_number(v) for v in value)


def _mc_result_problem(result: Any) -> str:
    """Return why a stored Monte Carlo result cannot be shown, or "" if the pages can read it."""
    shape = (
        'expected {"paths": n, "currency": "...", "options": [{"key", "name", "is_scenario", '
        '"cumulative": {"p10", "p50", "p90"}, "prob_scenario_beats"}, ...]}'
    )
    if not isinstance(result, dict) or not isinstance(result.get("options"), list):
        return shape
    if not isinstance(result.get("paths", 0), int) or isinstance(result.get("paths"), bool):
        return "paths: expected a whole number"
    if not isinstance(result.get("currency", ""), str):
        return "currency: expected a string"
    for i, option in enumerate(result["options"]):
        at = f"options[{i}]"
        if not isinstance(option, dict):
            return f"{at}: {shape}"
        if not isinstance(option.get("key"), str | int) or isinstance(option.get("key"), bool):
            return f"{at}.key: expected a string"
        if not isinstance(option.get("name"), str):
            return f"{at}.name: expected a string"
        if not isinstance(option.get("is_scenario"), bool):
            return f"{at}.is_scenario: expected true or false"
        beats = option.get("prob_scenario_beats")
        if beats is not None and not _is_number(beats):
            return f"{at}.prob_scenario_beats: expected null or a number"
        for part in ("cumulative", "yearly"):
            if part == "yearly" and part not in option:
                continue
            fan = option.get(part)
            if not isinstance(fan, dict):
                return f"{at}.{part}: expected P10, P50 and P90 lists"
            lists = [fan.get(p) for p in ("p10", "p50", "p90")]
            if not all(_numbers(v) and v for v in lists) or len({len(v) for v in lists}) != 1:
                return f"{at}.{part}: expected P10, P50 and P90 lists of numbers of one length"
    return ""


def _mc_stopped(scenario: Scenario) -> None:
    """Restore a Monte Carlo run that was queued or running when backed up as failed.

    No task will ever run it (its message, if any, was for the row the backup was made
    from), so it would stay "Running" for good; failed, its page says why and offers to run
    it again. A restored row takes no task id: only a task published for it may claim it.
    """
    scenario.mc_task_id = ""
    if scenario.mc_status in (Scenario.McStatus.QUEUED, Scenario.McStatus.RUNNING):
        scenario.mc_status = Scenario.McStatus.FAILED
        scenario.mc_progress = 0
        scenario.mc_result = None
        scenario.mc_error = _(
            "it was still running when the backup was made, so it was not restored; run it again."
        )[:300]


class _Restore:
    """Check a parsed backup and turn it into unsaved model instances.

    ``replace``: the user's own data is deleted before the rows are written, so the file is
    checked against an empty account (a company of the same name is no conflict).
    """

    def __init__(self, user: AbstractBaseUser, replace: bool = False) -> None:
        self.user = user
        self.replace = replace
        self.errors: list[str] = []
        self.objects: dict[str, dict[int, models.Model]] = {}
        self.positions: dict[str, dict[int, int]] = {}
        # Records refused already: a reference to one is not reported again.
        self.refused: dict[str, set[int]] = {}
        self.shared_companies = {c.name: c for c in Company.objects.filter(owner__isnull=True)}
        self.shared_levels = {
            (lv.company.name, lv.code): lv
            for lv in Level.objects.filter(company__owner__isnull=True).select_related("company")
        }
        self.shared_locations = {
            loc.name: loc for loc in LocationPreset.objects.filter(owner__isnull=True)
        }

    def error(self, where: str, message: str) -> None:
        if len(self.errors) >= MAX_ERRORS:
            raise BackupError([*self.errors, "… and more; fix these first."])
        self.errors.append(f"{where}: {message}")

    # Values ----------------------------------------------------------------------------

    def value(self, where: str, field: models.Field, raw: Any) -> tuple[bool, Any]:
        """Return (ok, python value) of one plain field, recording an error if it is wrong."""
        if raw is None:
            if field.null:
                return True, None
            self.error(where, "may not be null")
            return False, None
        if isinstance(field, models.BooleanField):
            ok = isinstance(raw, bool)
            expected = "true or false"
        elif isinstance(field, _INT_TYPES):
            ok = isinstance(raw, int) and not isinstance(raw, bool)
            expected = "a whole number"
        elif isinstance(field, models.DecimalField):
            ok = isinstance(raw, str | int | float) and not isinstance(raw, bool)
            expected = "a number"
            if ok and isinstance(raw, float):
                raw = repr(raw)
        elif isinstance(field, models.JSONField):
            ok, expected = True, ""
        else:  # text, dates and times are strings in the file
            ok = isinstance(raw, str)
            expected = "a string"
        if not ok:
            self.error(where, f"expected {expected}, got {_describe(raw)}")
            return False, None
        refusal = _unstorable(raw)
        if refusal:
            self.error(where, refusal)
            return False, None
        if isinstance(field, models.JSONField):
            return True, raw
        try:
            value = field.to_python(raw)
        except ValidationError as exc:
            self.error(where, " ".join(exc.messages))
            return False, None
        if isinstance(value, dt.datetime) and timezone.is_naive(value):
            self.error(where, "needs a time zone offset, e.g. 2026-11-03T09:00:00+00:00")
            return False, None
        return True, value

    def reference(self, where: str, kind: str, raw: Any, field: models.Field) -> Any:
        """Return the model instance a reference points to, or None (recording any error)."""
        if raw is None:
            if not field.null:
                self.error(where, "may not be null")
            return None
        if kind.startswith("@"):
            section = kind[1:]
            if isinstance(raw, int) and not isinstance(raw, bool):
                target = self.objects.get(section, {}).get(raw)
                if target is None and raw not in self.refused.get(section, ()):
                    self.error(where, f"unknown {singular(section)} id {raw}")
                return target
            self.error(where, f"expected the id of a {singular(section)}, got {_describe(raw)}")
            return None
        own = {"company": "companies", "level": "levels", "location": "locations"}[kind]
        if isinstance(raw, int) and not isinstance(raw, bool):
            target = self.objects.get(own, {}).get(raw)
            if target is None and raw not in self.refused.get(own, ()):
                self.error(where, f"unknown {kind} id {raw}")
            return target
        if isinstance(raw, dict):
            if kind in ("company", "location") and set(raw) == {"name"}:
                table = self.shared_companies if kind == "company" else self.shared_locations
                target = table.get(raw["name"]) if isinstance(raw["name"], str) else None
                if target is None:
                    self.error(where, f"unknown shared {kind} {_describe(raw['name'])}")
                return target
            if kind == "level" and set(raw) == {"company", "code"}:
                key = (raw["company"], raw["code"])
                target = (
                    self.shared_levels.get(key) if all(isinstance(k, str) for k in key) else None
                )
                if target is None:
                    self.error(where, f"unknown shared level {_describe(raw)}")
                return target
        self.error(where, f"expected a {kind} id or a shared {kind}'s name, got {_describe(raw)}")
        return None

    # Records ---------------------------------------------------------------------------

    def record(
        self, where: str, model: type[models.Model], refs: dict[str, str], raw: Any
    ) -> models.Model | None:
        if not isinstance(raw, dict):
            self.error(where, f"expected an object, got {_describe(raw)}")
            return None
        fields = data_fields(model, refs)
        known = {"id", *refs, *(f.name for f in fields)}
        for key in raw:
            if key not in known:
                self.error(f"{where}.{key}", "unknown field")
        values: dict[str, Any] = {}
        failed = False
        for f in fields:
            if f.name not in raw:
                continue  # an older file without this field: the model's default applies
            ok, value = self.value(f"{where}.{f.name}", f, raw[f.name])
            failed |= not ok
            values[f.attname] = value
        obj = model(**values)
        for name, kind in refs.items():
            field = model._meta.get_field(name)
            if name not in raw:
                if not field.null:
                    self.error(f"{where}.{name}", "missing")
                    failed = True
                continue
            target = self.reference(f"{where}.{name}", kind, raw[name], field)
            if target is None and raw[name] is not None:
                failed = True
            setattr(obj, name, target)
        if any(f.name == "owner" for f in model._meta.concrete_fields):
            obj.owner = self.user
        if failed:
            return None
        try:
            obj.clean_fields(exclude=[*refs, "owner"])
            obj.clean()
        except ValidationError as exc:
            for field_name, messages in exc.message_dict.items():
                at = where if field_name == NON_FIELD_ERRORS else f"{where}.{field_name}"
                self.error(at, " ".join(messages))
            return None
        if not self.sane(where, obj):
            return None
        return obj

    # What the forms check beyond the model's own validators ----------------------------

    def sane(self, where: str, obj: models.Model) -> bool:
        """Check what the forms would refuse: far dates, unknown zones, schedules, results."""
        before = len(self.errors)
        for field in type(obj)._meta.concrete_fields:
            value = getattr(obj, field.attname)
            # The range every form's dates are held to (accounts.dates): what a form took,
            # a restore takes.
            if isinstance(value, dt.date) and (refusal := date_refusal(value)):
                self.error(f"{where}.{field.name}", refusal)
            if value and field.name in _currency_fields(type(obj)):
                try:
                    validate_currency(value)
                except ValidationError as exc:
                    self.error(f"{where}.{field.name}", " ".join(exc.messages))
            # The forms' check (accounts.zones): what a form saved is restored.
            zone = field.name in TIME_ZONE_FIELDS and isinstance(value, str) and value
            if zone and not known_zone(value):
                self.error(
                    f"{where}.{field.name}",
                    f"unknown time zone {_describe(value)}; use an IANA name like Asia/Taipei",
                )
        if isinstance(obj, VestingFields):
            self.vesting(where, obj)
        if isinstance(obj, SignOn):
            self.engine_check(where, obj, sign_on_of, "instalments")
        if isinstance(obj, Package):
            if (obj.bonus_cutoff_month is None) != (obj.bonus_cutoff_day is None):
                self.error(f"{where}.bonus_cutoff_day", "give both the cut-off month and day")
            else:
                self.engine_check(where, obj, bonus_cycle_of, "bonus_cycle")
        if isinstance(obj, Scenario):
            _mc_stopped(obj)
        if isinstance(obj, Scenario) and obj.mc_result is not None:
            problem = _mc_result_problem(obj.mc_result)
            if problem:
                self.error(f"{where}.mc_result", problem)
        return len(self.errors) == before

    def engine_check(
        self, where: str, obj: models.Model, build: Callable[[Any], Any], name: str
    ) -> None:
        """Record the engine's complaint about ``obj`` (a sign-on's instalments, a bonus cycle)."""
        try:
            build(obj)
        except (EngineInputError, TypeError, ValueError) as error:
            message = error.message if isinstance(error, EngineInputError) else str(error)
            field = getattr(error, "field", "")
            if field.startswith("cutoff"):
                name = "bonus_cutoff_day"
            elif field == "clawback_kind":
                name = "clawback_kind"
            self.error(f"{where}.{name}", str(message))

    def vesting(self, where: str, item: VestingFields) -> None:
        weights, freqs = item.weights, item.year_frequencies
        if (
            not isinstance(weights, list)
            or not 1 <= len(weights) <= MAX_VESTING_YEARS
            or not all(_is_number(w) and w >= 0 for w in weights)
        ):
            self.error(
                f"{where}.weights",
                f"expected 1 to {MAX_VESTING_YEARS} yearly percentages (numbers of 0 or more), "
                f"got {_describe(weights)}",
            )
            return
        if abs(sum(weights) - 100.0) > 1e-6:
            self.error(f"{where}.weights", f"must add up to 100 (they add up to {sum(weights):g})")
            return
        if freqs is not None and (
            not isinstance(freqs, list)
            or not all(isinstance(f, int) and not isinstance(f, bool) for f in freqs)
        ):
            self.error(
                f"{where}.year_frequencies",
                f"expected null or a list of months between vests, one per year, "
                f"got {_describe(freqs)}",
            )
            return
        dates = item.vest_dates
        if dates is not None and (
            not isinstance(dates, list)
            or not all(
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in p)
                for p in dates
            )
        ):
            self.error(
                f"{where}.vest_dates",
                f"expected null or a list of [month, day] pairs, got {_describe(dates)}",
            )
            return
        try:
            schedule_of(item)  # type: ignore[arg-type]
        except EngineInputError as error:
            name = "year_frequencies" if error.field.startswith("year_frequencies") else "weights"
            if error.field == "cliff_months":
                name = "cliff_months"
            if error.field.startswith("vest_dates"):
                name = "vest_dates"
            self.error(f"{where}.{name}", str(error.message))

    def section(self, section: Section, raw: Any) -> None:
        objects: dict[int, models.Model] = {}
        self.objects[section.key] = objects
        positions = self.positions[section.key] = {}
        refused = self.refused[section.key] = set()
        if raw is None:
            return
        if not isinstance(raw, list):
            self.error(section.key, f"expected a list, got {_describe(raw)}")
            return
        for i, item in enumerate(raw):
            where = f"{section.key}[{i}]"
            local = item.get("id") if isinstance(item, dict) else None
            if not isinstance(local, int) or isinstance(local, bool) or local < 1:
                self.error(
                    f"{where}.id", f"expected a positive whole number, got {_describe(local)}"
                )
                continue
            if local in objects:
                self.error(f"{where}.id", f"duplicate {singular(section.key)} id {local}")
                continue
            obj = self.record(where, section.model, section.refs, item)
            if obj is not None:
                objects[local] = obj
                positions[local] = i
            else:
                refused.add(local)

    # Whole-file rules ------------------------------------------------------------------

    def unique(self, section: str, fields: tuple[str, ...], existing: set[tuple[Any, ...]]) -> None:
        seen = set(existing)
        for local, obj in self.objects[section].items():
            key = tuple(
                id(getattr(obj, f)) if f in ("company", "process", "package") else getattr(obj, f)
                for f in fields
            )
            if key in seen:
                shown = ", ".join(f"{f}={getattr(obj, f)}" for f in fields)
                where = self.where(section, local)
                if key in existing:
                    self.error(
                        where,
                        f"you already have a {singular(section)} with {shown}; to restore "
                        "this backup in place of your data, choose “Replace my data with "
                        "this backup”",
                    )
                else:
                    self.error(where, f"another {singular(section)} in the file has {shown}")
            seen.add(key)

    def where(self, section: str, local: int) -> str:
        return f"{section}[{self.positions[section][local]}]"

    def same_company(self, where: str, level: Level | None, company: Company | None) -> None:
        if level is None or company is None:
            return
        if level.company is company or (company.pk is not None and level.company_id == company.pk):
            return
        self.error(where, f"level {level.code} is not on {company.name}'s ladder")

    def packages_through_terms(self) -> None:
        """Rebuild each package and its children from their terms, as the writer builds them.

        The package's terms (`rows_terms`, the reader's) go through the writer's own
        constructor (`package_rows_build`): its fields, checks and messages. The package row
        is filled in place (offers refer to it); its children are the constructor's rows, in
        the file's order, in place of the ones read.
        """
        children: dict[str, dict[int, list[int]]] = {
            key: {} for key in ("sign_ons", "grants", "refreshers")
        }
        by_row = {id(p): local for local, p in self.objects["packages"].items()}
        for key, rows in children.items():
            for local, child in self.objects[key].items():
                rows.setdefault(by_row[id(child.package)], []).append(local)  # type: ignore[attr-defined]
        for local, package in self.objects["packages"].items():
            mine = {key: rows.get(local, []) for key, rows in children.items()}
            terms = rows_terms(
                package,  # type: ignore[arg-type]
                *(
                    [self.objects[key][i] for i in mine[key]]  # type: ignore[misc]
                    for key in ("sign_ons", "grants", "refreshers")
                ),
            )
            identity = {f: getattr(package, f) for f in ("name", "company", "is_current_job")}
            try:
                built = package_rows_build(
                    user=self.user,
                    terms=terms,
                    identity=identity,
                    package=package,  # type: ignore[arg-type]
                    # The inserts meet the check constraints, in the restore's transaction.
                    constraints=False,
                )
            except ChildValidationError as exc:
                key = {SignOn: "sign_ons", EquityGrant: "grants", Refresher: "refreshers"}[
                    exc.model  # type: ignore[index]
                ]
                self._errors_at(self.where(key, mine[key][exc.index]), exc)
                continue
            except ValidationError as exc:
                self._errors_at(self.where("packages", local), exc)
                continue
            for key in ("sign_ons", "grants", "refreshers"):
                for i, row in zip(mine[key], getattr(built, key), strict=True):
                    self.objects[key][i] = row

    def _errors_at(self, where: str, exc: ValidationError) -> None:
        for field_name, messages in exc.message_dict.items():
            at = where if field_name == NON_FIELD_ERRORS else f"{where}.{field_name}"
            self.error(at, " ".join(messages))

    def cross_checks(self) -> None:
        user = self.user

        def existing(model: type[models.Model], *fields: str) -> set[tuple[Any, ...]]:
            # Replacing: the user's rows are deleted first, so none of them is a conflict.
            if self.replace:
                return set()
            return set(model.objects.filter(owner=user).values_list(*fields))  # type: ignore[attr-defined]

        self.unique("companies", ("name",), existing(Company, "name"))
        self.unique("levels", ("company", "code"), set())
        self.unique("locations", ("name",), existing(LocationPreset, "name"))
        self.unique(
            "fx_rates",
            ("currency", "to_currency", "as_of"),
            existing(FxRate, "currency", "to_currency", "as_of"),
        )
        self.unique("debriefs", ("process",), set())
        self.unique("offers", ("package",), set())
        for local, process in self.objects["processes"].items():
            for name in ("target_level", "offered_level"):
                self.same_company(
                    f"{self.where('processes', local)}.{name}",
                    getattr(process, name),
                    process.company,
                )
        for local, entry in self.objects["negotiation_entries"].items():
            self.same_company(
                f"{self.where('negotiation_entries', local)}.revised_level",
                entry.revised_level,  # type: ignore[attr-defined]
                entry.offer.company,  # type: ignore[attr-defined]
            )
        for local, debrief in self.objects["debriefs"].items():
            self.same_company(
                f"{self.where('debriefs', local)}.level_decided",
                debrief.level_decided,
                debrief.process.company,
            )


@dataclasses.dataclass
class RestoreResult:
    """What a restore created, by section."""

    counts: dict[str, int]
    preferences: bool

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + int(self.preferences)


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
            [
                f"schema_version: expected the whole number {BACKUP_VERSION}, "
                f"got {_describe(version)}"
            ]
        )
    if version != BACKUP_VERSION:
        raise BackupError(
            [
                f"schema_version: this version reads version {BACKUP_VERSION}, "
                f"the file is {_describe(doc.get('schema_version'))}"
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
        if not isinstance(offer, dict) or not any(k in offer for k in LEGACY_OFFER_TERMS):
            continue
        held = {k: offer.pop(k) for k in LEGACY_OFFER_TERMS if k in offer}
        package = by_id.get(offer.get("package"))
        if package is None:
            continue
        for key in ("company", "level"):
            if held.get(key) is not None:
                package[key] = held[key]
        start, kind = held.get("start_date"), offer.get("kind")
        if not start or kind == "stay" or start == package.get("start_date"):
            continue
        try:
            shift = dt.date.fromisoformat(start) - dt.date.fromisoformat(package["start_date"])
        except (KeyError, TypeError, ValueError):
            continue  # the record's own checks name what is wrong
        if kind == "external":
            for grant in grants:
                if grant.get("package") == offer.get("package"):
                    try:
                        day = dt.date.fromisoformat(grant["vest_start"]) + shift
                    except (KeyError, TypeError, ValueError, OverflowError):
                        continue
                    grant["vest_start"] = day.isoformat()
        package["start_date"] = start


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


def backup_check(*, user: AbstractBaseUser, doc: dict[str, Any], replace: bool = False) -> _Restore:
    """Check every record of a parsed backup against the target user; raise BackupError.

    ``replace``: checked as if the user had no data (it is deleted before the rows are written).
    """
    _offer_terms_to_packages(doc)
    _scenario_stock_currency(doc)
    restore = _Restore(user, replace=replace)
    for section in SECTIONS:
        restore.section(section, doc.get(section.key))
    prefs = doc.get("preferences")
    restore.objects["preferences"] = {}
    if prefs is not None:
        obj = restore.record("preferences", Preferences, {}, prefs)
        if obj is not None:
            restore.objects["preferences"][1] = obj
    if not restore.errors:
        restore.packages_through_terms()
    if not restore.errors:
        restore.cross_checks()
    if restore.errors:
        raise BackupError(restore.errors)
    return restore


def owned_data_trash(*, user: AbstractBaseUser) -> Revision | None:
    """Keep the user's data in the trash as one entry (their backup), then delete it.

    What "Replace my data" replaces, restorable for TRASH_DAYS days with
    `replaced_data_restore`. Run inside the restore's transaction: a refused or failed restore
    keeps nothing and deletes nothing. An account with no data keeps no entry.
    """
    document = backup_build(user=user)
    records = backup_record_count(document) + int(document["preferences"] is not None)
    kept = replaced_data_keep(user=user, document=document, records=records) if records else None
    owned_data_delete(user=user)
    return kept


def owned_data_delete(*, user: AbstractBaseUser) -> None:
    """Delete every row a backup holds for ``user`` (what "Replace my data" replaces).

    Sections in reverse order: an offer before the package it protects, a process before its
    company; the children of a row go with it. History, trash, jobs and the account stay; the
    preferences row is replaced by the backup's (its version moves on), or deleted when the
    backup has none.
    """
    for section in reversed(SECTIONS):
        if section.has_owner:
            section.model.objects.filter(owner=user).delete()  # type: ignore[misc]


def backup_restore(
    *, user: AbstractBaseUser, raw: bytes | str, replace: bool = False
) -> RestoreResult:
    """Check a backup file, then create all of it for ``user`` in one transaction, or nothing.

    ``replace``: in the same transaction, the user's own data is kept in the trash and
    deleted first, so the account then holds exactly the backup's data; a refused file
    deletes nothing and keeps nothing.
    """
    return _document_restore(user=user, doc=backup_parse(raw), replace=replace)


def _document_restore(
    *, user: AbstractBaseUser, doc: dict[str, Any], replace: bool
) -> RestoreResult:
    restore = backup_check(user=user, doc=doc, replace=replace)
    counts: dict[str, int] = {}
    try:
        with transaction.atomic():
            board_changed(owner_id=user.pk)  # bulk_create sends no post_save
            if replace:
                owned_data_trash(user=user)
            for section in SECTIONS:
                objs = list(restore.objects[section.key].values())
                section.model.objects.bulk_create(objs, batch_size=BATCH)
                counts[section.key] = len(objs)
            prefs = restore.objects["preferences"].get(1)
            if prefs is not None:
                existing = Preferences.objects.filter(owner=user).first()
                if existing is not None:
                    prefs.pk = existing.pk
                    prefs.version = existing.version + 1
                prefs.save()
            elif replace:
                Preferences.objects.filter(owner=user).delete()
    except IntegrityError as exc:
        raise BackupError([f"database: the data breaks a rule of the database ({exc})"]) from None
    return RestoreResult(counts=counts, preferences=prefs is not None)


@transaction.atomic
def replaced_data_restore(*, user: AbstractBaseUser, revision: Revision) -> RestoreResult:
    """Put back the data a restore replaced (a trash entry), in place of the data there now.

    Through the replace restore itself, in one transaction with its checks: the data there
    now goes to the trash in turn, and the entry leaves it. Raise BackupError, restoring
    nothing, if the kept document no longer passes them.
    """
    entry = Revision.objects.select_for_update().get(pk=revision.pk)  # restored once
    if entry.owner_id != user.pk or not entry.is_replaced_data or not entry.in_trash:
        raise PermissionError("not replaced data of this user still in the trash")
    result = _document_restore(user=user, doc=backup_document_read(entry.snapshot), replace=True)
    revision_restored_mark(revision=entry)
    return result


# Large restores, in batches ------------------------------------------------------------

# More records than this: the restore runs as a background job, in batches.
RESTORE_JOB_RECORDS = 5_000
Progress = Callable[[int], None]


def backup_record_count(doc: dict[str, Any]) -> int:
    """Return how many records a parsed backup holds."""
    return sum(len(doc[k]) for k in SECTION_KEYS if isinstance(doc.get(k), list))


def backup_restore_batched(
    *,
    user: AbstractBaseUser,
    raw: bytes | str,
    progress: Progress | None = None,
    stand_in_made: Callable[[AbstractBaseUser], None] | None = None,
    handed_over: Callable[[RestoreResult], None] | None = None,
    replace: bool = False,
) -> RestoreResult:
    """Restore a large backup in short transactions of BATCH rows, still all or nothing.

    The rows are first written for a stand-in user (inactive, unable to log in), a batch per
    transaction, so that no single transaction holds the database's write lock for long. One
    last short transaction hands every row to ``user`` (an UPDATE of the owner per table). If
    anything fails on the way, the stand-in and all its rows are deleted: ``user`` sees all of
    the backup or none of it.

    A process killed on the way cleans nothing up, so a job records what it must: the stand-in
    (``stand_in_made`` runs in the transaction that creates it) and the end (``handed_over``
    runs in the transaction that hands the rows over).

    ``replace``: the user's own data is kept in the trash and deleted in that last
    transaction, just before the rows are handed over, so until then the account is untouched
    and then holds exactly the backup's data.
    """
    report = progress or (lambda pct: None)
    doc = backup_parse(raw)
    restore = backup_check(user=user, doc=doc, replace=replace)
    report(10)
    user_model = type(user)
    with transaction.atomic():
        stand_in = user_model.objects.create_user(
            username=f"restore-{user.pk}-{timezone.now():%Y%m%d%H%M%S%f}"[:150],
            is_active=False,
        )
        if stand_in_made is not None:
            stand_in_made(stand_in)
    counts: dict[str, int] = {}
    total = max(1, sum(len(restore.objects[s.key]) for s in SECTIONS))
    written = 0
    try:
        for section in SECTIONS:
            objs = list(restore.objects[section.key].values())
            for obj in objs:
                if section.has_owner:
                    obj.owner = stand_in  # type: ignore[attr-defined]
            for start in range(0, len(objs), BATCH):
                with transaction.atomic():
                    section.model.objects.bulk_create(objs[start : start + BATCH])
                written += len(objs[start : start + BATCH])
                report(10 + int(85 * written / total))
            counts[section.key] = len(objs)
        with transaction.atomic():
            board_changed(owner_id=user.pk)  # a queryset update sends no post_save
            if replace:
                owned_data_trash(user=user)
            for section in SECTIONS:
                if section.has_owner:
                    section.model.objects.filter(owner=stand_in).update(owner=user)
            prefs = restore.objects["preferences"].get(1)
            if prefs is not None:
                existing = Preferences.objects.filter(owner=user).first()
                prefs.owner = user  # type: ignore[attr-defined]
                if existing is not None:
                    prefs.pk = existing.pk
                    prefs.version = existing.version + 1  # type: ignore[attr-defined]
                prefs.save()
            elif replace:
                Preferences.objects.filter(owner=user).delete()
            stand_in.delete()
            result = RestoreResult(counts=counts, preferences=prefs is not None)
            if handed_over is not None:
                handed_over(result)
    except IntegrityError as exc:
        account_delete(user=stand_in)
        raise BackupError([f"database: the data breaks a rule of the database ({exc})"]) from None
    except BaseException:
        account_delete(user=stand_in)
        raise
    report(100)
    return result


# Schema ----------------------------------------------------------------------------------
