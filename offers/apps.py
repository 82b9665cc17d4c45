from __future__ import annotations

from django.apps import AppConfig


class OffersConfig(AppConfig):
    name = "offers"
    verbose_name = "Offers"

    def ready(self) -> None:
        from django.utils.translation import gettext

        from offers.logic import i18n

        i18n.install(gettext)

        from offers import board_cache

        board_cache.connect()
