"""Forms of the interviews app; model rules run through ModelForm validation."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.dates import date_refusal
from accounts.locking import VersionedForm
from accounts.widgets import LevelSelect, TimezoneInput, timezone_names
from compensation.form_fields import TEXT_MAX_LENGTH, checked_formfield
from compensation.selectors import level_list
from interviews import selectors
from interviews.models import Debrief, Process, Round, Stage, TeamMatch
from interviews.services import format_questions, parse_questions

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
LOCAL_FORMAT = "%Y-%m-%dT%H:%M"


@cache
def timezone_choices() -> list[tuple[str, str]]:
    """Return IANA zone names, UTC then grouped regions (Africa/..., America/...)."""
    return [(n, n) for n in timezone_names()]


def edited_fields(model: type[models.Model]) -> list[str]:
    """Return the fields a form of ``model`` edits: every editable one, in the model's order,
    but its owner and its process (the page's)."""
    skip = {"id", "owner", "process"}
    return [f.name for f in model._meta.concrete_fields if f.editable and f.name not in skip]


class LocalDateTimeField(forms.Field):
    """A wall-clock date and time, kept naive: the zone comes from another field."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_FORMAT)
    default_error_messages = {"invalid": _("Enter a date and time, e.g. 2026-03-06 10:00.")}

    def to_python(self, value: Any) -> datetime | None:
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value.replace(tzinfo=None)
        try:
            return datetime.fromisoformat(str(value).strip()).replace(tzinfo=None, second=0)
        except ValueError as exc:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from exc


class ProcessForm(VersionedForm):
    class Meta:
        model = Process
        fields = edited_fields(Process)
        formfield_callback = checked_formfield
        widgets = {
            "first_contact": DATE,
            "deadline": DATE,
            "notes": forms.Textarea(attrs={"rows": 3}),
            # Options carry their company; static/js/forms.js shows the chosen company's only.
            "target_level": LevelSelect,
            "offered_level": LevelSelect,
        }

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.owner = user
        self.fields["company"].queryset = selectors.company_choices(user=user)
        levels = level_list(user=user)
        self.fields["target_level"].queryset = levels
        self.fields["offered_level"].queryset = levels
        if self.instance.pk:
            # The stage moves through the board so that its history stays complete.
            del self.fields["stage"]


class RoundForm(VersionedForm):
    scheduled_at = LocalDateTimeField(
        label=_("Scheduled at (local time)"),
        required=False,
        help_text=_("Wall-clock time in the chosen time zone."),
    )
    timezone = forms.ChoiceField(
        label=_("Time zone"),
        choices=timezone_choices,
        widget=TimezoneInput,
        help_text=_("Type to search, e.g. Taipei or Los_Angeles."),
        error_messages={
            "invalid_choice": _("Unknown time zone %(value)s; pick an IANA name like Asia/Taipei.")
        },
    )
    questions = forms.CharField(
        label=_("Questions and topics"),
        required=False,
        max_length=TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One a line, tags after #: 'Design a feature store #ml design #infra'."),
    )
    self_assessment = forms.TypedChoiceField(
        label=_("Self-assessment"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "—"), *[(i, str(i)) for i in range(1, 6)]],
    )

    class Meta:
        model = Round
        fields = edited_fields(Round)
        formfield_callback = checked_formfield
        widgets = {
            "interviewer_background": forms.Textarea(attrs={"rows": 2}),
            "feedback": forms.Textarea(attrs={"rows": 3}),
        }
        error_messages = {
            "signal": {"invalid_choice": _("%(value)s is not a signal; pick one from the list.")},
            "kind": {"invalid_choice": _("%(value)s is not a round kind.")},
        }

    def __init__(
        self, *args: Any, process: Process, default_timezone: str = "UTC", **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.instance.process = process
        self.instance.owner_id = process.owner_id
        if "order" in self.fields:
            self.fields["order"].required = False
        if self.instance.pk:
            local = self.instance.scheduled_local
            self.initial["scheduled_at"] = local.replace(tzinfo=None) if local else None
            if "questions" in self.fields:
                self.initial["questions"] = format_questions(list(self.instance.questions.all()))
        else:
            self.initial.setdefault("timezone", default_timezone)
            if "order" in self.fields:
                # Rounds added one after another number on: #1, #2, #3.
                self.initial.setdefault("order", selectors.round_next_order(process))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "order" in self.fields and not data.get("order") and self.instance.pk:
            data["order"] = self.instance.order  # left blank: keep the round's place
        local, tz_name = data.get("scheduled_at"), data.get("timezone")
        if local is not None and (refusal := date_refusal(local)):
            # Within the range every form and the restore take (far dates overflow when moved
            # between zones: 9999-12-31 23:59 in America/Adak).
            self.add_error("scheduled_at", refusal)
        elif local is not None and tz_name:
            zone = zoneinfo.ZoneInfo(tz_name)
            aware = local.replace(tzinfo=zone)
            utc = aware.astimezone(UTC)
            if utc.astimezone(zone).replace(tzinfo=None) != local:
                self.add_error(
                    "scheduled_at",
                    _("%(time)s does not exist in %(zone)s (clocks skip it for DST).")
                    % {"time": local.strftime("%Y-%m-%d %H:%M"), "zone": tz_name},
                )
            elif refusal := date_refusal(utc):
                # Stored in UTC, as a restore reads it: the range's last evening west of UTC
                # is already past it.
                self.add_error("scheduled_at", refusal)
            else:
                data["scheduled_at"] = utc
        elif local is not None and not tz_name:
            data["scheduled_at"] = None
        return data

    def question_inputs(self) -> list[tuple[str, str]] | None:
        """Return the parsed questions, or None when the form has no questions field."""
        if "questions" not in self.fields:
            return None
        return parse_questions(self.cleaned_data.get("questions") or "")


class QuickRoundForm(RoundForm):
    """The few fields needed to put a round on the timeline."""

    class Meta(RoundForm.Meta):
        fields = [
            "kind",
            "scheduled_at",
            "timezone",
            "duration_minutes",
            "mode",
            "interviewer_name",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("questions", "self_assessment", "version"):
            self.fields.pop(name, None)


class DebriefForm(VersionedForm):
    class Meta:
        model = Debrief
        fields = edited_fields(Debrief)
        formfield_callback = checked_formfield
        widgets = {"held_on": DATE, "notes": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, process: Process, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.process = process
        self.instance.owner_id = process.owner_id
        self.fields["level_decided"].queryset = process.company.levels.order_by("order")


class TeamMatchForm(VersionedForm):
    time_zone = forms.ChoiceField(
        label=_("Team time zone"),
        required=False,
        choices=lambda: [("", "—"), *timezone_choices()],
        widget=TimezoneInput,
        help_text=_("Type to search, e.g. Singapore or Los_Angeles."),
        error_messages={
            "invalid_choice": _(
                "Unknown time zone %(value)s; pick an IANA name like Asia/Singapore."
            )
        },
    )

    class Meta:
        model = TeamMatch
        fields = edited_fields(TeamMatch)
        formfield_callback = checked_formfield
        widgets = {
            "scope": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(
        self, *args: Any, process: Process, default_timezone: str = "", **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.instance.process = process
        self.instance.owner_id = process.owner_id
        if not self.instance.pk and default_timezone:
            self.initial.setdefault("time_zone", default_timezone)


class MoveStageForm(forms.Form):
    stage = forms.ChoiceField(label=_("Move to"), choices=Stage.choices)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class QuestionFilterForm(forms.Form):
    tag = forms.CharField(label=_("Tag"), required=False, max_length=60)
    company = forms.ModelChoiceField(
        label=_("Company"), required=False, queryset=None, empty_label="—"
    )
    kind = forms.ChoiceField(
        label=_("Round kind"), required=False, choices=[("", "—"), *Round.Kind.choices]
    )
    text = forms.CharField(label=_("Text"), required=False, max_length=100)

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["company"].queryset = selectors.process_companies(user=user)
