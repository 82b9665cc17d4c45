"""Admin pages for processes, rounds, debriefs and team matches: view-only.

`interviews.services` is their one writer (revisions, the stage history, the owner's own
companies and levels): the app edits them, the admin only shows them.
"""

from __future__ import annotations

from django.contrib import admin

from accounts.admin import ViewOnlyAdmin, ViewOnlyInline
from interviews.models import Debrief, Process, Question, Round, StageChange, TeamMatch


class StageChangeInline(ViewOnlyInline, admin.TabularInline):
    model = StageChange
    readonly_fields = ("stage", "changed_on", "note", "created_at")


class RoundInline(ViewOnlyInline, admin.TabularInline):
    model = Round
    fields = ("order", "kind", "scheduled_at", "timezone", "signal")
    show_change_link = True


@admin.register(Process)
class ProcessAdmin(ViewOnlyAdmin):
    list_display = ("company", "role", "owner", "stage", "priority", "deadline")
    list_filter = ("stage", "source")
    search_fields = ("company__name", "role", "team")
    raw_id_fields = ("owner", "company", "target_level", "offered_level")
    inlines = [StageChangeInline, RoundInline]


class QuestionInline(ViewOnlyInline, admin.TabularInline):
    model = Question


@admin.register(Round)
class RoundAdmin(ViewOnlyAdmin):
    list_display = ("process", "order", "kind", "scheduled_at", "timezone", "signal")
    list_filter = ("kind", "signal")
    raw_id_fields = ("owner", "process")
    inlines = [QuestionInline]


@admin.register(Debrief)
class DebriefAdmin(ViewOnlyAdmin):
    list_display = ("process", "decision", "level_decided")
    raw_id_fields = ("owner", "process", "level_decided")


@admin.register(TeamMatch)
class TeamMatchAdmin(ViewOnlyAdmin):
    list_display = ("team", "manager", "process", "status", "time_zone")
    raw_id_fields = ("owner", "process")
