"""Export page: comparison downloads, the report, backup and restore, and their background jobs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import is_htmx, method_refused
from accounts.idempotency import DuplicateSubmission, new_form_token
from accounts.models import TRASH_DAYS
from accounts.reauth import reauth_required
from config.health import worker_missing
from offers.board_cache import board_get
from offers.export import LARGE_OPTIONS, LARGE_ROUNDS
from offers.export.backup import BackupError, backup_bytes
from offers.export.comparison import SCHEMA_VERSION, comparison_build
from offers.export.formats import FORMAT_CHOICES, export_format
from offers.export.html import report_context
from offers.export.jobs import (
    backup_import_start,
    comparison_file,
    export_is_large,
    export_needs_job,
    job_create,
    job_path,
    job_restart,
    job_stalled,
)
from offers.models import Job


class ExportForm(forms.Form):
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=FORMAT_CHOICES)


REPLACED_IN_TRASH = gettext_lazy(
    "The data it replaced is in the trash for %(days)s days: restore it from there to undo."
)


class ImportForm(forms.Form):
    ADD, REPLACE = "add", "replace"

    file = forms.FileField(
        label=gettext_lazy("Backup file (.json)"),
        help_text=gettext_lazy("A file made with “Download all my data”."),
    )
    mode = forms.ChoiceField(
        label=gettext_lazy("What to do with the data you have now"),
        choices=[
            (ADD, gettext_lazy("Add the backup to my data")),
            (REPLACE, gettext_lazy("Replace my data with this backup")),
        ],
        initial=ADD,
        # Not sent (a page opened before replacing existed): add, as it did.
        required=False,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Add: a company, place or FX rate you already have makes the restore stop, "
            "nothing added. Replace: everything you entered (options, packages, companies, "
            "places, FX rates, bands, scenarios, interviews, negotiation log, preferences) is "
            "deleted and the backup's data takes its place, in one step. What it replaces is "
            "kept in the trash for 30 days, from where you can put it back in one step."
        ),
    )
    confirm_replace = forms.BooleanField(
        label=gettext_lazy("I understand that replacing deletes all the data I have now"),
        required=False,
    )
    # One-time token: posting the same form twice restores the backup once.
    form_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.fields["form_token"].initial = new_form_token()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("mode") == self.REPLACE and not data.get("confirm_replace"):
            self.add_error(
                "confirm_replace",
                _("Tick this box to replace your data, or choose to add the backup to it."),
            )
        return data


def _attachment(data: bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _stamp() -> str:
    return timezone.localtime().strftime("%Y%m%d-%H%M")


def _page(request: HttpRequest, **extra: object) -> dict[str, object]:
    jobs = list(Job.objects.filter(owner=request.user, kind=Job.Kind.EXPORT)[:10])
    large = export_is_large(user=request.user)
    limits = {"large_options": LARGE_OPTIONS, "large_rounds": LARGE_ROUNDS}
    # schema_version: the JSON document's version, from where the writer defines it.
    versions = {"schema_version": SCHEMA_VERSION}
    return {"form": ExportForm(), "jobs": jobs, "large": large, **limits, **versions, **extra}


@require_GET
def export(request: HttpRequest) -> HttpResponse:
    """Show the export choices, recent background exports, backup and restore."""
    return render(request, "offers/export.html", _page(request))


@require_POST
@reauth_required(return_to="offers:export")
def export_start(request: HttpRequest) -> HttpResponse:
    """Download the comparison now, or start a background job when it is large."""
    form = ExportForm(request.POST)
    if not form.is_valid():
        return render(request, "offers/export.html", _page(request, form=form), status=400)
    fmt = form.cleaned_data["format"]
    if export_needs_job(user=request.user, fmt=fmt):
        job = job_create(user=request.user, kind=Job.Kind.EXPORT, format=fmt)
        messages.info(request, _("Your export is being prepared; this page shows its progress."))
        return redirect("offers:export_job", pk=job.pk)
    spec = export_format(fmt)
    data = comparison_file(user=request.user, fmt=fmt)
    return _attachment(data, spec.content_type, f"offerdesk-comparison-{_stamp()}.{spec.extension}")


@require_GET
@reauth_required
def export_report(request: HttpRequest) -> HttpResponse:
    """Show the printable report: ranking, charts, figures, assumptions, interviews."""
    return render(
        request,
        "offers/report.html",
        report_context(comparison_build(user=request.user, board=board_get(user=request.user))),
    )


def _own_job(request: HttpRequest, pk: int) -> Job:
    job = get_object_or_404(Job, pk=pk, owner=request.user)
    if request.method not in ("GET", "HEAD", "POST"):
        raise Http404
    return job


def export_job(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a background export's or restore's progress (polled by htmx), then its result."""
    job = _own_job(request, pk)
    template = "offers/export_job_status.html" if is_htmx(request) else "offers/export_job.html"
    # Still waiting for a worker, and none answers: the page says so. Or it stopped answering.
    no_worker = job.status == Job.Status.QUEUED and worker_missing(queued_at=job.created_at)
    waits = {"no_worker": no_worker, "stalled": job_stalled(job)}
    total = sum(job.counts.values())
    return render(
        request, template, {"job": job, **waits, "total": total, "trash_days": TRASH_DAYS}
    )


def export_job_restart(request: HttpRequest, pk: int) -> HttpResponse:
    """Start again a job whose worker stopped answering; any other job is left as it is."""
    job = _own_job(request, pk)  # someone else's job is a 404 before anything else
    if refused := method_refused(request, "POST"):
        return refused
    job_restart(job)
    return redirect("offers:export_job", pk=job.pk)


def export_job_download(request: HttpRequest, pk: int) -> HttpResponse:
    """Send the file of a finished background export to its owner (asks for the password)."""
    job = _own_job(request, pk)  # someone else's job is a 404 before anything else
    if job.kind != Job.Kind.EXPORT:
        raise Http404
    return _download(request, job)


@reauth_required
def _download(request: HttpRequest, job: Job) -> HttpResponse:
    if job.status != Job.Status.DONE:
        return redirect("offers:export_job", pk=job.pk)  # not ready: show its progress
    path = job_path(job)
    if not job.file_path or not path.is_file():
        raise Http404
    return FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=job.filename,
        content_type=export_format(job.format).content_type,
    )


@reauth_required
@require_http_methods(["GET", "POST"])
def backup_download(request: HttpRequest) -> HttpResponse:
    """Download everything the user owns as one JSON file (asks for the password first)."""
    return _attachment(
        backup_bytes(user=request.user), "application/json", f"offerdesk-backup-{_stamp()}.json"
    )


@reauth_required
@require_http_methods(["GET", "POST"])
def backup_import(request: HttpRequest) -> HttpResponse:
    """Restore a backup file into this account: all of it, or nothing with the reasons."""
    if request.method == "GET":
        return render(request, "offers/export_import.html", {"import_form": ImportForm()})
    form = ImportForm(request.POST, request.FILES)
    errors: list[str] = []
    try:
        if form.is_valid():
            return _restore(request, form.cleaned_data)
    except BackupError as exc:
        errors = exc.errors
    except DuplicateSubmission as exc:
        return _restore_sent_twice(request, exc.object_id)
    context = {"import_form": form, "import_errors": errors}
    return render(request, "offers/export_import.html", context, status=400)


def _restore(request: HttpRequest, data: dict[str, Any]) -> HttpResponse:
    """Restore the form's file now (then the export page) or in a job (then the job's page)."""
    if data["file"].size > settings.IMPORT_MAX_BYTES:
        mb = settings.IMPORT_MAX_BYTES // (1024 * 1024)
        raise BackupError([_("file: larger than the %(mb)s MB a backup may be") % {"mb": mb}])
    replace = data["mode"] == ImportForm.REPLACE
    raw, token = data["file"].read(), data["form_token"]
    started = backup_import_start(user=request.user, raw=raw, form_token=token, replace=replace)
    if isinstance(started, Job):  # in the background
        return redirect("offers:export_job", pk=started.pk)
    done = (
        _("Backup restored: your data was replaced by its %(n)s records.")
        if replace
        else _("Backup restored: %(n)s records added to your account.")
    )
    messages.success(request, done % {"n": started.total})
    if replace:
        messages.info(request, REPLACED_IN_TRASH % {"days": TRASH_DAYS})
    return redirect("offers:export")


def _restore_sent_twice(request: HttpRequest, job_id: int | None) -> HttpResponse:
    """Answer a second post of the same restore form: the first post's job, or its result."""
    if job_id is not None and Job.objects.filter(pk=job_id, owner=request.user).exists():
        return redirect("offers:export_job", pk=job_id)
    messages.info(request, _("This form was already sent: the backup was restored once."))
    return redirect("offers:export")
