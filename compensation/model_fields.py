"""What the compensation models' fields share: money and percentage sizes, checks, defaults."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MinValueValidator, RegexValidator
from django.utils.translation import gettext_lazy as _

currency_validator = RegexValidator(r"^[A-Z]{3}$", _("Use a three-letter ISO 4217 code, e.g. USD."))
MONEY = {"max_digits": 14, "decimal_places": 2}
PCT = {"max_digits": 7, "decimal_places": 3}
NON_NEGATIVE = [MinValueValidator(Decimal("0"))]


def default_weights() -> list[float]:
    """Return even 25/25/25/25 yearly vesting weights."""
    return [25.0, 25.0, 25.0, 25.0]
