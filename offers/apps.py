from __future__ import annotations

from collections.abc import Callable
from datetime import date

from django.apps import AppConfig


def _remembered_gettext() -> Callable[[str], str]:
    """Return Django's gettext remembering each (language, message id) it translated.

    Ranking a thousand options, and the weight sensitivity's re-rankings, ask for the same few
    explanation templates tens of thousands of times; Django's lookup costs more than the rest.
    """
    from django.utils.translation import get_language, gettext

    known: dict[tuple[str | None, str], str] = {}

    def translate(message: str) -> str:
        key = (get_language(), message)
        text = known.get(key)
        if text is None:
            text = known[key] = gettext(message)
        return text

    return translate


def _house_date(day: date) -> str:
    """Return a day in the active language's DATE_FORMAT (config/formats)."""
    from django.utils import formats

    return formats.date_format(day, "DATE_FORMAT")


class OffersConfig(AppConfig):
    name = "offers"
    verbose_name = "Offers"

    def ready(self) -> None:
        from offers.logic import i18n

        i18n.install(_remembered_gettext())
        i18n.install_date_format(_house_date)

        from offers import board_cache

        board_cache.connect()
