"""Interview processes, their stage history, rounds, questions, debriefs and team matches."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


def timezone_validator(value: str) -> None:
    """Reject names that are not IANA time zones."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(
            _("Unknown time zone %(tz)s; use an IANA name like Asia/Taipei."),
            code="unknown_timezone",
            params={"tz": value},
        ) from exc


def _level(verbose_name: str | Promise) -> models.ForeignKey:
    """Return a field for a level of the process's company (emptied if the level goes)."""
    return models.ForeignKey(
        "compensation.Level",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=verbose_name,
    )


def _in_choices(field: str, choices: type[models.Choices], name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__in": choices.values}), name=name)


class Stage(models.TextChoices):
    """Where a process stands; the first nine form the funnel, the last five are endings."""

    APPLIED = "applied", _("Applied")
    RECRUITER_SCREEN = "recruiter_screen", _("Recruiter screen")
    PHONE_SCREEN = "phone_screen", _("Phone screen")
    ONSITE = "onsite", _("Onsite")
    DEBRIEF = "debrief", _("Debrief")
    TEAM_MATCH = "team_match", _("Team match")
    OFFER = "offer", _("Offer")
    NEGOTIATING = "negotiating", _("Negotiating")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    REJECTED = "rejected", _("Rejected")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    GHOSTED = "ghosted", _("Ghosted")


FUNNEL_STAGES: tuple[str, ...] = tuple(Stage)[:9]  # applied .. accepted
TERMINAL_STAGES: tuple[str, ...] = tuple(Stage)[8:]  # accepted and every other ending


class Signal(models.TextChoices):
    """Hiring signal of one round, strongest first."""

    STRONG_HIRE = "strong_hire", _("Strong Hire")
    HIRE = "hire", _("Hire")
    LEAN_HIRE = "lean_hire", _("Lean Hire")
    LEAN_NO_HIRE = "lean_no_hire", _("Lean No Hire")
    NO_HIRE = "no_hire", _("No Hire")
    STRONG_NO_HIRE = "strong_no_hire", _("Strong No Hire")
    UNKNOWN = "unknown", _("Unknown")


POSITIVE_SIGNALS = (Signal.STRONG_HIRE, Signal.HIRE, Signal.LEAN_HIRE)
NEGATIVE_SIGNALS = (Signal.LEAN_NO_HIRE, Signal.NO_HIRE, Signal.STRONG_NO_HIRE)


class ProcessSource(models.TextChoices):
    REFERRAL = "referral", _("Referral")
    RECRUITER = "recruiter", _("Recruiter outreach")
    INBOUND = "inbound", _("Inbound application")
    INTERNAL_TRANSFER = "internal_transfer", _("Internal transfer")


class Priority(models.IntegerChoices):
    HIGH = 1, _("High")
    MEDIUM = 2, _("Medium")
    LOW = 3, _("Low")


class Process(models.Model):
    """One interview loop with one company, for one role."""

    Source = ProcessSource
    Priority = Priority

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="interview_processes"
    )
    company = models.ForeignKey(
        "compensation.Company",
        on_delete=models.PROTECT,
        related_name="interview_processes",
        verbose_name=_("company"),
    )
    role = models.CharField(_("role"), max_length=120)
    team = models.CharField(_("team"), max_length=120, blank=True)
    source = models.CharField(
        _("source"), max_length=20, choices=Source.choices, default=Source.RECRUITER
    )
    recruiter = models.CharField(_("recruiter"), max_length=120, blank=True)
    referrer = models.CharField(_("referrer"), max_length=120, blank=True)
    target_level = _level(_("target level"))
    offered_level = _level(_("offered level"))
    stage = models.CharField(
        _("stage"), max_length=20, choices=Stage.choices, default=Stage.APPLIED, db_index=True
    )
    first_contact = models.DateField(_("first contact"), default=timezone.localdate)
    next_step = models.CharField(_("next step"), max_length=200, blank=True)
    deadline = models.DateField(_("deadline"), null=True, blank=True)
    priority = models.PositiveSmallIntegerField(
        _("priority"), choices=Priority.choices, default=Priority.MEDIUM
    )
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["priority", "company__name", "role", "id"]
        verbose_name_plural = "processes"
        constraints = [
            _in_choices("stage", Stage, "process_stage_valid"),
            _in_choices("source", ProcessSource, "process_source_valid"),
            models.CheckConstraint(
                condition=Q(priority__gte=1, priority__lte=3), name="process_priority_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.company.name} — {self.role}"

    def clean(self) -> None:
        """Check the company is shared or the owner's, and both levels are on its ladder."""
        errors: dict[str, str] = {}
        if self.company_id is not None and self.owner_id is not None:
            company_owner = self.company.owner_id
            if company_owner is not None and company_owner != self.owner_id:
                errors["company"] = _("Pick a shared company or one of your own.")
        for field in ("target_level", "offered_level"):
            level = getattr(self, field)
            if level is not None and self.company_id and level.company_id != self.company_id:
                errors[field] = _("Pick a level on %(company)s's ladder.") % {
                    "company": self.company.name
                }
        if errors:
            raise ValidationError(errors)


class StageChange(models.Model):
    """One entry of a process's append-only stage history."""

    process = models.ForeignKey(Process, on_delete=models.CASCADE, related_name="stage_changes")
    stage = models.CharField(_("stage"), max_length=20, choices=Stage.choices)
    changed_on = models.DateField(_("date"), default=timezone.localdate)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["changed_on", "id"]
        constraints = [_in_choices("stage", Stage, "stagechange_stage_valid")]

    def __str__(self) -> str:
        return f"{self.get_stage_display()} on {self.changed_on}"


class RoundKind(models.TextChoices):
    RECRUITER_CALL = "recruiter_call", _("Recruiter call")
    PHONE_SCREEN = "phone_screen", _("Phone screen")
    CODING = "coding", _("Coding")
    SYSTEM_DESIGN = "system_design", _("System design")
    ML_DESIGN = "ml_design", _("ML design")
    BEHAVIORAL = "behavioral", _("Behavioral")
    HIRING_MANAGER = "hiring_manager", _("Hiring manager")
    TEAM_MATCH = "team_match", _("Team match")
    OTHER = "other", _("Other")


class RoundMode(models.TextChoices):
    VIRTUAL = "virtual", _("Virtual")
    ONSITE = "onsite", _("On site")


class Round(models.Model):
    """One interview of a process, stored in UTC with the zone it was entered in."""

    Kind = RoundKind
    Mode = RoundMode

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="interview_rounds"
    )
    process = models.ForeignKey(Process, on_delete=models.CASCADE, related_name="rounds")
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.CODING)
    scheduled_at = models.DateTimeField(_("scheduled at (UTC)"), null=True, blank=True)
    timezone = models.CharField(
        _("time zone"),
        max_length=64,
        default="Asia/Taipei",
        validators=[timezone_validator],
        help_text=_("The IANA zone the time was entered in."),
    )
    duration_minutes = models.PositiveSmallIntegerField(
        _("duration (minutes)"),
        default=45,
        validators=[MinValueValidator(5), MaxValueValidator(600)],
    )
    mode = models.CharField(_("format"), max_length=10, choices=Mode.choices, default=Mode.VIRTUAL)
    interviewer_name = models.CharField(_("interviewer"), max_length=120, blank=True)
    interviewer_background = models.TextField(
        _("interviewer background"), blank=True, help_text=_("What they work on, links.")
    )
    shadow_interviewer = models.CharField(_("shadow interviewer"), max_length=120, blank=True)
    language = models.CharField(_("language"), max_length=40, default="English", blank=True)
    self_assessment = models.PositiveSmallIntegerField(
        _("self-assessment (1-5)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
    )
    stated_comp = models.CharField(
        _("compensation I stated"),
        max_length=200,
        blank=True,
        help_text=_("Any figure you told this interviewer, so the story stays consistent."),
    )
    signal = models.CharField(
        _("signal"), max_length=20, choices=Signal.choices, default=Signal.UNKNOWN
    )
    feedback = models.TextField(_("feedback notes"), blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["process_id", "order", "scheduled_at", "id"]
        indexes = [models.Index(fields=["owner", "scheduled_at"])]
        constraints = [
            _in_choices("kind", RoundKind, "round_kind_valid"),
            _in_choices("signal", Signal, "round_signal_valid"),
            _in_choices("mode", RoundMode, "round_mode_valid"),
            models.CheckConstraint(
                condition=Q(self_assessment__isnull=True)
                | Q(self_assessment__gte=1, self_assessment__lte=5),
                name="round_self_assessment_range",
            ),
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=5, duration_minutes__lte=600),
                name="round_duration_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.process} — #{self.order} {self.get_kind_display()}"

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """Return the zone the round was entered in (UTC if the stored name is unknown)."""
        try:
            return zoneinfo.ZoneInfo(self.timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    @property
    def scheduled_local(self) -> datetime | None:
        """Return the scheduled time in the zone it was entered in."""
        return self.scheduled_at.astimezone(self.zone) if self.scheduled_at else None

    def clean(self) -> None:
        """Check the round belongs to its owner's process and is not before first contact."""
        errors: dict[str, str] = {}
        if self.process_id is not None and self.owner_id is not None:
            if self.process.owner_id != self.owner_id:
                errors[NON_FIELD_ERRORS] = _("Pick one of your own processes.")
            elif self.scheduled_at is not None:
                local_day = self.scheduled_at.astimezone(self.zone).date()
                if local_day < self.process.first_contact:
                    errors["scheduled_at"] = _(
                        "This round is before the process started (first contact on %(day)s)."
                    ) % {"day": self.process.first_contact.isoformat()}
        if errors:
            raise ValidationError(errors)


def normalize_tags(raw: str) -> str:
    """Return tags lower-cased, trimmed, de-duplicated and comma-joined ("a,b c,d")."""
    seen: list[str] = []
    for part in raw.replace("#", ",").replace(";", ",").split(","):
        tag = " ".join(part.strip().lower().split())
        if tag and tag not in seen:
            seen.append(tag)
    return ",".join(seen)


class Question(models.Model):
    """A question or topic asked in a round, with searchable tags."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="questions")
    text = models.CharField(_("question"), max_length=300)
    tags = models.CharField(
        _("tags"),
        max_length=300,
        blank=True,
        help_text=_("Comma-separated, stored lower-case: feature store,ranking."),
    )

    class Meta:
        ordering = ["round_id", "id"]

    def __str__(self) -> str:
        return self.text

    @property
    def tag_list(self) -> list[str]:
        """Return the tags as a list."""
        return [t for t in self.tags.split(",") if t]


class DebriefDecision(models.TextChoices):
    PENDING = "pending", _("Pending")
    HIRE = "hire", _("Hire")
    HIRE_LOWER = "hire_lower", _("Hire at a lower level")
    MORE_INTERVIEWS = "more_interviews", _("More interviews")
    NO_HIRE = "no_hire", _("No hire")


class Debrief(models.Model):
    """The hiring committee's outcome for a process."""

    Decision = DebriefDecision

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="interview_debriefs"
    )
    process = models.OneToOneField(Process, on_delete=models.CASCADE, related_name="debrief")
    decision = models.CharField(
        _("decision"), max_length=20, choices=Decision.choices, default=Decision.PENDING
    )
    level_decided = _level(_("level decided"))
    held_on = models.DateField(_("held on"), null=True, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        constraints = [_in_choices("decision", DebriefDecision, "debrief_decision_valid")]

    def __str__(self) -> str:
        return f"Debrief of {self.process}"

    def clean(self) -> None:
        """Check the level is on the process company's ladder."""
        if (
            self.level_decided is not None
            and self.process_id is not None
            and self.level_decided.company_id != self.process.company_id
        ):
            raise ValidationError({"level_decided": _("Pick a level on this company's ladder.")})


class RemoteOpenness(models.TextChoices):
    UNKNOWN = "unknown", _("Unknown")
    ONSITE = "onsite", _("On site only")
    HYBRID = "hybrid", _("Hybrid")
    REMOTE_FRIENDLY = "remote_friendly", _("Remote-friendly")
    FULLY_REMOTE = "fully_remote", _("Fully remote")


class TeamMatchStatus(models.TextChoices):
    PROPOSED = "proposed", _("Proposed")
    SCHEDULED = "scheduled", _("Call scheduled")
    TALKED = "talked", _("Talked")
    INTERESTED = "interested", _("Mutual interest")
    MATCHED = "matched", _("Matched")
    PASSED = "passed", _("Passed")


class TeamMatch(models.Model):
    """A team (and manager) the process could land on."""

    RemoteOpenness = RemoteOpenness
    Status = TeamMatchStatus

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="interview_team_matches"
    )
    process = models.ForeignKey(Process, on_delete=models.CASCADE, related_name="team_matches")
    team = models.CharField(_("team"), max_length=120)
    manager = models.CharField(_("manager"), max_length=120, blank=True)
    scope = models.TextField(_("scope"), blank=True)
    remote_openness = models.CharField(
        _("remote openness"),
        max_length=20,
        choices=RemoteOpenness.choices,
        default=RemoteOpenness.UNKNOWN,
    )
    time_zone = models.CharField(
        _("team time zone"), max_length=64, blank=True, validators=[timezone_validator]
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PROPOSED
    )
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        ordering = ["process_id", "id"]
        verbose_name_plural = "team matches"
        constraints = [
            _in_choices("remote_openness", RemoteOpenness, "teammatch_remote_valid"),
            _in_choices("status", TeamMatchStatus, "teammatch_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.team} ({self.manager})" if self.manager else self.team

    def clean(self) -> None:
        """Check the team match belongs to its owner's process."""
        if (
            self.process_id is not None
            and self.owner_id is not None
            and self.process.owner_id != self.owner_id
        ):
            raise ValidationError(_("Pick one of your own processes."))
