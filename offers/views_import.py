"""Spreadsheet import of options: the template downloads and the upload page."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from accounts.reauth import reauth_required
from offers.export.formats import content_type_of
from offers.import_columns import IMPORT_HELP, column_guide, guide_csv, template_csv, template_xlsx
from offers.import_files import OfferImportError
from offers.imports import offers_import


class OfferImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Spreadsheet (.xlsx or .csv)"),
        help_text=gettext_lazy("Filled in from the template below; at most 500 rows."),
    )


def _attachment(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type_of(name))
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
def import_template_xlsx(request: HttpRequest) -> HttpResponse:
    """Download the XLSX template: the columns with an example row, and what each column means."""
    return _attachment(template_xlsx(user=request.user), "offerdesk-offers-template.xlsx")


@require_GET
def import_template_csv(request: HttpRequest) -> HttpResponse:
    """Download the CSV template: the header row and an example row."""
    return _attachment(template_csv(), "offerdesk-offers-template.csv")


@require_GET
def import_columns_csv(request: HttpRequest) -> HttpResponse:
    """Download the CSV explaining each column of the template."""
    return _attachment(guide_csv(user=request.user), "offerdesk-offers-columns.csv")


@reauth_required
@require_http_methods(["GET", "POST"])
def offer_import(request: HttpRequest) -> HttpResponse:
    """Add options from a spreadsheet: every row, or none with each bad cell named."""
    bound = request.method == "POST"
    form = OfferImportForm(request.POST if bound else None, request.FILES if bound else None)
    errors: list[str] = []
    if bound and form.is_valid():
        try:
            created = offers_import(user=request.user, raw=form.cleaned_data["file"].read())
        except OfferImportError as exc:
            errors = exc.errors
        else:
            messages.success(
                request,
                ngettext("%(n)s option imported.", "%(n)s options imported.", len(created))
                % {"n": len(created)},
            )
            return redirect("offers:offer_list")
    context = {
        "form": form,
        "import_errors": errors,
        "guide": column_guide(request.user),
        "help": IMPORT_HELP,
    }
    status = 400 if bound else 200
    return render(request, "offers/offer_import.html", context, status=status)
