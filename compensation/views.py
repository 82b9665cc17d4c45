"""Compensation pages: companies and ladders, bands, FX rates, places, packages."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import plotly.graph_objects as go
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.charts import INK, figure, phone_title, plain
from accounts.forms import form_add_service_errors
from accounts.http import method_refused
from accounts.locking import StaleEditError
from compensation import engine, selectors, services
from compensation.band_import import CSV_COLUMNS, CSV_EXAMPLE, band_import_csv
from compensation.engine.components import PAY_COMPONENTS
from compensation.forms import (
    BandForm,
    BandImportForm,
    CompanyForm,
    FxRateForm,
    GrantFormSet,
    LevelForm,
    LocationForm,
    PackageForm,
    RefresherFormSet,
    SignOnFormSet,
    formset_rows,
)
from compensation.models import Equivalence, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from compensation.plausibility import message_warnings
from compensation.vesting_labels import schedule_description

DEFAULT_HORIZON = 4


def _saved(request: HttpRequest, form: BaseForm, save: Callable[..., Any], done: str) -> Any:
    """Return what ``save`` (a service) wrote from a valid posted form, saying ``done``; else None.

    The service takes the user and the form's fields; its refusal shows on the form.
    """
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        saved = save(user=request.user, **form.cleaned_data)
    except ValidationError as error:
        form_add_service_errors(form, error)
        return None
    messages.success(request, done)
    return saved


# Companies -------------------------------------------------------------------------------


@require_GET
def company_list(request: HttpRequest) -> HttpResponse:
    """List shared and own companies with their ladders."""
    companies = list(selectors.company_list(user=request.user))
    stages = list(Equivalence)
    rows = []
    for company in companies:
        by_stage = {lv.equivalence: lv for lv in company.levels.all() if lv.equivalence}
        rows.append({"company": company, "cells": [by_stage.get(s.value) for s in stages]})
    return render(
        request,
        "compensation/company_list.html",
        {"companies": companies, "rows": rows, "stages": stages},
    )


@require_http_methods(["GET", "POST"])
def company_create(request: HttpRequest) -> HttpResponse:
    """Add one of the user's own companies."""
    form = CompanyForm(request.POST or None)
    if company := _saved(request, form, services.company_create, _("Company added.")):
        return redirect("compensation:company_detail", pk=company.pk)
    return render(request, "compensation/company_form.html", {"form": form, "company": None})


@require_http_methods(["GET", "POST"])
def company_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change one of the user's own companies."""
    company = selectors.company_get_own(user=request.user, pk=pk)
    form = CompanyForm(request.POST or None, instance=company)
    if _saved(
        request, form, partial(services.company_update, company=company), _("Company saved.")
    ):
        return redirect("compensation:company_detail", pk=company.pk)
    return render(request, "compensation/company_form.html", {"form": form, "company": company})


def _ladder_figure(company: Any, currency: str) -> go.Figure | None:
    """Return a plotly figure of base and stock ranges by level (first band per level)."""
    names: list[str] = []
    base: list[tuple[float, float, float]] = []
    stock: list[tuple[float, float, float]] = []
    for level in company.levels.all():
        band = next((b for b in level.bands.all() if b.currency == currency), None)
        if band is None:
            continue
        names.append(plain(level.code))  # an own company's level is typed by its user
        base.append((float(band.base_min), float(band.base_mid), float(band.base_max)))
        stock.append((float(band.stock_min), float(band.stock_mid), float(band.stock_max)))
    if not names:
        return None

    base_label, stock_label = _("Base"), _("Stock / yr")

    def bar(label: str, rows: list[tuple[float, float, float]], color: str) -> go.Bar:
        return go.Bar(
            name=_("%(what)s (min–max)") % {"what": label},
            x=[names, [label] * len(names)],
            base=[r[0] for r in rows],
            y=[r[2] - r[0] for r in rows],
            marker={"color": color},
            customdata=[[r[0], r[1], r[2]] for r in rows],
            hovertemplate="%{customdata[0]:,.0f} – %{customdata[2]:,.0f} "
            "(mid %{customdata[1]:,.0f})<extra>" + label + "</extra>",
        )

    title = _("Base and yearly stock ranges by level (%(c)s)") % {"c": currency}
    phone, top = phone_title(title)
    return figure(
        [
            bar(base_label, base, "#5c7cfa"),
            bar(stock_label, stock, "#fab005"),
            go.Scatter(
                mode="markers",
                name=_("mid"),
                x=[names + names, [base_label] * len(names) + [stock_label] * len(names)],
                y=[r[1] for r in base] + [r[1] for r in stock],
                marker={"symbol": "line-ew-open", "size": 30, "color": INK},
                hoverinfo="skip",
            ),
        ],
        {
            "title": {"text": title},
            "barmode": "overlay",
            "xaxis": {"type": "multicategory"},
            "yaxis": {"title": {"text": currency}, "tickformat": ",.0f", "rangemode": "tozero"},
        },
        narrow={
            "title": phone,
            "yaxis": {"title": {"text": ""}, "tickformat": "~s"},
            "xaxis": {"tickfont": {"size": 9}},
            "margin": {"t": top, "l": 40, "r": 8},
            "height": 460,
        },
    )


def company_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a company: its ladder with cross-company stages, its bands and a range chart."""
    company = selectors.company_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    levels = list(company.levels.all())
    currencies = sorted({b.currency for lv in levels for b in lv.bands.all()})
    currency = company.currency if company.currency in currencies else next(iter(currencies), "")
    figure = _ladder_figure(company, currency) if currency else None
    return render(
        request,
        "compensation/company_detail.html",
        {
            "company": company,
            "levels": levels,
            "bands": [b for lv in levels for b in lv.bands.all()],
            "figure": figure,
            "is_own": company.owner_id == request.user.pk,
            "level_form": LevelForm(),
            "preset": (
                schedule_description(engine.VESTING_PRESETS[company.vesting_preset])
                if company.vesting_preset in engine.VESTING_PRESETS
                else None
            ),
        },
    )


def level_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a level to one of the user's own companies."""
    company = selectors.company_get_own(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    form = LevelForm(request.POST)
    if _saved(request, form, partial(services.level_create, company=company), _("Level added.")):
        return redirect("compensation:company_detail", pk=company.pk)
    return render(request, "compensation/level_form.html", {"form": form, "company": company})


# Bands -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def band_create(request: HttpRequest) -> HttpResponse:
    """Add one of the user's own bands."""
    form = BandForm(request.POST or None, user=request.user)
    if band := _saved(request, form, services.band_create, _("Band saved.")):
        return redirect("compensation:company_detail", pk=band.level.company_id)
    return render(request, "compensation/band_form.html", {"form": form, "band": None})


@require_http_methods(["GET", "POST"])
def band_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change one of the user's own bands."""
    band = selectors.band_get_own(user=request.user, pk=pk)
    form = BandForm(request.POST or None, instance=band, user=request.user)
    if _saved(request, form, partial(services.band_update, band=band), _("Band saved.")):
        return redirect("compensation:company_detail", pk=band.level.company_id)
    return render(request, "compensation/band_form.html", {"form": form, "band": band})


def band_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Move one of the user's own bands to the trash."""
    band = selectors.band_get_own(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    company_id = band.level.company_id
    services.band_delete(user=request.user, band=band)
    messages.success(request, _("Band moved to the trash (restorable for 30 days)."))
    return redirect("compensation:company_detail", pk=company_id)


@require_http_methods(["GET", "POST"])
def band_import(request: HttpRequest) -> HttpResponse:
    """Import bands from a CSV file: all rows or none, errors listed by line."""
    form = BandImportForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        result = band_import_csv(user=request.user, file=form.cleaned_data["file"])
        if result.ok:
            messages.success(
                request,
                _("Imported %(c)d new and %(u)d updated bands.")
                % {"c": result.created, "u": result.updated},
            )
            return redirect("compensation:company_list")
    return render(
        request,
        "compensation/band_import.html",
        {"form": form, "result": result, "columns": CSV_COLUMNS},
    )


@require_GET
def band_import_example(request: HttpRequest) -> HttpResponse:
    """Download an example bands CSV."""
    response = HttpResponse(CSV_EXAMPLE, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="bands-example.csv"'
    return response


# FX rates and places ---------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def fx_list(request: HttpRequest) -> HttpResponse:
    """List shared and own exchange rates; add one of the user's own."""
    form = FxRateForm(request.POST or None)
    if _saved(request, form, services.fx_rate_create, _("Exchange rate added.")):
        return redirect("compensation:fx_list")
    rates = selectors.fx_list(user=request.user)
    return render(request, "compensation/fx_list.html", {"form": form, "rates": rates})


@require_http_methods(["GET", "POST"])
def fx_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change one of the user's own exchange rates."""
    fx = selectors.fx_get_own(user=request.user, pk=pk)
    form = FxRateForm(request.POST or None, instance=fx)
    if _saved(request, form, partial(services.fx_rate_update, fx=fx), _("Exchange rate saved.")):
        return redirect("compensation:fx_list")
    return render(request, "compensation/simple_form.html", {"form": form, "title": str(fx)})


@require_http_methods(["GET", "POST"])
def location_list(request: HttpRequest) -> HttpResponse:
    """List shared and own location presets; add one of the user's own."""
    form = LocationForm(request.POST or None)
    if _saved(request, form, services.location_create, _("Location added.")):
        return redirect("compensation:location_list")
    places = selectors.location_list(user=request.user)
    return render(request, "compensation/location_list.html", {"form": form, "places": places})


@require_http_methods(["GET", "POST"])
def location_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change one of the user's own location presets."""
    place = selectors.location_get_own(user=request.user, pk=pk)
    form = LocationForm(request.POST or None, instance=place)
    if _saved(
        request, form, partial(services.location_update, location=place), _("Location saved.")
    ):
        return redirect("compensation:location_list")
    return render(request, "compensation/simple_form.html", {"form": form, "title": place.name})


# Packages --------------------------------------------------------------------------------


@require_GET
def package_list(request: HttpRequest) -> HttpResponse:
    """List the user's packages."""
    packages = selectors.package_list(user=request.user)
    return render(request, "compensation/package_list.html", {"packages": packages})


def _describe(item: Any) -> str:
    try:
        return schedule_description(selectors.schedule_of(item))
    except engine.EngineInputError as error:
        return _("invalid schedule: %(e)s") % {"e": error}


def _projection(package: Package, horizon: int) -> dict[str, Any]:
    """Return the yearly projection table and its assumptions, or an error message."""
    try:
        spec = selectors.package_to_spec(package, horizon_years=horizon)
        yearly = engine.project_yearly(spec)
        facts = engine.assumptions(spec, yearly)
        summary = engine.annualized(spec, yearly)
    except (engine.EngineInputError, LookupError) as error:
        return {"error": str(error)}
    rows = [
        {
            "year": int(year),
            "components": [float(row[c.key]) for c in PAY_COMPONENTS],
            **{k: float(v) for k, v in row.items()},
        }
        for year, row in yearly.iterrows()
    ]
    return {
        "rows": rows,
        "components": [_(c.label) for c in PAY_COMPONENTS],
        "assumptions": facts,
        "summary": summary,
        "tax_rule": selectors.tax_rule_words(spec),
    }


def package_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a package: components, schedules in words, yearly projection and band position."""
    package = selectors.package_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    projection = _projection(package, DEFAULT_HORIZON)
    location = package.location.name if package.location else None
    band = selectors.band_for(
        user=request.user, level=package.level, currency=package.currency, location=location
    )
    position, position_error = None, ""
    if band is not None:
        up = selectors.next_level(band.level)  # at the top, no level and so no band
        next_band = selectors.band_for(
            user=request.user, level=up, currency=package.currency, location=location
        )
        try:
            position = selectors.band_position(package=package, band=band, next_band=next_band)
        except LookupError as error:
            position_error = str(error)
    grants = [
        (g, _describe(g), selectors.grant_value(g), selectors.grant_price_currency(g, package))
        for g in package.grants.all()
    ]
    refreshers = [(r, _describe(r)) for r in package.refreshers.all()]
    return render(
        request,
        "compensation/package_detail.html",
        {
            "package": package,
            "projection": projection,
            "position": position,
            "position_error": position_error,
            "grants": grants,
            "refreshers": refreshers,
            "tax_rate_pct": selectors.tax_rate_pct(package),
            "stock_currency": selectors.stock_currency(package),
        },
    )


def _package_forms(
    request: HttpRequest, package: Package | None
) -> tuple[PackageForm, Any, Any, Any]:
    data = request.POST if request.method == "POST" else None
    instance = package or Package()
    form = PackageForm(data, instance=package, user=request.user)
    return (
        form,
        SignOnFormSet(data, instance=instance, prefix="signons"),
        GrantFormSet(data, instance=instance, prefix="grants"),
        RefresherFormSet(data, instance=instance, prefix="refreshers"),
    )


def _child_error(formsets: dict[type, Any], error: services.ChildValidationError) -> None:
    formset = formsets.get(error.model)
    kept = [
        f
        for f in formset.forms
        if (f.has_changed() or f.instance.pk) and not formset._should_delete_form(f)
    ]
    if error.index < len(kept):
        form_add_service_errors(kept[error.index], error)


@require_http_methods(["GET", "POST"])
def package_edit(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a package with its sign-ons, grants and refreshers (optimistic lock)."""
    package = selectors.package_get(user=request.user, pk=pk) if pk is not None else None
    form, sign_ons, grants, refreshers = _package_forms(request, package)
    status = 200
    if request.method == "POST":
        valid = [f.is_valid() for f in (form, sign_ons, grants, refreshers)]
        if all(valid):
            kwargs = {
                "user": request.user,
                "fields": form.package_fields(),
                "sign_ons": formset_rows(sign_ons),
                "grants": formset_rows(grants),
                "refreshers": formset_rows(refreshers),
            }
            try:
                with transaction.atomic():
                    if package is None:
                        saved = services.package_create(**kwargs)
                    else:
                        saved = services.package_update(
                            package=package,
                            expected_version=form.cleaned_data["version"],
                            **kwargs,
                        )
            except StaleEditError as error:
                form.add_error(None, str(error))
                status = 409
            except services.ChildValidationError as error:
                _child_error({SignOn: sign_ons, EquityGrant: grants, Refresher: refreshers}, error)
            except ValidationError as error:
                form_add_service_errors(form, error)
            else:
                messages.success(request, _("Package saved."))
                message_warnings(request, selectors.package_get(user=request.user, pk=saved.pk))
                return redirect("compensation:package_detail", pk=saved.pk)
    return render(
        request,
        "compensation/package_form.html",
        {
            "form": form,
            "package": package,
            "formsets": [
                (_("Sign-on bonuses"), sign_ons),
                (_("Equity grants"), grants),
                (_("Refreshers"), refreshers),
            ],
        },
        status=status,
    )
