"""Writes for accounts: deleting a user with all they own; the calendar feed; email; language."""

from __future__ import annotations

import hashlib
import secrets
import shutil
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.utils import timezone

from accounts.models import AccountSettings, CalendarFeed


def _owned_models() -> list[type[models.Model]]:
    user_model = get_user_model()
    found = []
    for model in apps.get_models():
        field = next((f for f in model._meta.concrete_fields if f.name == "owner"), None)
        if field is not None and field.related_model is user_model:
            found.append(model)
    return found


@transaction.atomic
def account_delete(*, user: AbstractBaseUser) -> None:
    """Delete the user, every row they own and their files, whatever the PROTECT links."""
    # Apps protect some links (an offer protects its package, a process its company), so a
    # plain user.delete() is refused; delete owners' rows in whatever order the links allow.
    remaining = _owned_models()
    while remaining:
        blocked = []
        for model in remaining:
            try:
                with transaction.atomic():
                    model._default_manager.filter(owner=user).delete()
            except models.ProtectedError:
                blocked.append(model)
        if len(blocked) == len(remaining):
            break  # something outside the user's data protects it: let user.delete() say so
        remaining = blocked
    folders = [Path(settings.MEDIA_ROOT) / d / str(user.pk) for d in settings.USER_MEDIA_DIRS]
    user.delete()
    # Files (export downloads) go once the rows are gone for good, not if this rolls back.
    transaction.on_commit(lambda: _folders_delete(folders))


def _folders_delete(folders: list[Path]) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


# Private calendar feed ---------------------------------------------------------------------

FEED_TOKEN_BYTES = 32  # 256 random bits: unguessable, so the link alone is the key


def feed_token_hash(token: str) -> str:
    """Return the stored form of a feed token (its SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@transaction.atomic
def calendar_feed_reset(*, user: AbstractBaseUser) -> str:
    """Turn the user's calendar feed on with a new token, revoking any earlier one.

    Returns the token itself: only its hash is stored, so this is the one time it is known.
    """
    token = secrets.token_urlsafe(FEED_TOKEN_BYTES)
    CalendarFeed.objects.update_or_create(
        owner=user, defaults={"token_hash": feed_token_hash(token), "created_at": timezone.now()}
    )
    return token


@transaction.atomic
def calendar_feed_off(*, user: AbstractBaseUser) -> bool:
    """Turn the user's calendar feed off; its link stops working. False if it was off."""
    deleted, _by_model = CalendarFeed.objects.filter(owner=user).delete()
    return bool(deleted)


@transaction.atomic
def account_email_set(*, user: AbstractBaseUser, email: str) -> AbstractBaseUser:
    """Set the address password resets and reminders go to (empty: none)."""
    user.email = get_user_model().objects.normalize_email(email.strip())  # type: ignore[attr-defined]
    user.full_clean(exclude=["password"])
    user.save(update_fields=["email"])
    return user


def account_language_set(*, user: AbstractBaseUser, language: str) -> None:
    """Keep the language the user chose (one of LANGUAGES) for their next log-in and their mail."""
    if language in dict(settings.LANGUAGES):
        AccountSettings.objects.update_or_create(user=user, defaults={"language": language})
