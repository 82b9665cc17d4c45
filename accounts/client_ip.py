"""The client address django-axes locks: the socket's, or the one our own proxies saw."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """Return the address that made the request.

    With no proxy (``AXES_IPWARE_PROXY_COUNT`` unset or 0) that is ``REMOTE_ADDR``;
    ``X-Forwarded-For`` is then ignored, since a client can send anything in it. Behind
    ``n`` trusted proxies, each appends the address it saw, so the client is the ``n``-th
    address from the right of the header (anything left of it was written by the client).
    """
    remote = request.META.get("REMOTE_ADDR")
    count = settings.AXES_IPWARE_PROXY_COUNT or 0
    if count <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) < count:
        return remote  # did not come through every proxy: only the socket is known
    return forwarded[-count]
