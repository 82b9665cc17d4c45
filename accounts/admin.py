from __future__ import annotations

from django.contrib import admin

from accounts.models import Revision


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    list_display = ("object_repr", "action", "owner", "created_at")
    list_filter = ("action", "content_type")
