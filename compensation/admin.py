from __future__ import annotations

from django.contrib import admin

from compensation.models import (
    Band,
    Company,
    EquityGrant,
    FxRate,
    Level,
    LocationPreset,
    Package,
    Refresher,
    SignOn,
)


class LevelInline(admin.TabularInline):
    model = Level
    extra = 0


@admin.register(Company)
class CompanyAdmin(admin.ModelAdmin):
    list_display = ("name", "ticker", "owner", "currency", "share_price", "is_private")
    list_filter = ("is_private", "currency")
    search_fields = ("name", "ticker")
    inlines = [LevelInline]


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    list_display = ("company", "code", "order", "title", "equivalence")
    list_filter = ("equivalence",)
    search_fields = ("company__name", "code", "title")
    list_select_related = ("company",)


@admin.register(Band)
class BandAdmin(admin.ModelAdmin):
    list_display = ("level", "owner", "currency", "base_min", "base_mid", "base_max", "as_of")
    list_filter = ("currency",)
    search_fields = ("level__company__name", "level__code", "source")
    list_select_related = ("level__company", "owner")


@admin.register(LocationPreset)
class LocationPresetAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "currency", "effective_tax_pct", "cost_of_living_index")
    search_fields = ("name",)


@admin.register(FxRate)
class FxRateAdmin(admin.ModelAdmin):
    list_display = ("currency", "to_currency", "rate", "as_of", "owner")
    list_filter = ("currency", "to_currency")


class SignOnInline(admin.TabularInline):
    model = SignOn
    extra = 0


class EquityGrantInline(admin.StackedInline):
    model = EquityGrant
    extra = 0


class RefresherInline(admin.StackedInline):
    model = Refresher
    extra = 0


@admin.register(Package)
class PackageAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "company", "level", "currency", "base", "start_date")
    search_fields = ("name", "company__name")
    list_select_related = ("owner", "company", "level__company")
    readonly_fields = ("version", "updated_at")
    inlines = [SignOnInline, EquityGrantInline, RefresherInline]
