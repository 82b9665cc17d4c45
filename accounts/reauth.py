"""Ask for the password again before exporting, backing up, restoring or deleting data.

A password typed within REAUTH_SECONDS (10 minutes) counts: at log-in, at sign-up, on the
password-change form or at the re-authentication prompt.
"""

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


View = Callable[..., HttpResponse]


def reauth_required(view: View | None = None, *, return_to: str | None = None) -> Any:
    """Redirect to the password prompt unless the user re-authenticated recently.

    After the prompt the user comes back to the same URL, or to the page named ``return_to``
    for a view that only takes POST (the form that posted to it).
    """

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not recently_reauthenticated(request):
                back = reverse(return_to) if return_to else request.path
                return redirect(reverse("reauth") + "?" + urlencode({"next": back}))
            return view(request, *args, **kwargs)

        return wrapper

    return decorate(view) if view is not None else decorate
