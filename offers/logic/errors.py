"""Errors raised by the pure offer logic."""

from __future__ import annotations


class LogicInputError(ValueError):
    """Invalid input to the offer logic, naming the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
