"""Form widgets shared by the apps: a searchable time-zone input and a level select."""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any

from django import forms


@cache
def timezone_names() -> tuple[str, ...]:
    """Return the IANA zone names a person picks from: UTC, then Region/City alphabetically."""
    names = sorted(
        n
        for n in zoneinfo.available_timezones()
        if "/" in n and not n.startswith(("Etc/", "SystemV/"))
    )
    return ("UTC", *names)


class TimezoneInput(forms.TextInput):
    """A text input with the IANA zones as suggestions: typing "taip" suggests Asia/Taipei."""

    template_name = "forms/widgets/timezone.html"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(
            attrs={
                "autocomplete": "off",
                "spellcheck": "false",
                "data-tz-picker": "",
                **(attrs or {}),
            }
        )

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        widget = context["widget"]
        widget["list_id"] = f"{widget['attrs'].get('id') or name}-zones"
        widget["attrs"]["list"] = widget["list_id"]
        widget["zones"] = timezone_names()
        return context


class LevelSelect(forms.Select):
    """A select of levels whose options carry their company (data-company) for filtering."""

    def create_option(
        self, name: str, value: Any, label: Any, selected: Any, index: int, **kwargs: Any
    ) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, **kwargs)
        instance = getattr(value, "instance", None)
        if instance is not None:
            option["attrs"]["data-company"] = str(instance.company_id)
        return option

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"]["data-levels-of"] = "company"
        return context
