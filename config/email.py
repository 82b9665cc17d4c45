"""Django's email settings from one ``EMAIL_URL`` (or Django's own ``EMAIL_HOST`` settings).

``EMAIL_URL`` schemes: ``smtp://user:password@host:25`` (plain), ``smtp+tls://...:587``
(STARTTLS, the usual submission port), ``smtps://...:465`` (TLS from the start), and
``console://`` (each message written to the log: the default), ``locmem://`` (kept in memory,
for tests), ``dummy://`` (dropped). User name and password are URL-quoted (``%40`` for ``@``).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from django.core.exceptions import ImproperlyConfigured

BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtp+tls": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
}
DEFAULT_PORTS = {"smtp": 25, "smtp+tls": 587, "smtps": 465}


def email_settings(url: str, *, host: str = "") -> dict[str, Any]:
    """Return EMAIL_* settings for `url`; with no URL, SMTP to `host` if given, else console."""
    if not url:
        return {"EMAIL_BACKEND": BACKENDS["smtp" if host else "console"]}
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in BACKENDS:
        raise ImproperlyConfigured(
            f"EMAIL_URL: unknown scheme {scheme!r}; use one of {', '.join(sorted(BACKENDS))}."
        )
    found: dict[str, Any] = {"EMAIL_BACKEND": BACKENDS[scheme]}
    if scheme not in DEFAULT_PORTS:
        return found
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL: no host name, e.g. smtp+tls://user:pw@host:587")
    found.update(
        EMAIL_HOST=parts.hostname,
        EMAIL_PORT=parts.port or DEFAULT_PORTS[scheme],
        EMAIL_HOST_USER=urllib.parse.unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=urllib.parse.unquote(parts.password or ""),
        EMAIL_USE_TLS=scheme == "smtp+tls",
        EMAIL_USE_SSL=scheme == "smtps",
    )
    return found
