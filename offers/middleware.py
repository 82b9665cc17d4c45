"""Show times in the signed-in user's home time zone."""

from __future__ import annotations

import zoneinfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from config.middleware import Middleware

SESSION_TZ_KEY = "offerdesk_tz"


def _default_home_timezone() -> str:
    from offers.models import Preferences

    return str(Preferences._meta.get_field("home_timezone").default)


class UserTimezoneMiddleware(Middleware):
    """Activate the home time zone from the user's preferences for this request."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        tz_name = None
        if request.user.is_authenticated:
            # Cached in the session; the preferences view refreshes it on save.
            tz_name = request.session.get(SESSION_TZ_KEY)
            if tz_name is None:
                from offers.models import Preferences

                tz_name = (
                    Preferences.objects.filter(owner=request.user)
                    .values_list("home_timezone", flat=True)
                    .first()
                ) or ""
                request.session[SESSION_TZ_KEY] = tz_name
        # The zone new rounds and team matches start from: the saved home zone, else the one the
        # preferences page proposes (times still show in UTC until preferences are saved).
        request.home_timezone = tz_name or _default_home_timezone()  # type: ignore[attr-defined]
        try:
            if tz_name:
                timezone.activate(zoneinfo.ZoneInfo(tz_name))
            else:
                timezone.deactivate()
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
