"""Answer a request for another user's object with 404 before any 405 for its method."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed


def method_refused(request: HttpRequest, *allowed: str) -> HttpResponseNotAllowed | None:
    """Return a 405 unless the request uses one of `allowed` (GET allows HEAD too).

    Call it after the owner lookup: another user's id is then a 404 whatever the method,
    so a 405 never tells that an id exists.
    """
    methods = set(allowed) | ({"HEAD"} if "GET" in allowed else set())
    if request.method in methods:
        return None
    return HttpResponseNotAllowed(list(allowed))


def lookup_first(
    view: Callable[..., HttpResponse], lookup: Callable[..., Any]
) -> Callable[..., HttpResponse]:
    """Wrap a method-restricted view so that the owner lookup (404 for others) runs first."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, pk: int) -> HttpResponse:
        lookup(user=request.user, pk=pk)
        return view(request, pk=pk)

    return wrapped
