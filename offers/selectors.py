"""Reads for offers: options with their packages, scenarios and preferences (no valuation here)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from offers.models import Offer, Preferences, Scenario


def preferences_get(*, user: AbstractBaseUser) -> Preferences:
    """Return the user's preferences, or unsaved defaults (a read never writes)."""
    prefs = Preferences.objects.filter(owner=user).first()
    return prefs if prefs is not None else Preferences(owner=user)


def offer_list(*, user: AbstractBaseUser) -> QuerySet[Offer]:
    """Return the user's options with everything needed to evaluate them."""
    return (
        Offer.objects.filter(owner=user)
        .select_related(
            "target_level",
            "process",
            "process__target_level",
            "package",
            "package__company",
            "package__location",
            "package__level",
        )
        .prefetch_related("package__sign_ons", "package__grants", "package__refreshers")
        .order_by("name", "id")
    )


def offer_get(*, user: AbstractBaseUser, pk: int) -> Offer:
    """Return one of the user's options or 404."""
    return get_object_or_404(offer_list(user=user), pk=pk)


def scenario_list(*, user: AbstractBaseUser) -> QuerySet[Scenario]:
    """Return the user's scenarios with their offers."""
    return Scenario.objects.filter(owner=user).select_related("offer", "offer__package", "level")


def scenario_get(*, user: AbstractBaseUser, pk: int) -> Scenario:
    """Return one of the user's scenarios or 404."""
    return get_object_or_404(scenario_list(user=user), pk=pk)


def scenario_list_by_option(*, user: AbstractBaseUser) -> QuerySet[Scenario]:
    """Return the user's scenarios by option name, then name (the comparison export's order)."""
    return scenario_list(user=user).order_by("offer__name", "name", "id")
