from __future__ import annotations

from django.urls import path

from compensation import views

app_name = "compensation"
urlpatterns = [
    path("", views.index, name="company_list"),
]
