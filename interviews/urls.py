from __future__ import annotations

from django.urls import path

from interviews import views

app_name = "interviews"
urlpatterns = [
    path("", views.board, name="board"),
    path("new/", views.process_create, name="process_create"),
    path("<int:pk>/", views.process_detail, name="process_detail"),
    path("<int:pk>/edit/", views.process_edit, name="process_edit"),
    path("<int:pk>/delete/", views.process_delete, name="process_delete"),
    path("<int:pk>/move/", views.process_move, name="process_move"),
    path("<int:pk>/rounds/new/", views.round_create, name="round_create"),
    path("rounds/<int:pk>/edit/", views.round_edit, name="round_edit"),
    path("rounds/<int:pk>/delete/", views.round_delete, name="round_delete"),
    path("rounds/<int:pk>/brief/", views.round_brief, name="round_brief"),
    path("<int:pk>/debrief/", views.debrief_edit, name="debrief_edit"),
    path("<int:pk>/team-matches/new/", views.team_match_create, name="team_match_create"),
    path("team-matches/<int:pk>/edit/", views.team_match_edit, name="team_match_edit"),
    path("team-matches/<int:pk>/delete/", views.team_match_delete, name="team_match_delete"),
    path("questions/", views.question_log, name="question_log"),
    path("analytics/", views.analytics_page, name="analytics"),
    path("calendar.ics", views.calendar_ics, name="calendar"),
    path("calendar/", views.calendar_settings, name="calendar_settings"),
    path("calendar/feed/<str:token>.ics", views.calendar_feed, name="calendar_feed"),
]
