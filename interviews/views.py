"""Pages of the interviews app: board, process pages, rounds, questions, analytics, calendar."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from accounts.forms import form_add_service_errors, form_status, form_write, model_values
from accounts.http import is_htmx, method_refused
from accounts.reauth import reauth_required
from accounts.selectors import calendar_feed_on, calendar_feed_owner
from accounts.services import calendar_feed_off, calendar_feed_reset
from interviews import analytics, prep, selectors, services
from interviews.forms import (
    DebriefForm,
    MoveStageForm,
    ProcessForm,
    QuestionFilterForm,
    QuickRoundForm,
    RoundForm,
    TeamMatchForm,
)
from interviews.ics import CalendarEvent, calendar_text
from interviews.models import FUNNEL_STAGES, Process, Round, Signal, Stage


def _home_timezone(request: HttpRequest) -> str:
    """Return the user's home zone (saved or proposed) that new rounds start from."""
    return getattr(request, "home_timezone", "") or timezone.get_current_timezone_name()


def _bad_request_status(request: HttpRequest) -> int:
    return 400 if is_htmx(request) else 200


def _edited(
    request: HttpRequest,
    form: forms.BaseModelForm,
    write: Callable[[dict[str, Any]], object],
    *,
    process: Process,
    done: str,
    template: str,
    context: dict[str, Any],
) -> HttpResponse:
    """Write a posted edit through its service (``write`` takes the form's model values): the
    process page with ``done`` said, else the form again (409: another tab saved first)."""
    saved = None
    if request.method == "POST" and form.is_valid():
        data = model_values(form)
        saved = form_write(form, lambda: write(data))
        if saved == 200:
            messages.success(request, done)
            return redirect("interviews:process_detail", pk=process.pk)
    status = form_status(form, saved, htmx=is_htmx(request))
    return render(request, template, {"form": form, "process": process, **context}, status=status)


def _confirm_delete(
    request: HttpRequest, obj: object, process_pk: int, consequence: str = ""
) -> HttpResponse:
    """Ask before moving ``obj`` to the trash (cancel: back to its process's page)."""
    cancel_url = reverse("interviews:process_detail", args=[process_pk])
    context = {"object": obj, "cancel_url": cancel_url, "consequence": consequence}
    return render(request, "interviews/confirm_delete.html", context)


# Board ----------------------------------------------------------------------------------


def _board_context(request: HttpRequest) -> dict[str, Any]:
    columns = selectors.process_board(user=request.user)
    following = {s: FUNNEL_STAGES[i + 1] for i, s in enumerate(FUNNEL_STAGES[:-1])}
    for column in columns:
        for process in column["processes"]:
            process.advance_to = following.get(process.stage)
            process.advance_label = Stage(process.advance_to).label if process.advance_to else ""
    return {
        "columns": columns,
        "stage_choices": Stage.choices,
        "process_count": sum(len(c["processes"]) for c in columns),
    }


def board(request: HttpRequest) -> HttpResponse:
    """Show the user's processes in one column a stage."""
    return render(request, "interviews/board.html", _board_context(request))


def process_move(request: HttpRequest, pk: int) -> HttpResponse:
    """Move a process to another stage (htmx swaps the board)."""
    process = selectors.process_get_bare(user=request.user, pk=pk)
    if denied := method_refused(request, "POST"):
        return denied
    form = MoveStageForm(request.POST)
    status = 200
    if form.is_valid():
        try:
            services.process_move_stage(
                user=request.user,
                process=process,
                stage=form.cleaned_data["stage"],
                note=form.cleaned_data["note"],
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            status = 400
    else:
        messages.error(request, _("Pick a stage from the list."))
        status = 400
    if is_htmx(request):
        context = _board_context(request)
        context["move_error"] = status != 200
        return render(request, "interviews/partials/board.html", context, status=status)
    if request.POST.get("next") == "detail":
        return redirect("interviews:process_detail", pk=process.pk)
    return redirect("interviews:board")


# Processes ------------------------------------------------------------------------------


def process_create(request: HttpRequest) -> HttpResponse:
    """Create a process."""
    form = ProcessForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = model_values(form)
        try:
            process = services.process_create(user=request.user, **data)
        except ValidationError as exc:
            form_add_service_errors(form, exc)
        else:
            messages.success(request, _("Process added."))
            return redirect("interviews:process_detail", pk=process.pk)
    return render(
        request, "interviews/process_form.html", {"form": form, "title": _("New process")}
    )


def process_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a process: its stage history, rounds on a timeline, debrief and team matches."""
    process = selectors.process_get(user=request.user, pk=pk)
    return render(request, "interviews/process_detail.html", _detail_context(request, process))


def _detail_context(
    request: HttpRequest, process: Process, quick_form: QuickRoundForm | None = None
) -> dict[str, Any]:
    rounds = list(process.rounds.all())
    stated = [r for r in rounds if r.stated_comp]
    return {
        "process": process,
        "rounds": rounds,
        "stated_rounds": stated,
        "debrief": getattr(process, "debrief", None),
        "quick_form": quick_form
        or QuickRoundForm(process=process, default_timezone=_home_timezone(request)),
        "move_form": MoveStageForm(initial={"stage": process.stage}),
    }


def process_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a process (not its stage: that moves through the board)."""
    process = selectors.process_get(user=request.user, pk=pk)
    form = ProcessForm(request.POST or None, instance=process, user=request.user)
    return _edited(
        request,
        form,
        lambda data: services.process_update(
            user=request.user, process=process, expected_version=form.expected_version(), data=data
        ),
        process=process,
        done=_("Process saved."),
        template="interviews/process_form.html",
        context={"title": _("Edit process")},
    )


def process_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then move a process with its rounds, debrief and team matches to the trash."""
    process = selectors.process_get(user=request.user, pk=pk)
    if request.method == "POST":
        services.process_delete(user=request.user, process=process)
        messages.success(request, _("Process moved to the trash; you can restore it for 30 days."))
        return redirect("interviews:board")
    r, m = len(process.rounds.all()), len(process.team_matches.all())
    goes = _("Its %(rounds)s, debrief and %(matches)s go with it.") % {
        "rounds": ngettext("%(n)s round", "%(n)s rounds", r) % {"n": r},
        "matches": ngettext("%(n)s team match", "%(n)s team matches", m) % {"n": m},
    }
    return _confirm_delete(request, process, process.pk, goes)


# Rounds ---------------------------------------------------------------------------------


def round_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a round: the quick form (htmx, on the process page) or the full form."""
    process = selectors.process_get(user=request.user, pk=pk)
    quick = request.POST.get("quick") == "1"
    form_class = QuickRoundForm if quick else RoundForm
    form = form_class(
        request.POST or None, process=process, default_timezone=_home_timezone(request)
    )
    if request.method == "POST" and form.is_valid():
        data = model_values(form)
        try:
            services.round_create(
                user=request.user, process=process, questions=form.question_inputs() or (), **data
            )
        except ValidationError as exc:
            form_add_service_errors(form, exc)
    if request.method == "POST" and form.is_valid():
        if is_htmx(request):
            process = selectors.process_get(user=request.user, pk=pk)
            return render(
                request,
                "interviews/partials/rounds_section.html",
                _detail_context(request, process),
            )
        messages.success(request, _("Round added."))
        return redirect("interviews:process_detail", pk=process.pk)
    if request.method == "POST" and quick:
        context = _detail_context(request, process, quick_form=form)
        template = (
            "interviews/partials/rounds_section.html"
            if is_htmx(request)
            else "interviews/process_detail.html"
        )
        return render(request, template, context, status=_bad_request_status(request))
    return render(
        request,
        "interviews/round_form.html",
        {"form": form, "process": process, "title": _("New round")},
        status=_bad_request_status(request) if request.method == "POST" else 200,
    )


def round_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a round; refuse to overwrite a change made in another tab."""
    round_ = selectors.round_get(user=request.user, pk=pk)
    form = RoundForm(request.POST or None, instance=round_, process=round_.process)
    return _edited(
        request,
        form,
        lambda data: services.round_update(
            user=request.user,
            round_=round_,
            expected_version=form.expected_version(),
            data=data,
            questions=form.question_inputs(),
        ),
        process=round_.process,
        done=_("Round saved."),
        template="interviews/round_form.html",
        context={"round": round_, "title": _("Edit round")},
    )


def round_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then move a round and its questions to the trash."""
    round_ = selectors.round_get(user=request.user, pk=pk)
    if request.method == "POST":
        process_pk = round_.process_id
        services.round_delete(user=request.user, round_=round_)
        messages.success(request, _("Round moved to the trash."))
        return redirect("interviews:process_detail", pk=process_pk)
    return _confirm_delete(
        request, round_, round_.process_id, _("Its questions and notes go with it.")
    )


def round_brief(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the printable prep brief of a round: interviewer, likely topics, past questions."""
    round_ = selectors.round_get(user=request.user, pk=pk)
    brief = prep.round_brief(user=request.user, round_=round_)
    return render(
        request,
        "interviews/round_brief.html",
        {"brief": brief, "round": round_, "process": round_.process},
    )


# Debrief and team matches ---------------------------------------------------------------


def debrief_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Create or edit the debrief of a process."""
    process = selectors.process_get(user=request.user, pk=pk)
    debrief = getattr(process, "debrief", None)
    form = DebriefForm(request.POST or None, instance=debrief, process=process)
    return _edited(
        request,
        form,
        lambda data: services.debrief_save(
            user=request.user,
            process=process,
            data=data,
            expected_version=form.expected_version() if debrief else None,
        ),
        process=process,
        done=_("Debrief saved."),
        template="interviews/simple_form.html",
        context={"title": _("Debrief")},
    )


def team_match_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a team match to a process."""
    process = selectors.process_get(user=request.user, pk=pk)
    form = TeamMatchForm(
        request.POST or None, process=process, default_timezone=_home_timezone(request)
    )
    if request.method == "POST" and form.is_valid():
        data = model_values(form)
        try:
            services.team_match_create(user=request.user, process=process, **data)
        except ValidationError as exc:
            form_add_service_errors(form, exc)
        else:
            messages.success(request, _("Team match added."))
            return redirect("interviews:process_detail", pk=process.pk)
    return render(
        request,
        "interviews/simple_form.html",
        {"form": form, "process": process, "title": _("New team match")},
    )


def team_match_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a team match."""
    match = selectors.team_match_get(user=request.user, pk=pk)
    form = TeamMatchForm(request.POST or None, instance=match, process=match.process)
    return _edited(
        request,
        form,
        lambda data: services.team_match_update(
            user=request.user, match=match, expected_version=form.expected_version(), data=data
        ),
        process=match.process,
        done=_("Team match saved."),
        template="interviews/simple_form.html",
        context={"title": _("Edit team match")},
    )


def team_match_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then move a team match to the trash."""
    match = selectors.team_match_get(user=request.user, pk=pk)
    if request.method == "POST":
        services.team_match_delete(user=request.user, match=match)
        messages.success(request, _("Team match moved to the trash."))
        return redirect("interviews:process_detail", pk=match.process_id)
    return _confirm_delete(request, match, match.process_id)


# Questions, analytics, calendar ---------------------------------------------------------


def question_log(request: HttpRequest) -> HttpResponse:
    """List the questions asked, searchable by tag, company, round kind and text."""
    form = QuestionFilterForm(request.GET or None, user=request.user)
    filters: dict[str, Any] = {}
    if form.is_valid():
        company = form.cleaned_data.get("company")
        filters = {
            "tag": form.cleaned_data.get("tag") or "",
            "company_id": company.pk if company else None,
            "kind": form.cleaned_data.get("kind") or "",
            "text": form.cleaned_data.get("text") or "",
        }
    questions = selectors.question_search(user=request.user, **filters)
    return render(
        request,
        "interviews/question_log.html",
        {
            "form": form,
            "questions": questions,
            "tags": selectors.question_tags(user=request.user),
            "active_tag": filters.get("tag", ""),
        },
    )


def _labels() -> dict[str, str]:
    """Return the analytics' codes (stages, signals, round kinds, chart titles) in words."""
    choices = (*Stage.choices, *Signal.choices, *Round.Kind.choices)
    return {value: str(label) for value, label in choices} | {
        "title_funnel": _("Stages reached"),
        "title_signals": _("Signals by round kind"),
        "title_rounds": _("Rounds per company"),
        "title_days": _("Days from first contact to offer"),
    }


def analytics_page(request: HttpRequest) -> HttpResponse:
    """Show the funnel, signals by round kind, rounds per company, time to offer and levels."""
    processes, rounds = selectors.analytics_input(user=request.user)
    stats = analytics.interview_stats(processes, rounds)
    labels = _labels()
    return render(
        request,
        "interviews/analytics.html",
        {"stats": stats, "figures": analytics.stats_figures(stats, labels), "labels": labels},
    )


def _calendar_response(request: HttpRequest, user: Any) -> HttpResponse:
    """Return the user's upcoming rounds as an iCalendar body (times in UTC, so DST-proof)."""
    now = timezone.now()
    host = request.get_host().split(":")[0] or "offerdesk"
    base_url = request.build_absolute_uri("/").rstrip("/")
    events = []
    for r in selectors.calendar_rounds(user=user, now=now):
        local = r.scheduled_local
        brief_url = base_url + reverse("interviews:round_brief", args=[r.pk])
        interviewer = r.interviewer_name
        description_lines = [
            f"{r.get_kind_display()} — {r.process.role}",
            _("Entered as %(time)s %(zone)s")
            % {"time": f"{local:%Y-%m-%d %H:%M}", "zone": r.timezone},
            _("Interviewer: %(name)s") % {"name": interviewer} if interviewer else "",
            r.interviewer_background,
            _("Prep brief: %(url)s") % {"url": brief_url},
        ]
        events.append(
            CalendarEvent(
                uid=f"interview-round-{r.pk}@{host}",
                start=r.scheduled_at,
                end=r.scheduled_at + timedelta(minutes=r.duration_minutes),
                summary=f"{r.process.company.name}: {r.get_kind_display()}",
                description="\n".join(filter(None, description_lines)),
                location=r.get_mode_display(),
                url=brief_url,
            )
        )
    body = calendar_text(events, now=now, name=_("Offerdesk interviews"))
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@reauth_required  # an export, like every other (the subscription feed's key is its token)
def calendar_ics(request: HttpRequest) -> HttpResponse:
    """Download the upcoming rounds as an iCalendar (.ics) file."""
    response = _calendar_response(request, request.user)
    response["Content-Disposition"] = 'attachment; filename="interviews.ics"'
    return response


FEED_URL_SESSION_KEY = "calendar_feed_url"


# Exempt from CSRF, which has nothing to protect on a read-only page: a POST is answered 405 by
# require_safe instead of a 403 whose warning would write the URL, token and all, to the log.
@csrf_exempt
@login_not_required
@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """Serve a private calendar subscription: the token is the only key; read-only (GET, HEAD)."""
    owner = calendar_feed_owner(token=token)
    if owner is None:
        raise Http404
    response = _calendar_response(request, owner)
    response["Content-Disposition"] = 'inline; filename="interviews.ics"'
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_http_methods(["GET", "POST"])
def calendar_settings(request: HttpRequest) -> HttpResponse:
    """Show the calendar download and the private subscription link; reset or turn it off."""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "reset":
            token = calendar_feed_reset(user=request.user)
            url = request.build_absolute_uri(reverse("interviews:calendar_feed", args=[token]))
            request.session[FEED_URL_SESSION_KEY] = url
            messages.success(
                request, _("New subscription link made; any earlier link no longer works.")
            )
        elif action == "off":
            if calendar_feed_off(user=request.user):
                messages.success(request, _("Subscription turned off; its link no longer works."))
        else:
            return HttpResponseBadRequest(_("Unknown action."))
        return redirect("interviews:calendar_settings")
    context = {
        "feed": calendar_feed_on(user=request.user),
        # Shown once, right after it was made: only the token's hash is stored.
        "feed_url": request.session.pop(FEED_URL_SESSION_KEY, None),
    }
    return render(request, "interviews/calendar.html", context)
