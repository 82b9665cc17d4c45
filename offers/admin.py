"""Admin pages for the offers models: for an operator to look, not to edit.

Writes to offers, preferences and scenarios go through `offers.services` (revisions, optimistic
locking, the 30-day trash), which the admin's forms would bypass; so these pages are view-only
(`accounts.admin.ViewOnlyAdmin`). Background jobs may be deleted (their files go with the
periodic clean-up).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.admin import ViewOnlyAdmin, ViewOnlyInline
from offers.models import Job, NegotiationEntry, Offer, Preferences, Scenario


class ScenarioInline(ViewOnlyInline, admin.TabularInline):
    model = Scenario
    fields = ("name", "mc_status", "updated_at")
    readonly_fields = fields
    show_change_link = True


@admin.register(Offer)
class OfferAdmin(ViewOnlyAdmin):
    list_display = ("name", "owner", "kind", "company", "level", "status", "start_date")
    list_filter = ("kind", "status", "remote_policy")
    search_fields = ("name", "owner__username", "package__company__name", "team", "title")
    list_select_related = ("owner", "package__company", "package__level")
    raw_id_fields = ("owner", "target_level", "process", "package")
    date_hierarchy = "created_at"
    inlines = [ScenarioInline]


@admin.register(Preferences)
class PreferencesAdmin(ViewOnlyAdmin):
    list_display = ("owner", "home_timezone", "home_currency", "basis", "horizon_years")
    list_filter = ("basis", "home_currency")
    search_fields = ("owner__username",)
    list_select_related = ("owner",)
    raw_id_fields = ("owner",)


@admin.register(Scenario)
class ScenarioAdmin(ViewOnlyAdmin):
    list_display = ("name", "owner", "offer", "mc_status", "mc_runs", "updated_at")
    list_filter = ("mc_status",)
    search_fields = ("name", "owner__username", "offer__name")
    list_select_related = ("owner", "offer")
    raw_id_fields = ("owner", "offer", "level")


@admin.register(NegotiationEntry)
class NegotiationEntryAdmin(ViewOnlyAdmin):
    list_display = ("offer", "owner", "asked_on", "channel", "topic", "outcome", "answered_on")
    list_filter = ("outcome", "topic", "channel")
    search_fields = ("owner__username", "offer__name", "contact")
    list_select_related = ("owner", "offer")
    raw_id_fields = ("owner", "offer", "revised_level", "revision_before", "revision_after")


@admin.register(Job)
class JobAdmin(ViewOnlyAdmin):
    list_display = ("__str__", "owner", "kind", "status", "progress", "file_bytes", "created_at")
    list_filter = ("kind", "status", "format")
    search_fields = ("owner__username",)
    list_select_related = ("owner",)
    raw_id_fields = ("owner",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)
