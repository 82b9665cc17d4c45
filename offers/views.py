from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def dashboard(request: HttpRequest) -> HttpResponse:
    """Placeholder until the dashboard lands."""
    return render(request, "base.html")


offer_list = preferences = scenario_list = export = dashboard
