"""Querysets and gets of companies, levels, bands, FX rates, places and packages, by owner."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from django.contrib.auth.models import User
from django.db.models import F, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from compensation.models import Band, Company, FxRate, Level, LocationPreset, Package

Named = TypeVar("Named", Company, LocationPreset)


def _visible(user: User, prefix: str = "") -> Q:
    """Return a filter for shared rows and the user's own rows."""
    return Q(**{f"{prefix}owner__isnull": True}) | Q(**{f"{prefix}owner": user})


def _by_name(rows: QuerySet[Named]) -> dict[str, Named]:
    """Return rows by case-folded name, a user's own over a shared one of the same name."""
    ordered = rows.order_by(F("owner").asc(nulls_first=True), "id")
    return {row.name.casefold(): row for row in ordered}


def company_list(*, user: User) -> QuerySet[Company]:
    """Return shared companies and the user's own, with their ladders."""
    return (
        Company.objects.filter(_visible(user))
        .prefetch_related(Prefetch("levels", queryset=Level.objects.order_by("order")))
        .order_by("name", "id")
    )


def companies_by_name(*, user: User) -> dict[str, Company]:
    """Return the companies the user sees by case-folded name (their own wins over a shared one).

    What an import matches a typed company name against.
    """
    return _by_name(Company.objects.filter(_visible(user)))


def levels_by_code(companies: Iterable[Company]) -> dict[tuple[int, str], Level]:
    """Return the companies' levels by (company id, case-folded code), each with its company."""
    return {
        (level.company_id, level.code.casefold()): level
        for level in Level.objects.filter(company__in=list(companies)).select_related("company")
    }


def company_get(*, user: User, pk: int) -> Company:
    """Return a shared or own company with its ladder and the bands the user may see."""
    bands = band_list(user=user).order_by("level__order", "currency", "location", "-as_of")
    levels = Level.objects.order_by("order").prefetch_related(Prefetch("bands", queryset=bands))
    qs = Company.objects.filter(_visible(user)).prefetch_related(
        Prefetch("levels", queryset=levels)
    )
    return get_object_or_404(qs, pk=pk)


def company_get_own(*, user: User, pk: int) -> Company:
    """Return one of the user's own companies (shared ones are read-only: 404)."""
    return get_object_or_404(Company, owner=user, pk=pk)


def level_list(*, user: User) -> QuerySet[Level]:
    """Return the levels of every company the user can see."""
    return Level.objects.filter(_visible(user, "company__")).select_related("company")


def band_list(*, user: User, level: Level | None = None) -> QuerySet[Band]:
    """Return the shared and own bands of companies the user can see."""
    qs = Band.objects.filter(_visible(user), _visible(user, "level__company__")).select_related(
        "level__company"
    )
    if level is not None:
        qs = qs.filter(level=level)
    return qs


def band_get_own(*, user: User, pk: int) -> Band:
    """Return one of the user's own bands (shared bands are read-only: 404)."""
    return get_object_or_404(Band.objects.select_related("level__company"), owner=user, pk=pk)


def fx_list(*, user: User) -> QuerySet[FxRate]:
    """Return the shared and own exchange rates."""
    return FxRate.objects.filter(_visible(user))


def fx_get_own(*, user: User, pk: int) -> FxRate:
    """Return one of the user's own exchange rates."""
    return get_object_or_404(FxRate, owner=user, pk=pk)


def location_list(*, user: User) -> QuerySet[LocationPreset]:
    """Return the shared and own location presets."""
    return LocationPreset.objects.filter(_visible(user)).order_by("name", "id")


def locations_by_name(*, user: User) -> dict[str, LocationPreset]:
    """Return the location presets the user sees by case-folded name (their own wins)."""
    return _by_name(LocationPreset.objects.filter(_visible(user)))


def location_get_own(*, user: User, pk: int) -> LocationPreset:
    """Return one of the user's own location presets."""
    return get_object_or_404(LocationPreset, owner=user, pk=pk)


def package_list(*, user: User) -> QuerySet[Package]:
    """Return the user's packages with everything `package_to_spec` reads."""
    return (
        Package.objects.filter(owner=user)
        .select_related("company", "level__company", "location")
        .prefetch_related("sign_ons", "grants", "refreshers")
        .order_by("name", "id")
    )


def package_get(*, user: User, pk: int) -> Package:
    """Return one of the user's packages with its sign-ons, grants and refreshers."""
    return get_object_or_404(package_list(user=user), pk=pk)
