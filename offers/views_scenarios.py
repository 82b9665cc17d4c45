"""Views for negotiation points and scenarios: what-ifs, flip finder, Monte Carlo, accept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import form_write, model_values
from accounts.http import is_htmx, method_refused
from accounts.locking import NO_VERSION, StaleEditError
from config.health import worker_missing
from offers import selectors, services
from offers.board import Board
from offers.board_cache import board_derived, board_get
from offers.forms import ScenarioForm
from offers.models import Offer, Scenario
from offers.negotiation import negotiation_for_offer, plan_view_for
from offers.scenarios.adjustments import VALUED_FIELDS
from offers.scenarios.evaluation import scenario_view
from offers.scenarios.figures import cumulative_figure, mc_fan_figure
from offers.scenarios.flip import flip_find
from offers.scenarios.points import plan_adjustments, point_adjustments

# The "Play it out" value that plays every ask of the plan at once (rule keys name one point).
PLAN = "plan"


class ScenarioCreateForm(forms.Form):
    """Pick an offer (and optionally the negotiation point to play out)."""

    offer = forms.ModelChoiceField(queryset=Offer.objects.none(), label=gettext_lazy("Offer"))
    name = forms.CharField(max_length=120, required=False, label=gettext_lazy("Name"))
    point = forms.SlugField(max_length=40, required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["offer"].queryset = Offer.objects.filter(owner=user).order_by("name", "id")


class FlipForm(forms.Form):
    """Which component to ask for, and whom to beat (empty: rank first)."""

    component = forms.ChoiceField(
        label=gettext_lazy("Ask for"),
        choices=[
            ("stock", gettext_lazy("Stock a year")),
            ("base", gettext_lazy("Base salary")),
            ("sign_on", gettext_lazy("Sign-on")),
        ],
    )
    rival = forms.ChoiceField(label=gettext_lazy("To beat"), required=False)

    def __init__(self, *args: Any, others: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rival"].choices = [("", _("every option (rank first)")), *others]


# Negotiation -----------------------------------------------------------------------------


def negotiation(request: HttpRequest, pk: int) -> HttpResponse:
    """List what to ask for on one offer, why, and what to say."""
    board = board_get(user=request.user)
    ev = next((e for e in board.evaluations if e.key == str(pk)), None)
    # The board holds only the user's options; anything else goes through the owner lookup.
    offer = ev.offer if ev is not None else selectors.offer_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    view = plan_view_for(user=request.user, offer=offer, board=board)
    plan = view.plan if view is not None else None

    def playable(items: Any) -> list[tuple[Any, bool]]:
        """Return each ask or point with whether a scenario can play it out."""
        return [(i, point_adjustments(i.point, offer) is not None) for i in items]

    return render(
        request,
        "offers/negotiation.html",
        {
            "offer": offer,
            "plan": plan,
            "asks": playable(plan.asks) if plan else [],
            "background": playable(plan.background) if plan else [],
            "drafts": view.drafts if view is not None else (),
            "plan_playable": bool(plan and plan_adjustments(plan, offer)),
            "ev": ev,
            "prefs": board.prefs,
        },
    )


# Scenarios -------------------------------------------------------------------------------


@require_GET
def scenario_list(request: HttpRequest) -> HttpResponse:
    """List the scenarios grouped by offer, with a form to start a new one."""
    offers = list(selectors.offer_list(user=request.user))
    by_offer: dict[int, list[Scenario]] = {o.pk: [] for o in offers}
    for scenario in selectors.scenario_list(user=request.user).order_by("name", "id"):
        by_offer.setdefault(scenario.offer_id, []).append(scenario)
    groups = [(o, by_offer[o.pk]) for o in offers if by_offer[o.pk]]
    form = ScenarioCreateForm(user=request.user)
    return render(
        request,
        "offers/scenario_list.html",
        {"groups": groups, "form": form, "has_offers": bool(offers)},
    )


@require_POST
def scenario_create(request: HttpRequest) -> HttpResponse:
    """Create a scenario on an offer, pre-filled from a negotiation point if one is named."""
    form = ScenarioCreateForm(request.POST, user=request.user)
    if not form.is_valid():
        messages.error(request, _("Pick one of your offers to start a scenario."))
        return redirect("offers:scenario_list")
    offer = selectors.offer_get(user=request.user, pk=form.cleaned_data["offer"].pk)
    data: dict[str, Any] = {}
    if form.cleaned_data["point"] == PLAN:
        from_plan = services.scenario_create_from_plan(
            user=request.user,
            offer=offer,
            board=board_get(user=request.user),
            name=form.cleaned_data["name"],
        )
        if from_plan is not None:
            messages.success(request, _("Scenario “%(name)s” created.") % {"name": from_plan.name})
            return redirect("offers:scenario_detail", pk=from_plan.pk)
    elif form.cleaned_data["point"]:
        points = negotiation_for_offer(user=request.user, offer=offer)
        point = next((p for p in points if p.rule == form.cleaned_data["point"]), None)
        data = (point_adjustments(point, offer) if point else None) or {}
        if point is not None:
            label = pgettext("after a label", ": ")
            data["notes"] = f"{point.title}{label}{point.ask_term or ''}".strip()
    if form.cleaned_data["name"]:
        data["name"] = form.cleaned_data["name"]
    scenario = services.scenario_create(user=request.user, offer=offer, data=data)
    messages.success(request, _("Scenario “%(name)s” created.") % {"name": scenario.name})
    return redirect("offers:scenario_detail", pk=scenario.pk)


def _results_context(request: HttpRequest, scenario: Scenario) -> dict[str, Any]:
    """Return the figures of the scenario as it stands (saved or typed), with their HTML.

    The results are rendered once per board and state of the scenario (its adjustments, name
    and version are everything the partial shows besides the board) and kept with the board.
    """
    view = scenario_view(user=request.user, scenario=scenario)
    context: dict[str, Any] = {"scenario": scenario, "view": view, "prefs": view.prefs}
    state = repr(
        [scenario.pk, scenario.name, scenario.version]
        + [getattr(scenario, f) for f in VALUED_FIELDS]
    )

    def results_html(board: Board) -> str:
        if not view.ev.error:
            context["fig_cumulative"] = cumulative_figure(view)
        return render_to_string("offers/partials/scenario_results.html", context)

    context["results_html"] = board_derived(view.original, f"scenario-html:{state}", results_html)
    return context


def _detail_context(request: HttpRequest, scenario: Scenario, form: ScenarioForm) -> dict[str, Any]:
    context = _results_context(request, scenario)
    view = context["view"]
    others = [(e.key, e.offer.name) for e in view.others]
    flip_form = FlipForm(others=others)
    context.update({"form": form, "flip_form": flip_form, **_mc_context(scenario)})
    # Unbound forms depend on the board (the options, the levels) and on the saved scenario.
    if not form.is_bound:
        context["form_html"] = board_derived(
            view.original,
            f"scenario-form:{scenario.pk}:{scenario.version}:{scenario.updated_at}",
            lambda _board: render_to_string("partials/form_fields.html", {"form": form}),
        )
    context["flip_fields_html"] = board_derived(
        view.original,
        f"flip-form:{view.key}",
        lambda _board: render_to_string("partials/form_fields.html", {"form": flip_form}),
    )
    return context


def scenario_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a scenario against its original offer and every other option."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    form = ScenarioForm(instance=scenario, user=request.user)
    return render(request, "offers/scenario_detail.html", _detail_context(request, scenario, form))


@require_http_methods(["GET", "POST"])
def scenario_update(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the adjustments: live (htmx: figures only, nothing written) or saved (a version).

    A live update values the typed adjustments on the unsaved scenario (the form has copied
    them onto the instance) and writes nothing: only the Save button stores them, with a
    history entry.
    """
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    live = is_htmx(request)
    form = ScenarioForm(request.POST, instance=scenario, user=request.user)
    if form.is_valid():
        if live:
            context = _results_context(request, scenario)
            return HttpResponse(context["results_html"])
        written = form_write(
            form,
            lambda: services.scenario_update(
                user=request.user,
                scenario=scenario,
                data=model_values(form),
                expected_version=form.cleaned_data["version"],
            ),
        )
        if written == 200:
            messages.success(request, _("Scenario saved."))
            return redirect("offers:scenario_detail", pk=scenario.pk)
    fresh = selectors.scenario_get(user=request.user, pk=pk)
    if live:
        context = {"scenario": fresh, "form": form, "errors_only": True}
        return render(request, "offers/partials/scenario_results.html", context, status=400)
    return render(
        request,
        "offers/scenario_detail.html",
        _detail_context(request, fresh, form),
        status=409 if form.non_field_errors() else 200,
    )


@require_http_methods(["GET", "POST"])
def scenario_flip(request: HttpRequest, pk: int) -> HttpResponse:
    """Find the smallest ask that makes this offer rank first or beat a named option."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    others = [
        (str(o.pk), o.name)
        for o in selectors.offer_list(user=request.user)
        if o.pk != scenario.offer_id
    ]
    form = FlipForm(request.POST, others=others)
    if not form.is_valid():
        return render(
            request,
            "offers/partials/scenario_flip.html",
            {"flip_form": form, "scenario": scenario},
            status=400,
        )
    answer = flip_find(
        user=request.user,
        scenario=scenario,
        component=form.cleaned_data["component"],
        rival_key=form.cleaned_data["rival"] or None,
    )
    return render(
        request,
        "offers/partials/scenario_flip.html",
        {"flip_form": form, "scenario": scenario, "answer": answer},
    )


def _mc_context(scenario: Scenario) -> dict[str, Any]:
    """Return what the Monte Carlo partial shows besides the scenario: its figure, its waits."""
    # A run is queued by an update that stamps updated_at: the time it has waited since.
    queued = scenario.mc_status == Scenario.McStatus.QUEUED
    return {
        "scenario": scenario,
        "fig_mc": mc_fan_figure(scenario) if scenario.mc_result else None,
        "no_worker": queued and worker_missing(queued_at=scenario.updated_at),
        "stalled": services.scenario_mc_stalled(scenario),
    }


def _mc_posted(request: HttpRequest, pk: int, write: Callable[..., object]) -> HttpResponse:
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    write(user=request.user, scenario=scenario)
    if is_htmx(request):
        scenario.refresh_from_db()
        return render(request, "offers/partials/scenario_mc.html", _mc_context(scenario))
    return redirect("offers:scenario_detail", pk=scenario.pk)


@require_http_methods(["GET", "POST"])
def scenario_mc_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue the scenario's 200,000-path Monte Carlo."""
    return _mc_posted(request, pk, services.scenario_mc_start)


@require_http_methods(["GET", "POST"])
def scenario_mc_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Stop a queued or running Monte Carlo."""
    return _mc_posted(request, pk, services.scenario_mc_cancel)


@require_http_methods(["GET", "POST"])
def scenario_mc_restart(request: HttpRequest, pk: int) -> HttpResponse:
    """Start again a Monte Carlo whose worker stopped answering; any other run is left alone."""
    return _mc_posted(request, pk, services.scenario_mc_restart)


def scenario_mc_status(request: HttpRequest, pk: int) -> HttpResponse:
    """Return the Monte Carlo progress bar or result (polled by the page)."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "GET"):
        return refused
    return render(request, "offers/partials/scenario_mc.html", _mc_context(scenario))


@require_http_methods(["GET", "POST"])
def scenario_clone(request: HttpRequest, pk: int) -> HttpResponse:
    """Copy a scenario under a new name."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    copy = services.scenario_clone(user=request.user, scenario=scenario)
    messages.success(request, _("Copied to “%(name)s”.") % {"name": copy.name})
    return redirect("offers:scenario_detail", pk=copy.pk)


@require_http_methods(["GET", "POST"])
def scenario_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then move a scenario to the trash."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if request.method == "POST":
        services.scenario_delete(user=request.user, scenario=scenario)
        messages.success(
            request,
            _("“%(name)s” moved to the trash; you can restore it for 30 days.")
            % {"name": scenario.name},
        )
        return redirect("offers:scenario_list")
    return render(
        request, "offers/scenario_confirm_delete.html", {"object": scenario, "scenario": scenario}
    )


@require_http_methods(["GET", "POST"])
def scenario_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Make the scenario's terms the offer's new terms (the old ones stay in its history)."""
    scenario = selectors.scenario_get(user=request.user, pk=pk)
    if refused := method_refused(request, "POST"):
        return refused
    raw_version = request.POST.get("version", "")
    # The version the page showed: a second post of the same page, or a post after another
    # edit of the scenario, is refused and nothing is accepted.
    status = 200
    try:
        if not raw_version.isdigit():
            raise ValidationError(NO_VERSION)
        offer = services.scenario_accept(
            user=request.user, scenario=scenario, expected_version=int(raw_version)
        )
    except StaleEditError as exc:
        messages.error(request, str(exc))
        status = 409
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        status = 400
    except LookupError as error:  # no exchange rate between the pay and the stock currency
        messages.error(request, str(error))
        status = 400
    if status != 200:
        fresh = selectors.scenario_get(user=request.user, pk=pk)
        form = ScenarioForm(instance=fresh, user=request.user)
        return render(
            request,
            "offers/scenario_detail.html",
            _detail_context(request, fresh, form),
            status=status,
        )
    messages.success(
        request,
        _("“%(offer)s” now has the terms of “%(name)s”; the earlier terms are in its history.")
        % {"offer": offer.name, "name": scenario.name},
    )
    return redirect("offers:offer_detail", pk=offer.pk)
