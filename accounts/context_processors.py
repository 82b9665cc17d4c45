"""Template context shared by every page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def signup_open(request: HttpRequest) -> dict[str, bool]:
    """Say whether public sign-up is open (SIGNUP_OPEN), so pages link to it only then."""
    return {"signup_open": settings.SIGNUP_OPEN}
