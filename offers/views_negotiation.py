"""Views of the negotiation log (per option) and of the timeline across companies."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import form_write, model_values
from accounts.http import is_htmx
from offers import selectors, selectors_negotiation, services_negotiation
from offers.forms_negotiation import NegotiationAnswerForm, NegotiationEntryForm
from offers.timeline import timeline_for


def _posted(request: HttpRequest, form: forms.BaseForm, write: Callable[[], object]) -> int:
    """Return the status of the page: a post's through the service's write (`form_write`),
    400 for a form with errors; 200 for a GET."""
    if request.method != "POST":
        return 200
    return form_write(form, write) if form.is_valid() else 400


@require_http_methods(["GET", "POST"])
def negotiation_log(request: HttpRequest, pk: int) -> HttpResponse:
    """Show an option's negotiation log and log a new ask (htmx: the log section only)."""
    offer = selectors.offer_get(user=request.user, pk=pk)
    form = NegotiationEntryForm(request.POST or None, offer=offer)
    status = _posted(
        request,
        form,
        lambda: services_negotiation.negotiation_entry_create(
            user=request.user,
            offer=offer,
            data=model_values(form),
            expected_offer_version=form.cleaned_data["offer_version"],
            expected_package_version=form.cleaned_data["package_version"],
        ),
    )
    if request.method == "POST" and status == 200:
        if not is_htmx(request):
            messages.success(request, _("Logged."))
            return redirect("offers:negotiation_log", pk=offer.pk)
        offer = selectors.offer_get(user=request.user, pk=pk)
        form = NegotiationEntryForm(offer=offer)
    entries = selectors_negotiation.negotiation_entry_list(user=request.user, offer_id=offer.pk)
    context = {"offer": offer, "entries": list(entries), "form": form}
    template = (
        "offers/partials/negotiation_log.html"
        if is_htmx(request)
        else "offers/negotiation_log.html"
    )
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def negotiation_entry_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """Record what came back on an ask; revised terms make a new version of the offer."""
    entry = selectors_negotiation.negotiation_entry_get(user=request.user, pk=pk)
    offer = entry.offer
    form = NegotiationAnswerForm(request.POST or None, instance=entry, offer=offer)
    status = _posted(
        request,
        form,
        lambda: services_negotiation.negotiation_entry_answer(
            user=request.user,
            entry=entry,
            data=model_values(form),
            expected_version=form.cleaned_data["version"],
            expected_offer_version=form.cleaned_data["offer_version"],
            expected_package_version=form.cleaned_data["package_version"],
        ),
    )
    if request.method == "POST" and status == 200:
        messages.success(request, _("Answer recorded."))
        return redirect("offers:negotiation_log", pk=offer.pk)
    return render(
        request,
        "offers/negotiation_answer.html",
        {"form": form, "entry": entry, "offer": offer},
        status=status,
    )


@require_http_methods(["GET", "POST"])
def negotiation_entry_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then move a log entry to the trash (the offer's terms stay as they are)."""
    entry = selectors_negotiation.negotiation_entry_get(user=request.user, pk=pk)
    if request.method == "POST":
        services_negotiation.negotiation_entry_delete(user=request.user, entry=entry)
        messages.success(request, _("Moved to the trash; you can restore it for 30 days."))
        return redirect("offers:negotiation_log", pk=entry.offer_id)
    return render(request, "offers/confirm_delete.html", {"object": entry, "cancel": entry.offer})


@require_GET
def timeline(request: HttpRequest) -> HttpResponse:
    """Show every deadline and next round across companies, with the asks that align them."""
    page = timeline_for(user=request.user)
    asks = [
        (ask, page.offers.get(ask.offer_key), page.asked.get(ask.offer_key))
        for ask in page.timeline.asks
    ]
    return render(
        request,
        "offers/timeline.html",
        {"page": page, "events": page.timeline.events, "asks": asks},
    )
