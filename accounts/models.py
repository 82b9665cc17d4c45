"""History of changes and the 30-day trash, for any user-owned object."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TRASH_DAYS = 30


class Revision(models.Model):
    """A readable snapshot of an object (and its children) taken at a change or a deletion."""

    class Action(models.TextChoices):
        CREATED = "created", _("Created")
        CHANGED = "changed", _("Changed")
        DELETED = "deleted", _("Deleted")
        RESTORED = "restored", _("Restored")
        # All of the user's data, kept when "Replace my data with this backup" deleted it: the
        # snapshot is their backup document (the app that builds backups restores it), not rows.
        REPLACED = "replaced", _("Replaced by a restore")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="revisions"
    )
    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE)
    object_id = models.PositiveBigIntegerField()
    object_repr = models.CharField(max_length=200)
    action = models.CharField(max_length=10, choices=Action.choices)
    snapshot = models.JSONField(
        help_text="Django-serialised rows: the object first, then its children."
    )
    summary = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    restored_at = models.DateTimeField(null=True, blank=True)
    # Replaced data: how many records its backup document holds (the trash page says it
    # without reading the document).
    records = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "content_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.object_repr}"

    @property
    def is_replaced_data(self) -> bool:
        """Return True if this keeps the data a "replace" restore deleted."""
        return self.action == self.Action.REPLACED

    @property
    def in_trash(self) -> bool:
        """Return True if this is a deletion that can still be undone."""
        return (
            self.action in TRASH_ACTIONS
            and self.restored_at is None
            and self.created_at >= timezone.now() - timedelta(days=TRASH_DAYS)
        )


# What the trash holds, restorable for TRASH_DAYS days: a deleted object, or the data a restore
# replaced.
TRASH_ACTIONS = (Revision.Action.DELETED, Revision.Action.REPLACED)


class FormToken(models.Model):
    """A create form's one-time token: a second post of the same form adds nothing."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="form_tokens"
    )
    token = models.CharField(max_length=64)
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "token"], name="formtoken_once_per_owner")
        ]

    def __str__(self) -> str:
        return self.token


class CalendarFeed(models.Model):
    """A user's private calendar subscription: the SHA-256 of its token, never the token."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"calendar feed of user {self.owner_id}"


class AccountSettings(models.Model):
    """What the account keeps of its own: the language its pages and mail are in ("": the site's)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)  # no backup
    language = models.CharField(max_length=16, blank=True, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"settings of user {self.user_id}"
