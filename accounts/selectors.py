"""Reads for accounts."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from accounts.models import AccountSettings, CalendarFeed
from accounts.services import feed_token_hash


def calendar_feed_owner(*, token: str) -> AbstractBaseUser | None:
    """Return the active user whose calendar feed has this token, or None (revoked, unknown)."""
    if not token or len(token) > 100:
        return None
    feed = (
        CalendarFeed.objects.filter(token_hash=feed_token_hash(token), owner__is_active=True)
        .select_related("owner")
        .first()
    )
    return feed.owner if feed is not None else None


def calendar_feed_on(*, user: AbstractBaseUser) -> CalendarFeed | None:
    """Return the user's calendar feed, or None when it is off."""
    return CalendarFeed.objects.filter(owner=user).first()


def account_language(user: AbstractBaseUser, default: str = "") -> str:
    """Return the language the user chose with the header's switch, or ``default``."""
    found = AccountSettings.objects.filter(user=user).values_list("language", flat=True).first()
    return found or default
