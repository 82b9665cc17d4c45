"""Secrets that travel in URLs, and their removal from what is logged or reported.

A calendar feed's URL (`/interviews/calendar/feed/<token>.ics`) is its only key, and a password
reset link (`/accounts/password/reset/<uid>/<token>/`) opens an account: no log line (Django's,
gunicorn's access log, Celery's) and no error report (config/sentry.py) may hold either token.
"""

from __future__ import annotations

import logging
import re

SECRET_PATHS = re.compile(r"(/calendar/feed/|/password/reset/[^/?#\s\"']+/)[^/?#\s\"']+")
REDACTED = "[redacted]"


def secret_paths_redact(text: str) -> str:
    """Return text with every calendar feed and password reset token replaced by "[redacted]"."""
    return SECRET_PATHS.sub(r"\1" + REDACTED, text)


class SecretPathFilter(logging.Filter):
    """A handler filter: a record whose message holds a feed token goes out redacted.

    On the console handler (config/settings.py LOGGING), so every logger's records pass it:
    django.request's "Not Found: <path>", a CSRF failure's warning, a 500's error line.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = secret_paths_redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True
