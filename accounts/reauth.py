"""Ask for the password again before exporting or deleting all of a user's data."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

REAUTH_KEY = "offerdesk_reauth_at"


def mark_reauthenticated(request: HttpRequest) -> None:
    """Record that the user has just typed their password."""
    request.session[REAUTH_KEY] = time.time()


def recently_reauthenticated(request: HttpRequest) -> bool:
    """Return True if the password was typed within REAUTH_SECONDS."""
    stamp = request.session.get(REAUTH_KEY)
    return stamp is not None and time.time() - float(stamp) < settings.REAUTH_SECONDS


def reauth_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Redirect to the password prompt unless the user re-authenticated recently."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not recently_reauthenticated(request):
            return redirect(reverse("reauth") + "?" + urlencode({"next": request.path}))
        return view(request, *args, **kwargs)

    return wrapper
