"""A pluggable gettext for the pure logic: identity until the web app installs Django's.

The logic modules stay free of Django; ``offers.apps.OffersConfig.ready`` installs
``django.utils.translation.gettext`` so user-facing texts follow the active language.
"""

from __future__ import annotations

from collections.abc import Callable


def _identity(message: str) -> str:
    """Return the message unchanged."""
    return message


_translator: Callable[[str], str] = _identity


def install(translator: Callable[[str], str]) -> None:
    """Use translator for every later gettext call."""
    global _translator
    _translator = translator


def gettext(message: str) -> str:
    """Return message translated by the installed translator."""
    return _translator(message)


def gettext_noop(message: str) -> str:
    """Return message unchanged: marks a message id to translate later, when it is read."""
    return message
