"""Views for options, the dashboard, comparisons, preferences and history."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.charts import figure_json
from accounts.forms import form_add_service_errors, form_write, model_values
from accounts.history import history_for, revision_restore, snapshots_readable, trash_list
from accounts.http import method_refused
from accounts.idempotency import DuplicateSubmission
from accounts.models import TRASH_ACTIONS, TRASH_DAYS, Revision
from accounts.reauth import reauth_required
from compensation.plausibility import message_warnings
from compensation.selectors import package_get
from offers import board as valuation
from offers import charts, selectors, services
from offers.board_cache import board_cached, board_derived, board_get
from offers.board_hours import tz_strip, tz_strips_by_zone
from offers.export.backup import BackupError
from offers.export.formats import export_format
from offers.export.ledger_csv import ledger_csv_bytes
from offers.export.restore import replaced_data_restore
from offers.forms import COMMON_ZONES, OfferForm, PreferencesForm
from offers.ledger import ledger_view
from offers.letter import letter_value
from offers.logic import compare
from offers.middleware import SESSION_TZ_KEY
from offers.models import Offer, Preferences
from offers.verdict import board_verdict


def dashboard_board_context(board: valuation.Board, today: dt.date) -> dict[str, Any]:
    """Return what the dashboard shows from the board and the date (kept with the board)."""
    ok = [ev for _r, ev in board.ranked]
    context: dict[str, Any] = {
        "board": board,
        "prefs": board.prefs,
        "strips": board_derived(
            board, f"strips:{today}", lambda board: tz_strips_by_zone(ok, board.prefs, today)
        ),
        "verdict": board_verdict(board),
    }
    if ok:
        # Built and validated once per board, kept as the JSON the page embeds.
        for key, build in (
            ("fig_yearly", charts.yearly_by_component),
            ("fig_cumulative", charts.cumulative_with_bands),
            ("fig_scores", charts.score_contributions),
        ):
            context[key] = board_derived(board, key, lambda b, build=build: figure_json(build(b)))
    return context


def dashboard_context(request: HttpRequest) -> dict[str, Any]:
    """Return everything the dashboard shows."""
    from interviews.selectors import upcoming_deadlines, upcoming_rounds

    board = board_get(user=request.user)
    today = timezone.localdate()
    context = dashboard_board_context(board, today)
    # The ranking, charts, time zones and sensitivity: rendered once per board and date (they
    # read nothing of the request), the rest of the page around them on every request.
    context["board_html"] = board_derived(
        board,
        f"dashboard-html:{today}",
        lambda board: render_to_string("offers/partials/dashboard_board.html", context),
    )
    context.update(
        {
            "has_prefs": board.prefs.pk is not None,
            "rounds": list(upcoming_rounds(user=request.user, limit=6)),
            "deadlines": list(upcoming_deadlines(user=request.user)),
            "offer_deadlines": [
                e.offer for e in board.evaluations if e.offer.deadline and e.offer.deadline >= today
            ],
        }
    )
    return context


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """Show the ranked options, their money over time, time zones and what is coming up."""
    return render(request, "offers/dashboard.html", dashboard_context(request))


@require_GET
def offer_list(request: HttpRequest) -> HttpResponse:
    """List the user's options (from the cached board when there is one: no query)."""
    board = board_cached(user=request.user)
    offers = (
        [ev.offer for ev in board.evaluations]
        if board is not None
        else list(selectors.offer_list(user=request.user))
    )
    return render(request, "offers/offer_list.html", {"offers": offers})


def warn_implausible(request: HttpRequest, package: Any) -> None:
    """After a save, say when the package's entries look unusual (they are kept)."""
    prefs = Preferences.objects.filter(owner=request.user).first()
    message_warnings(
        request,
        package_get(user=request.user, pk=package.pk),
        home_currency=prefs.home_currency if prefs else None,
    )


@require_http_methods(["GET", "POST"])
def offer_create(request: HttpRequest) -> HttpResponse:
    """Add an option and its package in one form."""
    form = OfferForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            offer = services.offer_create(
                user=request.user,
                fields=form.offer_fields(),
                package_fields=form.package_fields(),
                change=form.terms_change(pay_currency=form.cleaned_data["currency"]),
                form_token=form.cleaned_data.get("form_token") or "",
            )
        except DuplicateSubmission as duplicate:
            messages.info(request, _("This form was already sent; it added one option."))
            if (
                duplicate.object_id
                and Offer.objects.filter(pk=duplicate.object_id, owner=request.user).exists()
            ):
                return redirect("offers:offer_detail", pk=duplicate.object_id)
            return redirect("offers:offer_list")
        except ValidationError as error:  # e.g. no exchange rate for the stock grant
            form_add_service_errors(form, error)
        else:
            messages.success(request, _("“%(name)s” added.") % {"name": offer.name})
            warn_implausible(request, offer.package)
            return redirect("offers:offer_detail", pk=offer.pk)
    return render(
        request,
        "offers/offer_form.html",
        {"form": form, "zones": COMMON_ZONES},
        status=400 if form.errors else 200,
    )


def offer_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show one option: its figures by year, its time-zone strip and its place in the ranking."""
    board = board_get(user=request.user)
    ev = next((e for e in board.evaluations if e.offer.pk == pk), None)
    # The board holds only the user's options; anything else goes through the owner lookup.
    offer = ev.offer if ev is not None else selectors.offer_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    ranked = next((r for r in board.ranking if r.key == str(offer.pk)), None)
    today = timezone.localdate()
    context = {
        "offer": offer,
        "ev": ev,
        "ranked": ranked,
        "prefs": board.prefs,
        "board": board,
    }

    def body(_board: valuation.Board) -> str:
        strip = tz_strip(offer, board.prefs, today)
        ledger = ledger_view(ev) if ev is not None else None
        letter = letter_value(board, ev) if ev is not None else None
        return render_to_string(
            "offers/partials/offer_detail_body.html",
            {**context, "strip": strip, "ledger": ledger, "letter": letter},
        )

    # Everything on the page but the frame comes from the board: rendered once per board.
    context["body_html"] = (
        board_derived(board, f"offer-html:{offer.pk}:{today}", body) if ev else body(board)
    )
    return render(request, "offers/offer_detail.html", context)


def offer_ledger_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Download an option's ledger as CSV: every line of its window, adding up to its headline."""
    board = board_get(user=request.user)
    ev = next((e for e in board.evaluations if e.offer.pk == pk), None)
    offer = ev.offer if ev is not None else selectors.offer_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    return _ledger_download(request, offer, ev)  # someone else's option was a 404 above


@reauth_required
def _ledger_download(
    request: HttpRequest, offer: Offer, ev: valuation.Evaluation | None
) -> HttpResponse:
    # An export of the figures, like every other: a password typed within REAUTH_SECONDS.
    view = ledger_view(ev) if ev is not None else None
    if view is None:
        return HttpResponse(
            _("This option cannot be evaluated yet, so it has no ledger."),
            status=409,
            content_type="text/plain; charset=utf-8",
        )
    # A CSV like the comparison's: its content type from the export formats' registry.
    response = HttpResponse(ledger_csv_bytes(view), content_type=export_format("csv").content_type)
    response["Content-Disposition"] = f'attachment; filename="offer-{offer.pk}-ledger.csv"'
    return response


@require_http_methods(["GET", "POST"])
def offer_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit an option; refuse the save if it changed in another tab since it was opened."""
    offer = selectors.offer_get(user=request.user, pk=pk)
    form = OfferForm(request.POST or None, instance=offer, user=request.user)
    written = None
    if request.method == "POST" and form.is_valid():
        written = form_write(
            form,
            lambda: services.offer_update(
                user=request.user,
                offer=offer,
                fields=form.offer_fields(),
                package_fields=form.package_fields(),
                expected_version=form.cleaned_data["version"],
                expected_package_version=form.cleaned_data["package_version"],
            ),
        )
        if written == 200:
            messages.success(request, _("Saved."))
            warn_implausible(request, offer.package)
            return redirect("offers:offer_detail", pk=offer.pk)
    return render(
        request,
        "offers/offer_form.html",
        {"form": form, "offer": offer, "zones": COMMON_ZONES},
        status=409 if written == 409 else 400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def offer_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then move an option to the trash."""
    offer = selectors.offer_get(user=request.user, pk=pk)
    if request.method == "POST":
        services.offer_delete(user=request.user, offer=offer)
        messages.success(
            request,
            _("“%(name)s” moved to the trash; you can restore it for 30 days.")
            % {"name": offer.name},
        )
        return redirect("offers:offer_list")
    return render(request, "offers/confirm_delete.html", {"object": offer, "cancel": offer})


@require_GET
def offer_compare(request: HttpRequest) -> HttpResponse:
    """Compare two options side by side: difference per year and per component."""
    board = board_get(user=request.user)
    evs = [e for e in board.evaluations if not e.error]
    if len(evs) < 2:
        return render(request, "offers/compare.html", {"evs": evs, "board": board})
    by_pk = {str(e.offer.pk): e for e in evs}
    a = by_pk.get(request.GET.get("a", "")) or board.evaluation(board.ranking[0].key)
    b = by_pk.get(request.GET.get("b", "")) or next(
        e for e in (board.evaluation(r.key) for r in board.ranking) if e is not a
    )
    if a is b:
        b = next(e for e in evs if e is not a)
    shown = valuation.shown_columns(board.basis, (a, b))
    years = min(len(a.values), len(b.values))
    columns = [(comp, a.component(comp), b.component(comp)) for comp in shown]
    rows = [
        {"year": i + 1, "cells": [(comp, va[i], vb[i], va[i] - vb[i]) for comp, va, vb in columns]}
        for i in range(years)
    ]
    a_sums = compare.column_totals([a.component(c) for c in shown], years)
    b_sums = compare.column_totals([b.component(c) for c in shown], years)
    context = {
        "board": board,
        "evs": evs,
        "a": a,
        "b": b,
        "rows": rows,
        # Each option's headline a year, the difference and the running totals.
        "side_by_side": compare.side_by_side(a.values, b.values),
        # The window's sum of each column, A minus B (the cumulative row under the years).
        "cumulative": [
            (comp, sa, sb, sa - sb) for comp, sa, sb in zip(shown, a_sums, b_sums, strict=True)
        ],
        # Built once per board and pair (a figure costs more than the rest of the page).
        "fig_diff": board_derived(
            board,
            f"compare-fig:{a.key}:{b.key}",
            lambda _board: figure_json(charts.comparison_diff(a, b, board.prefs.home_currency)),
        ),
        "components": [(c, charts.component_label(c)) for c in shown],
    }
    return render(request, "offers/compare.html", context)


@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """Edit how money is weighed against remote work, time zone and growth."""
    prefs = selectors.preferences_get(user=request.user)
    form = PreferencesForm(request.POST or None, instance=prefs)
    written = None
    if request.method == "POST" and form.is_valid():
        written = form_write(
            form,
            lambda: services.preferences_save(
                user=request.user,
                data=model_values(form),
                expected_version=form.cleaned_data.get("version") if prefs.pk else None,
            ),
        )
        if written == 200:
            request.session[SESSION_TZ_KEY] = form.cleaned_data["home_timezone"]
            messages.success(request, _("Preferences saved; the ranking is updated."))
            return redirect("offers:dashboard")
    if prefs.pk and written != 409:
        form.fields["version"].initial = prefs.version
    status = 409 if written == 409 else 400 if form.errors else 200
    return render(
        request, "offers/preferences.html", {"form": form, "zones": COMMON_ZONES}, status=status
    )


def offer_history(request: HttpRequest, pk: int) -> HttpResponse:
    """List the saved versions of an option."""
    offer = selectors.offer_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    revisions = list(history_for(user=request.user, obj=offer))
    readable = snapshots_readable(user=request.user, snapshots=[r.snapshot for r in revisions])
    return render(
        request,
        "offers/history.html",
        {"offer": offer, "revisions": list(zip(revisions, readable, strict=True))},
    )


def revision_restore_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Restore a saved version or undo a deletion."""
    revision = get_object_or_404(Revision, pk=pk, owner=request.user)
    if refused := method_refused(request, "POST"):
        return refused
    if revision.action in TRASH_ACTIONS and not revision.in_trash:
        raise Http404
    if revision.is_replaced_data:
        return _replaced_data_restore(request, revision)
    try:
        obj = revision_restore(user=request.user, revision=revision)
    except ValidationError as error:  # a required link was deleted since
        messages.error(request, " ".join(error.messages))
        return redirect("offers:trash")
    messages.success(request, _("Restored “%(obj)s”.") % {"obj": obj})
    if isinstance(obj, Offer):
        return redirect("offers:offer_detail", pk=obj.pk)
    return redirect("offers:trash")


def _replaced_data_restore(request: HttpRequest, revision: Revision) -> HttpResponse:
    """Put back the data a restore replaced; the data there now goes to the trash."""
    when = formats.date_format(timezone.localtime(revision.created_at), "DATETIME_FORMAT")
    try:
        result = replaced_data_restore(user=request.user, revision=revision)
    except BackupError as error:
        messages.error(
            request,
            _("Your data from before the restore of %(when)s could not be put back: %(why)s")
            % {"when": when, "why": "; ".join(error.errors)},
        )
        return redirect("offers:trash")
    messages.success(
        request,
        _(
            "Your data from before the restore of %(when)s is back (%(n)s records); the data "
            "it replaced is in the trash."
        )
        % {"when": when, "n": result.total},
    )
    return redirect("offers:dashboard")


@require_GET
def trash(request: HttpRequest) -> HttpResponse:
    """List deletions that can still be undone."""
    items = trash_list(user=request.user)
    return render(request, "offers/trash.html", {"items": items, "days": TRASH_DAYS})
