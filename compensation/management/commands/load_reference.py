"""Load the shared reference data a new install needs (compensation/reference.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Create or refresh the shared places with their tax rules, companies with their level "
        "ladders and FX rates. Idempotent; creates no user (README, Production)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        from compensation import reference

        loaded = reference.load_reference()
        self.stdout.write(
            self.style.SUCCESS(
                f"Reference data ready: {len(loaded['locations'])} places, "
                f"{len(loaded['companies'])} companies with {len(loaded['levels'])} levels, "
                f"{len(loaded['fx_rates'])} FX rates as of {reference.FX_AS_OF.isoformat()}, "
                f"source: {reference.FX_SOURCE}."
            )
        )
