from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("compensation/", include("compensation.urls")),
    path("interviews/", include("interviews.urls")),
    path("", include("offers.urls")),
]
