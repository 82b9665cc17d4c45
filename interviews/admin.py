from __future__ import annotations

from django.contrib import admin

from interviews.models import Debrief, Process, Question, Round, StageChange, TeamMatch


class StageChangeInline(admin.TabularInline):
    model = StageChange
    extra = 0
    can_delete = False  # the stage history is append-only
    readonly_fields = ("stage", "changed_on", "note", "created_at")

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("order", "kind", "scheduled_at", "timezone", "signal")
    show_change_link = True


@admin.register(Process)
class ProcessAdmin(admin.ModelAdmin):
    list_display = ("company", "role", "owner", "stage", "priority", "deadline")
    list_filter = ("stage", "source")
    search_fields = ("company__name", "role", "team")
    raw_id_fields = ("owner", "company", "target_level", "offered_level")
    inlines = [StageChangeInline, RoundInline]


class QuestionInline(admin.TabularInline):
    model = Question
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("process", "order", "kind", "scheduled_at", "timezone", "signal")
    list_filter = ("kind", "signal")
    raw_id_fields = ("owner", "process")
    inlines = [QuestionInline]


@admin.register(Debrief)
class DebriefAdmin(admin.ModelAdmin):
    list_display = ("process", "decision", "level_decided")
    raw_id_fields = ("owner", "process", "level_decided")


@admin.register(TeamMatch)
class TeamMatchAdmin(admin.ModelAdmin):
    list_display = ("team", "manager", "process", "status", "time_zone")
    raw_id_fields = ("owner", "process")
