from __future__ import annotations

from django.urls import path

from interviews import views

app_name = "interviews"
urlpatterns = [
    path("", views.index, name="board"),
]
