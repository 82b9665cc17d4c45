"""A pluggable gettext and date format for the pure logic: identity and ISO until the web app
installs Django's.

The logic modules stay free of Django; ``offers.apps.OffersConfig.ready`` installs
``django.utils.translation.gettext`` so user-facing texts follow the active language, and
Django's ``DATE_FORMAT`` so a day in a sentence reads as every page writes it (15 Dec 2026,
2026年12月15日: config/formats).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date


def gettext_noop(message: str) -> str:
    """Return message unchanged: marks a message id to translate later, when it is read."""
    return message


_translator: Callable[[str], str] = gettext_noop


def install(translator: Callable[[str], str]) -> None:
    """Use translator for every later gettext call."""
    global _translator
    _translator = translator


def gettext(message: str) -> str:
    """Return message translated by the installed translator."""
    return _translator(message)


_date_formatter: Callable[[date], str] = date.isoformat


def install_date_format(formatter: Callable[[date], str]) -> None:
    """Use formatter for every later date_words call."""
    global _date_formatter
    _date_formatter = formatter


def date_words(day: date) -> str:
    """Return a day as a sentence says it, in the active language's house format."""
    return _date_formatter(day)


def and_words(items: Sequence[str]) -> str:
    """Return 'a', 'a and b' or 'a, b and c' in the active language ("a、b及c")."""
    if len(items) <= 1:
        return "".join(items)
    return gettext("{items} and {last}").format(
        items=gettext(", ").join(items[:-1]), last=items[-1]
    )
