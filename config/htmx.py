"""htmx and log-in: a request whose session has ended sends the whole page to log in."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseRedirectBase
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

from config.middleware import Middleware


class HtmxLoginRedirectMiddleware(Middleware):
    """Turn a redirect to the log-in page into `HX-Redirect` for htmx requests.

    htmx follows a plain redirect inside its request and would swap the whole log-in page into
    a page section; `HX-Redirect` makes the browser go there instead. After logging in, the
    user comes back to the page they were on, not to the partial's URL.
    Needs django_htmx.middleware.HtmxMiddleware before it.
    """

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not htmx or not isinstance(response, HttpResponseRedirectBase):
            return response
        location = urlsplit(response["Location"])
        if location.path != resolve_url(settings.LOGIN_URL):
            return response
        query = dict(parse_qsl(location.query))
        page = htmx.current_url_abs_path  # None unless the page is on this site
        if page:
            query["next"] = page
        target = urlunsplit(location._replace(query=urlencode(query)))
        redirect = HttpResponseClientRedirect(target)
        for cookie in response.cookies.values():  # the ended session's cookie change
            redirect.cookies[cookie.key] = cookie
        return redirect
