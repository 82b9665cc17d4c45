"""Password reset by email: its requests limited as log-ins are, its message sent in the background.

Like the log-in lock-out (`accounts.lockout`), requests are counted for the account asked for
(here its email address: `PASSWORD_RESET_LIMIT`) and for the client address alone, whatever
email it asks for (`PASSWORD_RESET_ADDRESS_LIMIT`), the address read by `accounts.client_ip`,
each over `AXES_COOLOFF_TIME`. An address over its limit is told to wait (429); an email address
over its limit gets the usual "if an account has this address, a message is on its way" page and
no message, so neither answer says whether an account exists. Counts live in the cache
(`config.cache`): with the cache unreachable, requests are not limited rather than refused.
"""

from __future__ import annotations

import enum
import hashlib
import logging

from django.conf import settings
from django.http import HttpRequest

from accounts.client_ip import client_ip
from config.cache import cache_incr

logger = logging.getLogger(__name__)


class Refusal(enum.Enum):
    """Why a reset request is not sent: too many from the client's address, or for the email."""

    ADDRESS = "address"
    EMAIL = "email"


def _key(kind: str, value: str) -> str:
    # Hashed: the cache holds no email address and no client address in clear.
    return f"password-reset:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def window_seconds() -> int:
    """Return the counting window, the log-in lock-out's cool-off (AXES_COOLOFF_TIME hours)."""
    return int(float(settings.AXES_COOLOFF_TIME) * 3600)


def reset_request_count(request: HttpRequest, email: str) -> Refusal | None:
    """Count a reset request for `email` from this client; return why it is refused, if it is."""
    window = window_seconds()
    address = client_ip(request) or "unknown"
    from_address = cache_incr(_key("address", address), timeout=window)
    if from_address is not None and from_address > settings.PASSWORD_RESET_ADDRESS_LIMIT:
        logger.warning("password reset refused: too many requests from one address")
        return Refusal.ADDRESS
    for_email = cache_incr(_key("email", email.strip().lower()), timeout=window)
    if for_email is not None and for_email > settings.PASSWORD_RESET_LIMIT:
        logger.warning("password reset not sent: too many requests for one email address")
        return Refusal.EMAIL
    return None
