"""Request helpers every app's views share: the method check after the owner lookup, htmx."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseNotAllowed


def method_refused(request: HttpRequest, *allowed: str) -> HttpResponseNotAllowed | None:
    """Return a 405 unless the request uses one of `allowed` (GET allows HEAD too).

    Call it after the owner lookup: another user's id is then a 404 whatever the method,
    so a 405 never tells that an id exists.
    """
    methods = set(allowed) | ({"HEAD"} if "GET" in allowed else set())
    if request.method in methods:
        return None
    return HttpResponseNotAllowed(list(allowed))


def is_htmx(request: HttpRequest) -> bool:
    """Return whether htmx sent the request (django_htmx's middleware sets ``request.htmx``)."""
    return bool(getattr(request, "htmx", False))
