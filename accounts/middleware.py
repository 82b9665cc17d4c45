"""Session lifetime and caching rules for signed-in users."""

from __future__ import annotations

import time
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from config.middleware import Middleware

SESSION_STARTED = "offerdesk_started"
SESSION_SEEN = "offerdesk_seen"


class SessionTimeoutMiddleware(Middleware):
    """End a session after SESSION_IDLE_SECONDS idle or SESSION_ABSOLUTE_SECONDS in all."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            now = time.time()
            started = request.session.get(SESSION_STARTED, now)
            seen = request.session.get(SESSION_SEEN, now)
            idle = now - seen > settings.SESSION_IDLE_SECONDS
            too_old = now - started > settings.SESSION_ABSOLUTE_SECONDS
            if idle or too_old:
                logout(request)
                messages.info(request, _("Your session ended. Please log in again."))
                return redirect(f"{settings.LOGIN_URL_PATH}?{urlencode({'next': request.path})}")
            if SESSION_STARTED not in request.session:
                request.session[SESSION_STARTED] = started
            # Write the last-seen stamp at most once a minute to keep requests cheap.
            if now - seen > 60 or SESSION_SEEN not in request.session:
                request.session[SESSION_SEEN] = now
        return self.get_response(request)


class NoStoreMiddleware(Middleware):
    """Mark every page of a signed-in user `Cache-Control: no-store`: they show private money."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(settings.STATIC_URL_PATH):
            response["Cache-Control"] = "no-store, private"
            response["Pragma"] = "no-cache"
        return response
