"""One-time tokens in create forms, so that a form posted twice creates one object."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from accounts.models import FormToken


class DuplicateSubmission(Exception):
    """The form with this token was already sent; ``object_id`` is what it created."""

    def __init__(self, object_id: int | None) -> None:
        super().__init__("form already submitted")
        self.object_id = object_id


def new_form_token() -> str:
    """Return a fresh token for a create form's hidden field."""
    return secrets.token_hex(16)


def form_token_claim(*, user: AbstractBaseUser, token: str) -> FormToken:
    """Claim ``token`` inside the caller's transaction, or raise DuplicateSubmission.

    A second claim of the same token waits on the unique index until the first transaction
    ends: if that one committed, the second is a duplicate; if it rolled back (the form had
    an error), the token is free again.
    """
    try:
        with transaction.atomic():
            return FormToken.objects.create(owner=user, token=token[:64])
    except IntegrityError:
        first = FormToken.objects.filter(owner=user, token=token[:64]).first()
        raise DuplicateSubmission(first.object_id if first else None) from None
