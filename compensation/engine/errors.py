"""Errors raised by the compensation engine."""

from __future__ import annotations

import datetime
import math
from typing import Any, TypeVar

T = TypeVar("T")


class EngineInputError(ValueError):
    """Invalid engine input; ``field`` names the offending input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def with_prefix(self, prefix: str) -> EngineInputError:
        """Return a copy whose field is nested under ``prefix``."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        if self.field.startswith("["):
            field = f"{prefix}{self.field}"
        return EngineInputError(field, self.message)


def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    exclusive_minimum: bool = False,
) -> float:
    """Return ``value`` as a float or raise if it is not a finite number in range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EngineInputError(field, f"must be a number (got {value!r})")
    number = float(value)
    if not math.isfinite(number):
        raise EngineInputError(field, f"must be finite (got {value!r})")
    if minimum is not None:
        if exclusive_minimum and number <= minimum:
            raise EngineInputError(field, f"must be greater than {minimum:g} (got {value!r})")
        if not exclusive_minimum and number < minimum:
            raise EngineInputError(field, f"must be at least {minimum:g} (got {value!r})")
    if maximum is not None and number > maximum:
        raise EngineInputError(field, f"must be at most {maximum:g} (got {value!r})")
    return number


def check_kind(field: str, value: object, kind: type[T]) -> T:
    """Return ``value`` or raise if it is not a ``kind`` (one of the engine's dataclasses)."""
    if not isinstance(value, kind):
        raise EngineInputError(field, f"must be a {kind.__name__} (got {value!r})")
    return value


def check_date(field: str, value: Any) -> datetime.date:
    """Return ``value`` or raise if it is not a date (a datetime is not one)."""
    if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
        raise EngineInputError(field, f"must be a date (got {value!r})")
    return value


def check_int(
    field: str, value: Any, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Return ``value`` as an int or raise if it is not a whole number in range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise EngineInputError(field, f"must be a whole number (got {value!r})")
    if isinstance(value, float) and not value.is_integer():
        raise EngineInputError(field, f"must be a whole number (got {value!r})")
    number = int(value)
    if minimum is not None and number < minimum:
        raise EngineInputError(field, f"must be at least {minimum} (got {value!r})")
    if maximum is not None and number > maximum:
        raise EngineInputError(field, f"must be at most {maximum} (got {value!r})")
    return number
