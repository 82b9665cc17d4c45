"""Checking a parsed backup's records against the user they are restored for.

Each value, reference and record is checked as the forms check them, then the rules across the
file; what passes becomes unsaved model instances, which `offers.export.restore` writes.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.dates import date_refusal
from accounts.text import text_refusal
from accounts.zones import TIME_ZONE_FIELDS, known_zone
from compensation.engine import EngineInputError
from compensation.form_fields import validate_currency
from compensation.models import Company, FxRate, Level, LocationPreset, Package, currency_validator
from compensation.package_parts import SignOn, VestingFields
from compensation.selectors import bonus_cycle_of, rows_terms, schedule_of, sign_on_of
from compensation.services import CHILDREN as PACKAGE_CHILDREN
from compensation.services import ChildValidationError, package_rows_build
from offers.export.backup import (
    MAX_VESTING_YEARS,
    OWN_SECTIONS,
    SECTIONS,
    BackupError,
    Section,
    data_fields,
    singular,
)
from offers.export.restore_parse import backup_upgrade, describe
from offers.models import Preferences, Scenario

MAX_ERRORS = 25
# A reference to a shared company, level or place: the fields of its natural key.
SHARED_KEYS = {"company": ("name",), "level": ("company", "code"), "location": ("name",)}
# A package's children, by model: their sections, in the order `rows_terms` reads them (the
# package service's own list).
CHILDREN: dict[type[models.Model], str] = {model: key for key, model, _f in PACKAGE_CHILDREN}
# What no two records share, nor a record and the user's own rows of ``model`` (when named).
UNIQUE: tuple[tuple[str, tuple[str, ...], type[models.Model] | None], ...] = (
    ("companies", ("name",), Company),
    ("levels", ("company", "code"), None),
    ("locations", ("name",), LocationPreset),
    ("fx_rates", ("currency", "to_currency", "as_of"), FxRate),
    ("debriefs", ("process",), None),
    ("offers", ("package",), None),
)
# A record's level is on its company's ladder: (section, its level fields, the company's path).
LEVEL_ON_LADDER = (
    ("processes", ("target_level", "offered_level"), "company"),
    ("negotiation_entries", ("revised_level",), "offer.company"),
    ("debriefs", ("level_decided",), "process.company"),
)
MC_SHAPE = (
    'expected {"paths": n, "currency": "...", "options": [{"key", "name", "is_scenario", '
    '"cumulative": {"p10", "p50", "p90"}, "prob_scenario_beats"}, ...]}'
)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _numbers(value: Any) -> bool:
    return isinstance(value, list) and all(_is_number(v) for v in value)


@functools.cache
def _currency_fields(model: type[models.Model]) -> frozenset[str]:
    """Return the names of a model's ISO 4217 code fields."""
    return frozenset(
        f.name for f in model._meta.concrete_fields if currency_validator in f.validators
    )


def _type_refusal(field: models.Field, raw: Any) -> str:
    """Return what the file should hold for ``field`` if ``raw`` (not null) is not that, or ""."""
    if isinstance(field, models.BooleanField):
        ok, expected = isinstance(raw, bool), "true or false"
    elif isinstance(field, models.IntegerField):
        ok, expected = _whole(raw), "a whole number"
    elif isinstance(field, models.DecimalField):
        ok, expected = _whole(raw) or isinstance(raw, str | float), "a number"
    elif isinstance(field, models.JSONField):
        return ""
    else:  # text, dates and times are strings in the file
        ok, expected = isinstance(raw, str), "a string"
    return "" if ok else f"expected {expected}, got {describe(raw)}"


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


def _mc_result_problem(result: Any) -> str:
    """Return why a stored Monte Carlo result cannot be shown, or "" if the pages can read it."""
    if not isinstance(result, dict) or not isinstance(result.get("options"), list):
        return MC_SHAPE
    if not _whole(result.get("paths", 0)):
        return "paths: expected a whole number"
    if not isinstance(result.get("currency", ""), str):
        return "currency: expected a string"
    for i, option in enumerate(result["options"]):
        if problem := _mc_option_problem(option):
            return f"options[{i}]{problem}"
    return ""


def _mc_option_problem(option: Any) -> str:
    """Return why one option of a Monte Carlo result cannot be shown (".field: why"), or ""."""
    if not isinstance(option, dict):
        return f": {MC_SHAPE}"
    beats = option.get("prob_scenario_beats")
    for name, ok, expected in (
        ("key", isinstance(option.get("key"), str) or _whole(option.get("key")), "a string"),
        ("name", isinstance(option.get("name"), str), "a string"),
        ("is_scenario", isinstance(option.get("is_scenario"), bool), "true or false"),
        ("prob_scenario_beats", beats is None or _is_number(beats), "null or a number"),
    ):
        if not ok:
            return f".{name}: expected {expected}"
    for part in ("cumulative", "yearly"):
        fan = option.get(part)
        if part == "yearly" and part not in option:
            continue
        if not isinstance(fan, dict):
            return f".{part}: expected P10, P50 and P90 lists"
        lists = [fan.get(p) for p in ("p10", "p50", "p90")]
        if not all(_numbers(v) and v for v in lists) or len({len(v) for v in lists}) != 1:
            return f".{part}: expected P10, P50 and P90 lists of numbers of one length"
    return ""


def _vesting_shape(item: VestingFields) -> tuple[str, str] | None:
    """Return (field, why) if a grant's schedule lists are not of the shapes the engine reads."""
    weights, freqs, dates = item.weights, item.year_frequencies, item.vest_dates
    if (
        not isinstance(weights, list)
        or not 1 <= len(weights) <= MAX_VESTING_YEARS
        or not all(_is_number(w) and w >= 0 for w in weights)
    ):
        return "weights", (
            f"expected 1 to {MAX_VESTING_YEARS} yearly percentages (numbers of 0 or more), "
            f"got {describe(weights)}"
        )
    if abs(sum(weights) - 100.0) > 1e-6:
        return "weights", f"must add up to 100 (they add up to {sum(weights):g})"
    if freqs is not None and not (isinstance(freqs, list) and all(_whole(f) for f in freqs)):
        return "year_frequencies", (
            f"expected null or a list of months between vests, one per year, got {describe(freqs)}"
        )
    pairs = isinstance(dates, list) and all(
        isinstance(p, list) and len(p) == 2 and all(_whole(n) for n in p) for p in dates
    )
    if dates is not None and not pairs:
        return "vest_dates", f"expected null or a list of [month, day] pairs, got {describe(dates)}"
    return None


def _schedule_field(field: str) -> str:
    """Return the grant field that the engine's complaint about its schedule (``field``) is on."""
    if field == "cliff_months":
        return field
    return next((n for n in ("year_frequencies", "vest_dates") if field.startswith(n)), "weights")


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


class BackupCheck:
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
        # Shared companies, levels and places by their natural key (SHARED_KEYS).
        self.shared: dict[str, dict[tuple[str, ...], models.Model]] = {
            "company": {(c.name,): c for c in Company.objects.filter(owner__isnull=True)},
            "level": {
                (lv.company.name, lv.code): lv
                for lv in Level.objects.filter(company__owner__isnull=True).select_related(
                    "company"
                )
            },
            "location": {(p.name,): p for p in LocationPreset.objects.filter(owner__isnull=True)},
        }

    def error(self, where: str, message: str) -> None:
        if len(self.errors) >= MAX_ERRORS:
            raise BackupError([*self.errors, "… and more; fix these first."])
        self.errors.append(f"{where}: {message}")

    # Values ----------------------------------------------------------------------------

    def value(self, where: str, field: models.Field, raw: Any) -> tuple[bool, Any]:
        """Return (ok, python value) of one plain field, recording an error if it is wrong."""
        if raw is None:
            if not field.null:
                self.error(where, "may not be null")
            return field.null, None
        refusal = _type_refusal(field, raw) or _unstorable(raw)
        if refusal:
            self.error(where, refusal)
            return False, None
        if isinstance(field, models.JSONField):
            return True, raw
        try:
            value = field.to_python(repr(raw) if isinstance(raw, float) else raw)
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
        local = kind.startswith("@")
        section = kind[1:] if local else OWN_SECTIONS[kind]
        name = singular(section) if local else kind
        if _whole(raw):
            target = self.objects.get(section, {}).get(raw)
            if target is None and raw not in self.refused.get(section, ()):
                self.error(where, f"unknown {name} id {raw}")
            return target
        if local:
            self.error(where, f"expected the id of a {name}, got {describe(raw)}")
            return None
        return self.shared_reference(where, kind, raw)

    def shared_reference(self, where: str, kind: str, raw: Any) -> Any:
        """Return the shared company, level or place that a natural key names, or None."""
        names = SHARED_KEYS[kind]
        if not isinstance(raw, dict) or set(raw) != set(names):
            self.error(
                where, f"expected a {kind} id or a shared {kind}'s name, got {describe(raw)}"
            )
            return None
        key = tuple(raw[n] for n in names)
        target = self.shared[kind].get(key) if all(isinstance(k, str) for k in key) else None
        if target is None:
            shown = raw["name"] if names == ("name",) else raw
            self.error(where, f"unknown shared {kind} {describe(shown)}")
        return target

    # Records ---------------------------------------------------------------------------

    def record(
        self, where: str, model: type[models.Model], refs: dict[str, str], raw: Any
    ) -> models.Model | None:
        if not isinstance(raw, dict):
            self.error(where, f"expected an object, got {describe(raw)}")
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
            self._errors_at(where, exc)
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
                    f"unknown time zone {describe(value)}; use an IANA name like Asia/Taipei",
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
        """Check a grant's schedule: its lists' shapes, then the engine's own rules."""
        if shape := _vesting_shape(item):
            self.error(f"{where}.{shape[0]}", shape[1])
            return
        try:
            schedule_of(item)  # type: ignore[arg-type]
        except EngineInputError as error:
            self.error(f"{where}.{_schedule_field(error.field)}", str(error.message))

    def section(self, section: Section, raw: Any) -> None:
        objects: dict[int, models.Model] = {}
        self.objects[section.key] = objects
        positions = self.positions[section.key] = {}
        refused = self.refused[section.key] = set()
        if raw is None:
            return
        if not isinstance(raw, list):
            self.error(section.key, f"expected a list, got {describe(raw)}")
            return
        for i, item in enumerate(raw):
            where = f"{section.key}[{i}]"
            local = item.get("id") if isinstance(item, dict) else None
            if not _whole(local) or local < 1:
                self.error(
                    f"{where}.id", f"expected a positive whole number, got {describe(local)}"
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
        children: dict[str, dict[int, list[int]]] = {key: {} for key in CHILDREN.values()}
        by_row = {id(p): local for local, p in self.objects["packages"].items()}
        for key, rows in children.items():
            for local, child in self.objects[key].items():
                rows.setdefault(by_row[id(child.package)], []).append(local)  # type: ignore[attr-defined]
        for local, package in self.objects["packages"].items():
            mine = {key: rows.get(local, []) for key, rows in children.items()}
            terms = rows_terms(
                package,  # type: ignore[arg-type]
                *([self.objects[key][i] for i in mine[key]] for key in CHILDREN.values()),  # type: ignore[misc]
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
                key = CHILDREN[exc.model]  # type: ignore[index]
                self._errors_at(self.where(key, mine[key][exc.index]), exc)
                continue
            except ValidationError as exc:
                self._errors_at(self.where("packages", local), exc)
                continue
            for key in CHILDREN.values():
                for i, row in zip(mine[key], getattr(built, key), strict=True):
                    self.objects[key][i] = row

    def _errors_at(self, where: str, exc: ValidationError) -> None:
        for field_name, messages in exc.message_dict.items():
            at = where if field_name == NON_FIELD_ERRORS else f"{where}.{field_name}"
            self.error(at, " ".join(messages))

    def cross_checks(self) -> None:
        for section, fields, model in UNIQUE:
            mine: set[tuple[Any, ...]] = set()
            # Replacing: the user's rows are deleted first, so none of them is a conflict.
            if model is not None and not self.replace:
                mine = set(model.objects.filter(owner=self.user).values_list(*fields))  # type: ignore[attr-defined]
            self.unique(section, fields, mine)
        for section, names, company in LEVEL_ON_LADDER:
            for local, obj in self.objects[section].items():
                for name in names:
                    at = f"{self.where(section, local)}.{name}"
                    self.same_company(at, getattr(obj, name), attrgetter(company)(obj))


def backup_check(
    *, user: AbstractBaseUser, doc: dict[str, Any], replace: bool = False
) -> BackupCheck:
    """Check every record of a parsed backup against the target user; raise BackupError.

    ``replace``: checked as if the user had no data (it is deleted before the rows are written).
    """
    backup_upgrade(doc)
    restore = BackupCheck(user, replace=replace)
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
