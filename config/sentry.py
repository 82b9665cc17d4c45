"""Error reporting to Sentry, only when SENTRY_DSN is set, with personal data left out.

Salaries and offers live in request bodies, cookies, local variables and the user: none of
them is sent. ``event_scrub`` runs on every event as a last guard.
"""

from __future__ import annotations

from typing import Any

from config.redact import secret_paths_redact

# Request headers that may carry a session, a password or an address.
SENSITIVE_HEADERS = {"cookie", "authorization", "x-forwarded-for", "x-real-ip", "referer"}


def _redact_url(url: Any) -> Any:
    # A calendar feed's URL holds its secret token: it never leaves in an event.
    return secret_paths_redact(url) if isinstance(url, str) else url


def event_scrub(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """Strip request data, cookies, query strings, the user and secret URLs from an event."""
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("data", "cookies", "query_string", "env"):
            request.pop(key, None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {
                k: v for k, v in headers.items() if k.lower() not in SENSITIVE_HEADERS
            }
        if "url" in request:
            request["url"] = _redact_url(request["url"])
    event.pop("user", None)
    if "transaction" in event:
        event["transaction"] = _redact_url(event["transaction"])
    breadcrumbs = event.get("breadcrumbs")
    values = breadcrumbs.get("values") if isinstance(breadcrumbs, dict) else breadcrumbs
    for crumb in values or []:
        if isinstance(crumb, dict):
            crumb.pop("data", None)
            if "message" in crumb:
                crumb["message"] = _redact_url(crumb["message"])
    return event


def sentry_options(
    *, dsn: str, environment: str, release: str, traces_sample_rate: float
) -> dict[str, Any]:
    """Return the keyword arguments of ``sentry_sdk.init``: personal data off."""
    return {
        "dsn": dsn,
        "environment": environment or None,
        "release": release or None,
        "send_default_pii": False,
        "max_request_body_size": "never",
        "include_local_variables": False,
        "include_source_context": True,
        "before_send": event_scrub,
        "before_send_transaction": event_scrub,
        "traces_sample_rate": traces_sample_rate,
    }


def sentry_init(*, dsn: str, environment: str = "", release: str = "", traces: float = 0.0) -> bool:
    """Start error reporting if a DSN is given; return whether it started."""
    if not dsn:
        return False
    import sentry_sdk

    sentry_sdk.init(
        **sentry_options(
            dsn=dsn, environment=environment, release=release, traces_sample_rate=traces
        )
    )
    return True
