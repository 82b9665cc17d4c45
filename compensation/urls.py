from __future__ import annotations

from django.urls import path

from compensation import views

app_name = "compensation"
urlpatterns = [
    path("", views.company_list, name="company_list"),
    path("companies/new/", views.company_create, name="company_create"),
    path("companies/<int:pk>/", views.company_detail, name="company_detail"),
    path("companies/<int:pk>/edit/", views.company_edit, name="company_edit"),
    path("companies/<int:pk>/levels/new/", views.level_create, name="level_create"),
    path("bands/new/", views.band_create, name="band_create"),
    path("bands/import/", views.band_import, name="band_import"),
    path("bands/import/example.csv", views.band_import_example, name="band_import_example"),
    path("bands/<int:pk>/edit/", views.band_edit, name="band_edit"),
    path("bands/<int:pk>/delete/", views.band_delete, name="band_delete"),
    path("fx/", views.fx_list, name="fx_list"),
    path("fx/<int:pk>/edit/", views.fx_edit, name="fx_edit"),
    path("locations/", views.location_list, name="location_list"),
    path("locations/<int:pk>/edit/", views.location_edit, name="location_edit"),
    path("packages/", views.package_list, name="package_list"),
    path("packages/new/", views.package_edit, name="package_create"),
    path("packages/<int:pk>/", views.package_detail, name="package_detail"),
    path("packages/<int:pk>/edit/", views.package_edit, name="package_edit"),
]
