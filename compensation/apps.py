from __future__ import annotations

from django.apps import AppConfig


class CompensationConfig(AppConfig):
    name = "compensation"
    verbose_name = "Compensation"
