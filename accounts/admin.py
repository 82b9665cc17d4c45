"""Admin pages for the operator: user data is shown, never edited; accounts are administered.

Every model of user data has its one writer in a service (versions, revisions, the 30-day trash,
owner checks such as "a package's company is the user's own or shared"), which the admin's
forms would bypass. So their admin pages are view-only (`ViewOnlyAdmin`, `ViewOnlyInline`);
Django's own user and group pages stay as they are, for account administration.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import Revision


class _ViewOnly:
    """Shows, and adds, changes or deletes nothing (a model admin's or an inline's permissions)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ViewOnlyAdmin(_ViewOnly, admin.ModelAdmin):
    """A model admin that lists and shows, and adds, changes or deletes nothing."""


class ViewOnlyInline(_ViewOnly, admin.options.InlineModelAdmin):
    """An inline (tabular or stacked) that shows its rows and adds, changes or deletes none."""

    extra = 0


@admin.register(Revision)
class RevisionAdmin(ViewOnlyAdmin):
    list_display = ("object_repr", "action", "owner", "created_at")
    list_filter = ("action", "content_type")
