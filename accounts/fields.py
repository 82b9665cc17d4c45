"""Copy validated form values onto a model instance, only for the fields a service allows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import models


def fields_assign(
    obj: models.Model, values: Mapping[str, Any], allowed: Iterable[str]
) -> list[str]:
    """Set each allowed value on `obj` and return the names set, in the order given.

    A foreign key may be allowed by name or by column ("level" or "level_id"). A name that
    is not allowed raises TypeError: a value never reaches a writer only to be dropped (a
    form's controls stay out by `accounts.forms.model_values`).
    """
    allowed_set = set(allowed)
    unknown = [k for k in values if k not in allowed_set and f"{k}_id" not in allowed_set]
    if unknown:
        raise TypeError(f"unexpected fields: {sorted(unknown)}")
    for name, value in values.items():
        setattr(obj, name, value)
    return list(values)
