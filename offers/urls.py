from __future__ import annotations

from django.urls import path

from offers import views

app_name = "offers"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("offers/", views.offer_list, name="offer_list"),
    path("preferences/", views.preferences, name="preferences"),
    path("scenarios/", views.scenario_list, name="scenario_list"),
    path("export/", views.export, name="export"),
]
