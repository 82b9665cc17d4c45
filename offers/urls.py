from __future__ import annotations

from django.urls import path

from offers import views

app_name = "offers"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("offers/", views.offer_list, name="offer_list"),
    path("offers/new/", views.offer_create, name="offer_create"),
    path("offers/compare/", views.offer_compare, name="offer_compare"),
    path("offers/<int:pk>/", views.offer_detail, name="offer_detail"),
    path("offers/<int:pk>/edit/", views.offer_edit, name="offer_edit"),
    path("offers/<int:pk>/delete/", views.offer_delete, name="offer_delete"),
    path("offers/<int:pk>/history/", views.offer_history, name="offer_history"),
    path("history/<int:pk>/restore/", views.revision_restore_view, name="revision_restore"),
    path("trash/", views.trash, name="trash"),
    path("preferences/", views.preferences, name="preferences"),
    path("scenarios/", views.scenario_list, name="scenario_list"),
    path("export/", views.export, name="export"),
]
