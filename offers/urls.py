from __future__ import annotations

from django.urls import path

from offers import (
    views,
    views_choice,
    views_export,
    views_import,
    views_negotiation,
    views_scenarios,
)

app_name = "offers"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("chance/", views_choice.dashboard_chance, name="dashboard_chance"),
    path("offers/", views.offer_list, name="offer_list"),
    path("offers/new/", views.offer_create, name="offer_create"),
    path("offers/import/", views_import.offer_import, name="offer_import"),
    path(
        "offers/import/template.xlsx",
        views_import.import_template_xlsx,
        name="offer_import_template_xlsx",
    ),
    path(
        "offers/import/template.csv",
        views_import.import_template_csv,
        name="offer_import_template_csv",
    ),
    path("offers/import/columns.csv", views_import.import_columns_csv, name="offer_import_columns"),
    path("offers/compare/", views.offer_compare, name="offer_compare"),
    path("offers/<int:pk>/", views.offer_detail, name="offer_detail"),
    path("offers/<int:pk>/ledger.csv", views.offer_ledger_csv, name="offer_ledger_csv"),
    path("offers/<int:pk>/edit/", views.offer_edit, name="offer_edit"),
    path("offers/<int:pk>/delete/", views.offer_delete, name="offer_delete"),
    path("offers/<int:pk>/history/", views.offer_history, name="offer_history"),
    path("history/<int:pk>/restore/", views.revision_restore_view, name="revision_restore"),
    path("trash/", views.trash, name="trash"),
    path("preferences/", views.preferences, name="preferences"),
    path("offers/<int:pk>/negotiation/", views_scenarios.negotiation, name="negotiation"),
    path(
        "offers/<int:pk>/negotiation/log/",
        views_negotiation.negotiation_log,
        name="negotiation_log",
    ),
    path(
        "negotiation/entries/<int:pk>/answer/",
        views_negotiation.negotiation_entry_answer,
        name="negotiation_entry_answer",
    ),
    path(
        "negotiation/entries/<int:pk>/delete/",
        views_negotiation.negotiation_entry_delete,
        name="negotiation_entry_delete",
    ),
    path("offers/timeline/", views_negotiation.timeline, name="timeline"),
    path("scenarios/", views_scenarios.scenario_list, name="scenario_list"),
    path("scenarios/new/", views_scenarios.scenario_create, name="scenario_create"),
    path("scenarios/<int:pk>/", views_scenarios.scenario_detail, name="scenario_detail"),
    path("scenarios/<int:pk>/update/", views_scenarios.scenario_update, name="scenario_update"),
    path("scenarios/<int:pk>/flip/", views_scenarios.scenario_flip, name="scenario_flip"),
    path(
        "scenarios/<int:pk>/mc/start/", views_scenarios.scenario_mc_start, name="scenario_mc_start"
    ),
    path(
        "scenarios/<int:pk>/mc/cancel/",
        views_scenarios.scenario_mc_cancel,
        name="scenario_mc_cancel",
    ),
    path(
        "scenarios/<int:pk>/mc/restart/",
        views_scenarios.scenario_mc_restart,
        name="scenario_mc_restart",
    ),
    path(
        "scenarios/<int:pk>/mc/status/",
        views_scenarios.scenario_mc_status,
        name="scenario_mc_status",
    ),
    path("scenarios/<int:pk>/clone/", views_scenarios.scenario_clone, name="scenario_clone"),
    path("scenarios/<int:pk>/delete/", views_scenarios.scenario_delete, name="scenario_delete"),
    path("scenarios/<int:pk>/accept/", views_scenarios.scenario_accept, name="scenario_accept"),
    path("export/", views_export.export, name="export"),
    path("export/start/", views_export.export_start, name="export_start"),
    path("export/report/", views_export.export_report, name="export_report"),
    path("export/jobs/<int:pk>/", views_export.export_job, name="export_job"),
    path(
        "export/jobs/<int:pk>/restart/", views_export.export_job_restart, name="export_job_restart"
    ),
    path(
        "export/jobs/<int:pk>/download/",
        views_export.export_job_download,
        name="export_job_download",
    ),
    path("export/backup/", views_export.backup_download, name="backup_download"),
    path("export/restore/", views_export.backup_import, name="backup_import"),
]
