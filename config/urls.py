from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language
from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("compensation/", include("compensation.urls")),
    path("interviews/", include("interviews.urls")),
    path("", include("offers.urls")),
]
