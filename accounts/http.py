"""Answer a request for another user's object with 404 before any 405 for its method."""

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
