"""Writes: the user's own companies, levels, bands, FX rates, places and packages.

The bands' CSV import is `compensation.band_import`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.fields import fields_assign
from accounts.history import object_trash, revision_record
from accounts.locking import save_if_unchanged
from accounts.models import Revision
from compensation import engine
from compensation.models import Band, Company, FxRate, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from compensation.selectors import bonus_cycle_of, schedule_of, sign_on_of
from compensation.terms import (
    GRANT_FIELDS,
    REFRESHER_FIELDS,
    SIGN_ON_FIELDS,
    TERM_FIELDS,
    VESTING_FIELDS,
    PackageTerms,
)


def _own_fields(model: type[models.Model]) -> tuple[str, ...]:
    """Return the fields of the user's own rows of ``model`` that its form edits and its service
    writes: every editable one, in the model's order, but the owner."""
    skip = {"id", "owner"}
    return tuple(f.name for f in model._meta.concrete_fields if f.editable and f.name not in skip)


COMPANY_FIELDS = _own_fields(Company)
BAND_FIELDS = _own_fields(Band)  # also the bands CSV's columns, after the company
Own = TypeVar("Own", bound=models.Model)  # a row with an owner
# The package's identity, then its terms (`compensation.terms.TERM_FIELDS`).
PACKAGE_FIELDS = ("name", "company", "is_current_job", *TERM_FIELDS)


def _check_visible(user: AbstractBaseUser, owner_id: Any, what: str) -> None:
    if owner_id is not None and owner_id != user.pk:
        raise ValidationError(
            {what: _("Choose one of your own or a shared %(what)s.") % {"what": what}}
        )


def _own_saved(
    user: AbstractBaseUser,
    obj: Own,
    fields: Mapping[str, Any],
    allowed: Sequence[str],
    what: str,
    check: Callable[[AbstractBaseUser, Own], None] | None = None,
) -> Own:
    """Save one of the user's own rows with ``fields`` (of ``allowed``), checked.

    ``check`` runs before the model's checks; another user's or a shared row raises
    PermissionError ("not your <what>").
    """
    if obj.owner_id != user.pk:  # type: ignore[attr-defined]
        raise PermissionError(f"not your {what}")
    fields_assign(obj, fields, allowed)
    if check is not None:
        check(user, obj)
    obj.full_clean()
    obj.save()
    return obj


# Companies and levels --------------------------------------------------------------------


@transaction.atomic
def company_create(*, user: AbstractBaseUser, **fields: Any) -> Company:
    """Create one of the user's own companies."""
    return _own_saved(user, Company(owner=user), fields, COMPANY_FIELDS, "company")


@transaction.atomic
def company_update(*, user: AbstractBaseUser, company: Company, **fields: Any) -> Company:
    """Change one of the user's own companies (shared ones are read-only)."""
    return _own_saved(user, company, fields, COMPANY_FIELDS, "company")


@transaction.atomic
def level_create(
    *,
    user: AbstractBaseUser,
    company: Company,
    code: str,
    order: int,
    title: str = "",
    equivalence: int | None = None,
) -> Level:
    """Add a rung to the ladder of one of the user's own companies."""
    if company.owner_id != user.pk:
        raise PermissionError("not your company")
    level = Level(company=company, code=code, order=order, title=title, equivalence=equivalence)
    level.full_clean()
    level.save()
    return level


# Bands -----------------------------------------------------------------------------------


def _check_band(user: AbstractBaseUser, band: Band) -> None:
    _check_visible(user, band.level.company.owner_id, "level")


@transaction.atomic
def band_create(*, user: AbstractBaseUser, **fields: Any) -> Band:
    """Create one of the user's own bands (for a shared or own company's level)."""
    return _own_saved(user, Band(owner=user), fields, BAND_FIELDS, "band", _check_band)


@transaction.atomic
def band_update(*, user: AbstractBaseUser, band: Band, **fields: Any) -> Band:
    """Change one of the user's own bands."""
    return _own_saved(user, band, fields, BAND_FIELDS, "band", _check_band)


@transaction.atomic
def band_delete(*, user: AbstractBaseUser, band: Band) -> Revision:
    """Move one of the user's own bands to the trash."""
    if band.owner_id != user.pk:
        raise PermissionError("not your band")
    return object_trash(user=user, obj=band)


# FX rates and location presets -----------------------------------------------------------


FX_FIELDS = _own_fields(FxRate)


def _check_fx(user: AbstractBaseUser, fx: FxRate) -> None:
    fx.currency, fx.to_currency = fx.currency.upper(), fx.to_currency.upper()
    if fx.currency == fx.to_currency:
        raise ValidationError({"to_currency": _("Choose two different currencies.")})


@transaction.atomic
def fx_rate_create(
    *, user: AbstractBaseUser, currency: str, to_currency: str, rate: Decimal, as_of: dt.date
) -> FxRate:
    """Create one of the user's own exchange rates."""
    fields = {"currency": currency, "to_currency": to_currency, "rate": rate, "as_of": as_of}
    return _own_saved(user, FxRate(owner=user), fields, FX_FIELDS, "rate", _check_fx)


@transaction.atomic
def fx_rate_update(*, user: AbstractBaseUser, fx: FxRate, **fields: Any) -> FxRate:
    """Change one of the user's own exchange rates."""
    return _own_saved(user, fx, fields, FX_FIELDS, "rate", _check_fx)


LOCATION_FIELDS = ("name", "currency", "tax_regime", "effective_tax_pct", "time_zone")


@transaction.atomic
def location_create(*, user: AbstractBaseUser, **fields: Any) -> LocationPreset:
    """Create one of the user's own location presets."""
    return _own_saved(user, LocationPreset(owner=user), fields, LOCATION_FIELDS, "location")


@transaction.atomic
def location_update(
    *, user: AbstractBaseUser, location: LocationPreset, **fields: Any
) -> LocationPreset:
    """Change one of the user's own location presets."""
    return _own_saved(user, location, fields, LOCATION_FIELDS, "location")


# Packages --------------------------------------------------------------------------------


def _check_package_refs(user: AbstractBaseUser, package: Package) -> None:
    company, level = package.company, package.level
    if company is not None:
        _check_visible(user, company.owner_id, "company")
    if level is not None:
        _check_visible(user, level.company.owner_id, "level")
        # Unsaved rows (a restore's) have no ids yet: the same company is the same object.
        same = level.company is company or (
            company is not None and company.pk is not None and level.company_id == company.pk
        )
        if company is not None and not same:
            raise ValidationError({"level": _("Choose a level of the package's company.")})
    if package.location is not None:
        _check_visible(user, package.location.owner_id, "location")


def _check_bonus(package: Package) -> None:
    """Refuse bonus timing the engine cannot use (a cut-off day its month lacks...)."""
    if (package.bonus_cutoff_month is None) != (package.bonus_cutoff_day is None):
        raise ValidationError(
            {"bonus_cutoff_day": _("Give both the cut-off month and day, or neither.")}
        )
    try:
        bonus_cycle_of(package)
    except engine.EngineInputError as error:
        name = "bonus_cutoff_day" if error.field.startswith("cutoff") else "bonus_cycle"
        raise ValidationError({name: error.message}) from None


def _check_sign_on(item: SignOn) -> None:
    try:
        sign_on_of(item)
    except engine.EngineInputError as error:
        name = "clawback_kind" if error.field == "clawback_kind" else "instalments"
        raise ValidationError({name: error.message}) from None


def _check_schedule(item: EquityGrant | Refresher) -> None:
    try:
        schedule_of(item)
    except engine.EngineInputError as error:
        name = error.field if error.field in VESTING_FIELDS else "weights"
        if error.field in ("year_weights", "total_months"):
            name = "weights"
        raise ValidationError({name: error.message}) from None


# A package's children: their key in the terms' rows, their model, the fields their writer takes.
CHILDREN: tuple[tuple[str, type[models.Model], tuple[str, ...]], ...] = (
    ("sign_ons", SignOn, SIGN_ON_FIELDS),
    ("grants", EquityGrant, GRANT_FIELDS),
    ("refreshers", Refresher, REFRESHER_FIELDS),
)
Rows = Sequence[Mapping[str, Any]]


def _sync_children(package: Package, given: Mapping[str, Rows | None]) -> None:
    """Make each kind of the package's children exactly its rows (with "id" to keep one).

    A kind given as None stays as it is.
    """
    for key, model, allowed in CHILDREN:
        rows = given[key]
        if rows is None:
            continue
        existing = {obj.pk: obj for obj in model._default_manager.filter(package=package)}
        for index, row in enumerate(rows):
            values = dict(row)
            pk = values.pop("id", None)
            obj = existing.pop(pk, None) if pk is not None else None
            if obj is None:
                obj = model(package=package)
            _child_checked(obj, index, values, allowed)
            obj.save()
        for obj in existing.values():
            obj.delete()


def _child_checked(
    obj: models.Model,
    index: int,
    values: Mapping[str, Any],
    allowed: Sequence[str],
    constraints: bool = True,
) -> None:
    """Set a sign-on, grant or refresher row's values and check them as every writer does."""
    fields_assign(obj, values, allowed)
    try:
        if isinstance(obj, EquityGrant | Refresher):
            _check_schedule(obj)
        elif isinstance(obj, SignOn):
            _check_sign_on(obj)
        obj.full_clean(exclude=["package"], validate_constraints=constraints)
    except ValidationError as error:
        raise ChildValidationError(type(obj), index, error) from None


def _package_checked(
    user: AbstractBaseUser,
    package: Package,
    fields: Mapping[str, Any],
    exclude: Sequence[str] = (),
    constraints: bool = True,
) -> None:
    """Set a package's fields and check them as every writer does (nothing saved)."""
    fields_assign(package, fields, PACKAGE_FIELDS)
    _check_package_refs(user, package)
    package.full_clean(exclude=list(exclude) or None, validate_constraints=constraints)
    _check_bonus(package)


class ChildValidationError(ValidationError):
    """A sign-on, grant or refresher row is invalid; ``index`` says which."""

    def __init__(self, model: type[models.Model], index: int, error: ValidationError) -> None:
        super().__init__(error.error_dict if hasattr(error, "error_dict") else error.error_list)
        self.model = model
        self.index = index


def _children(package: Package) -> list[models.Model]:
    return [
        obj for _, model, _ in CHILDREN for obj in model._default_manager.filter(package=package)
    ]


@transaction.atomic
def package_create(
    *,
    user: AbstractBaseUser,
    fields: Mapping[str, Any],
    sign_ons: Rows = (),
    grants: Rows = (),
    refreshers: Rows = (),
    record: bool = True,
) -> Package:
    """Create a package with its sign-ons, grants and refreshers; record a revision.

    ``record=False`` when the caller records one that holds the package (an offer's).
    """
    package = Package(owner=user)
    _package_checked(user, package, fields)
    package.save()
    _sync_children(package, {"sign_ons": sign_ons, "grants": grants, "refreshers": refreshers})
    if record:
        revision_record(
            user=user, obj=package, action=Revision.Action.CREATED, children=_children(package)
        )
    return package


@transaction.atomic
def package_update(
    *,
    user: AbstractBaseUser,
    package: Package,
    expected_version: int,
    fields: Mapping[str, Any],
    sign_ons: Rows | None = None,
    grants: Rows | None = None,
    refreshers: Rows | None = None,
    record: bool = True,
) -> Package:
    """Save a package and its children if nobody changed it since ``expected_version``.

    Children given as None stay as they are. Raises StaleEditError (nothing written) when
    the stored version moved on, and ValidationError / ChildValidationError for invalid
    input. Records a revision unless ``record=False`` (the caller records one that holds
    the package, as an offer's does).
    """
    if package.owner_id != user.pk:
        raise PermissionError("not your package")
    _package_checked(user, package, fields, exclude=["version"])
    package.updated_at = timezone.now()
    save_if_unchanged(
        package, expected_version=expected_version, fields=[*PACKAGE_FIELDS, "updated_at"]
    )
    _sync_children(package, {"sign_ons": sign_ons, "grants": grants, "refreshers": refreshers})
    if record:
        revision_record(
            user=user, obj=package, action=Revision.Action.CHANGED, children=_children(package)
        )
    return package


def _terms_rows(terms: PackageTerms) -> dict[str, list[dict[str, Any]]]:
    """Return the children rows of terms as the package service takes them."""
    return {key: [row.fields() for row in getattr(terms, key)] for key, _, _ in CHILDREN}


@dataclass
class PackageRows:
    """A package and its children, built from terms and checked, not yet saved."""

    package: Package
    sign_ons: list[SignOn]
    grants: list[EquityGrant]
    refreshers: list[Refresher]


def package_rows_build(
    *,
    user: AbstractBaseUser,
    terms: PackageTerms,
    identity: Mapping[str, Any],
    package: Package | None = None,
    constraints: bool = True,
) -> PackageRows:
    """Return the unsaved rows that hold ``terms``, checked as `package_terms_write` checks them.

    The writer's own steps (the same fields from the terms, the same checks, the same errors:
    ValidationError, ChildValidationError with the child's index), for a caller that saves
    many packages at once: a restore builds each package of a backup through it, so a
    restored package is what the same terms written by a form would be. ``package`` fills a
    row the caller already holds (others refer to it) instead of a new one.
    ``constraints=False`` leaves the models' check constraints to the database (a query per
    constraint and row: a bulk caller's inserts meet them in its own transaction).
    """
    package = package if package is not None else Package(owner=user)
    _package_checked(user, package, {**terms.fields(), **identity}, constraints=constraints)
    rows = _terms_rows(terms)
    built: dict[str, list[Any]] = {}
    for key, model, allowed in CHILDREN:
        built[key] = []
        for index, row in enumerate(rows[key]):
            values = dict(row)
            values.pop("id", None)
            obj = model(package=package)
            _child_checked(obj, index, values, allowed, constraints)
            built[key].append(obj)
    return PackageRows(package=package, **built)


def package_terms_create(
    *,
    user: AbstractBaseUser,
    terms: PackageTerms,
    identity: Mapping[str, Any],
    record: bool = True,
) -> Package:
    """Create a package holding ``terms`` (``identity``: its name, company, current-job flag).

    `package_terms_write`'s twin for a new package: an option added with its terms.
    """
    return package_create(
        user=user, fields={**terms.fields(), **identity}, **_terms_rows(terms), record=record
    )


def package_terms_write(
    *,
    user: AbstractBaseUser,
    package: Package,
    expected_version: int,
    terms: PackageTerms,
    identity: Mapping[str, Any] | None = None,
    record: bool = True,
) -> Package:
    """Make ``terms`` the package's terms if nobody changed it since ``expected_version``.

    The one writer of terms: a scenario accepted, a negotiation answer, an offer's edit write
    through it what `compensation.terms.apply_change` computed in memory; ``identity`` changes
    the package's name, company or current-job flag with them (see `package_update` for the
    errors it raises).
    """
    return package_update(
        user=user,
        package=package,
        expected_version=expected_version,
        fields={**terms.fields(), **(identity or {})},
        **_terms_rows(terms),
        record=record,
    )
