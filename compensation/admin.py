"""Admin pages for companies, bands, packages and reference data: view-only.

`compensation.services` is their one writer (package versions and revisions, a band's or a
package's company visible to its owner): the app edits them, the admin only shows them.
"""

from __future__ import annotations

from django.contrib import admin

from accounts.admin import ViewOnlyAdmin, ViewOnlyInline
from compensation.models import Band, Company, FxRate, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn


class LevelInline(ViewOnlyInline, admin.TabularInline):
    model = Level


@admin.register(Company)
class CompanyAdmin(ViewOnlyAdmin):
    list_display = ("name", "ticker", "owner", "currency", "share_price", "is_private")
    list_filter = ("is_private", "currency")
    search_fields = ("name", "ticker")
    inlines = [LevelInline]


@admin.register(Level)
class LevelAdmin(ViewOnlyAdmin):
    list_display = ("company", "code", "order", "title", "equivalence")
    list_filter = ("equivalence",)
    search_fields = ("company__name", "code", "title")
    list_select_related = ("company",)


@admin.register(Band)
class BandAdmin(ViewOnlyAdmin):
    list_display = ("level", "owner", "currency", "base_min", "base_mid", "base_max", "as_of")
    list_filter = ("currency",)
    search_fields = ("level__company__name", "level__code", "source")
    list_select_related = ("level__company", "owner")


@admin.register(LocationPreset)
class LocationPresetAdmin(ViewOnlyAdmin):
    list_display = ("name", "owner", "currency", "effective_tax_pct", "time_zone")
    search_fields = ("name",)


@admin.register(FxRate)
class FxRateAdmin(ViewOnlyAdmin):
    list_display = ("currency", "to_currency", "rate", "as_of", "owner")
    list_filter = ("currency", "to_currency")


class SignOnInline(ViewOnlyInline, admin.TabularInline):
    model = SignOn


class EquityGrantInline(ViewOnlyInline, admin.StackedInline):
    model = EquityGrant


class RefresherInline(ViewOnlyInline, admin.StackedInline):
    model = Refresher


@admin.register(Package)
class PackageAdmin(ViewOnlyAdmin):
    list_display = ("name", "owner", "company", "level", "currency", "base", "start_date")
    search_fields = ("name", "company__name")
    list_select_related = ("owner", "company", "level__company")
    readonly_fields = ("version", "updated_at")
    inlines = [SignOnInline, EquityGrantInline, RefresherInline]
