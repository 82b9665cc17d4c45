"""Options to choose between, the user's preferences, negotiation scenarios, background jobs.

The negotiation log's model is in `offers.models_negotiation`, imported here.
"""

from __future__ import annotations

import datetime as dt
from datetime import time
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compensation.models import MONEY, NON_NEGATIVE, PCT, currency_validator
from offers.export.formats import EXPORT_FORMATS, FORMAT_CHOICES
from offers.logic.criteria import CRITERIA, RATINGS
from offers.models_negotiation import (
    NegotiationEntry as NegotiationEntry,
)  # one of the app's models

RATING = [MinValueValidator(1), MaxValueValidator(5)]
WEIGHT = {
    "max_digits": 5,
    "decimal_places": 2,
    "validators": [MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("10"))],
}


def weight_fields() -> dict[str, models.Field]:
    """Return Preferences' weight_<key> field for every ranking criterion, by name."""
    return {
        c.weight_field: models.DecimalField(_(c.weight_label), default=c.default_weight, **WEIGHT)
        for c in CRITERIA
    }


def rating_fields() -> dict[str, models.Field]:
    """Return Offer's rating_<key> field for every 1-5 rating criterion, by name."""
    return {
        c.rating_field: models.PositiveSmallIntegerField(
            _(c.rating_label or c.key), null=True, blank=True, validators=RATING
        )
        for c in RATINGS
    }


# The fields of an option that its form edits and its services write. Its company, level and
# start date are its package's terms (the package owns them; the option reads them).
OFFER_FIELDS = [
    "name",
    "kind",
    "status",
    "offer_probability_override",
    "job_loss_pct",
    "process",
    "target_level",
    "team",
    "title",
    "location",
    "work_timezone",
    "remote_policy",
    "office_days_per_week",
    "remote_weeks_per_year",
    "relocation_required",
    "deadline",
    *(c.rating_field for c in RATINGS),
    "shareable",
    "notes",
]


class Offer(models.Model):
    """One option on the table: an external offer, an internal transfer, or staying."""

    class Kind(models.TextChoices):
        EXTERNAL = "external", _("External offer")
        INTERNAL = "internal", _("Internal transfer")
        STAY = "stay", _("Stay in current job")

    class RemotePolicy(models.TextChoices):
        ONSITE = "onsite", _("On site")
        HYBRID = "hybrid", _("Hybrid")
        REMOTE_FIRST = "remote_first", _("Remote-first")
        FULLY_REMOTE = "fully_remote", _("Fully remote")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RECEIVED = "received", _("Received")
        NEGOTIATING = "negotiating", _("Negotiating")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="offers"
    )
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.EXTERNAL)
    target_level = models.ForeignKey(
        "compensation.Level",
        verbose_name=_("target level"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    process = models.ForeignKey(
        "interviews.Process",
        verbose_name=_("interview process"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="offers",
    )
    package = models.OneToOneField(
        "compensation.Package",
        verbose_name=_("package"),
        on_delete=models.PROTECT,
        related_name="offer",
    )
    team = models.CharField(_("team"), max_length=120, blank=True)
    title = models.CharField(_("title"), max_length=120, blank=True)
    location = models.CharField(_("location"), max_length=120, blank=True)
    work_timezone = models.CharField(
        _("work time zone"), max_length=64, default="America/Los_Angeles"
    )
    remote_policy = models.CharField(
        _("remote policy"), max_length=14, choices=RemotePolicy.choices, default=RemotePolicy.HYBRID
    )
    office_days_per_week = models.PositiveSmallIntegerField(
        _("office days a week"), default=0, validators=[MaxValueValidator(7)]
    )
    remote_weeks_per_year = models.PositiveSmallIntegerField(
        _("remote weeks a year"), default=0, validators=[MaxValueValidator(52)]
    )
    relocation_required = models.BooleanField(_("relocation required"), default=False)
    deadline = models.DateField(_("decision deadline"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.RECEIVED
    )
    offer_probability_override = models.PositiveSmallIntegerField(
        _("chance of an offer (%)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "For an option still in process. Empty: estimated from its interview stage and signals."
        ),
    )
    job_loss_pct = models.DecimalField(
        _("chance of losing this job in a year (%)"),
        max_digits=3,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("50"))],
        help_text=_(
            "In the futures of the chance of the best choice, a job lost stops its pay and "
            "its unvested stock, with 16 weeks of base as severance. Empty: 3 a year at a "
            "public company, 8 at a private one."
        ),
    )
    # rating_<key> for every 1-5 rating criterion. A class body's locals() is its namespace,
    # so the fields are defined here, in this place in the field order.
    locals().update(rating_fields())
    shareable = models.BooleanField(_("figures may be shared with other companies"), default=False)
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last changed"), auto_now=True)

    class Meta:
        verbose_name = _("option")
        verbose_name_plural = _("options")
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(remote_weeks_per_year__lte=52), name="offer_remote_weeks_range"
            ),
            models.CheckConstraint(
                condition=Q(office_days_per_week__lte=7), name="offer_office_days_range"
            ),
            models.CheckConstraint(
                condition=Q(offer_probability_override__isnull=True)
                | Q(offer_probability_override__lte=100),
                name="offer_probability_override_range",
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{c.rating_field}__isnull": True})
                    | Q(**{f"{c.rating_field}__gte": 1, f"{c.rating_field}__lte": 5}),
                    name=f"offer_rating_{c.key}_range",
                )
                for c in RATINGS
            ],
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def in_hand(self) -> bool:
        """Return whether this option is an offer in hand (staying always is)."""
        return self.kind == self.Kind.STAY or self.status in IN_HAND_STATUSES

    @property
    def expected(self) -> bool:
        """Return whether this option is not an offer yet: a draft of the terms expected."""
        return self.kind != self.Kind.STAY and self.status == self.Status.DRAFT

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        """Reload the option, and its package (which holds its company, level and start)."""
        super().refresh_from_db(*args, **kwargs)
        if not kwargs.get("fields") and type(self).package.is_cached(self):  # type: ignore[attr-defined]
            self.package.refresh_from_db()

    # The company, level and start date are the package's terms: one owner, read here. Setting
    # one sets it on the package in memory (the package's service writes it).
    @property
    def company(self) -> Any:
        """Return the package's company (None without one)."""
        return self.package.company

    @company.setter
    def company(self, value: Any) -> None:
        self.package.company = value

    @property
    def company_id(self) -> int | None:
        """Return the package's company id."""
        return self.package.company_id

    @property
    def level(self) -> Any:
        """Return the package's level (None without one)."""
        return self.package.level

    @level.setter
    def level(self, value: Any) -> None:
        self.package.level = value

    @property
    def level_id(self) -> int | None:
        """Return the package's level id."""
        return self.package.level_id

    @property
    def start_date(self) -> dt.date:
        """Return the day the package's terms start (a new job's first day, a move's day)."""
        return self.package.start_date

    @start_date.setter
    def start_date(self, value: dt.date | None) -> None:
        if value is not None:  # None: the package keeps its start date
            self.package.start_date = value


# An offer in hand: received, being negotiated or accepted. A draft holds the terms expected
# while the process runs; a declined or expired offer is gone.
IN_HAND_STATUSES = (Offer.Status.RECEIVED, Offer.Status.NEGOTIATING, Offer.Status.ACCEPTED)


class Preferences(models.Model):
    """How this user weighs money against remote work, time zone and growth."""

    class Basis(models.TextChoices):
        GROSS = "gross", _("Gross (before tax)")
        NET = "net", _("After tax")

    class StockPrice(models.IntegerChoices):
        """The share price stock is valued at: the assumed one, or a percentile of the Monte Carlo.

        The value is the percentile (0: the assumed price, no percentile), so a saved choice
        reads as the percentile it names (`offers.valuation_basis.ValuationBasis`).
        """

        # Short: a select cannot wrap, so the field's help says what the assumed price is.
        ASSUMED = 0, _("Assumed share price")
        CAUTIOUS = 10, _("Cautious: P10 share price")
        MEDIAN = 50, _("Median: P50 share price")
        OPTIMISTIC = 90, _("Optimistic: P90 share price")

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    home_timezone = models.CharField(_("home time zone"), max_length=64, default="Asia/Taipei")
    day_start = models.TimeField(_("earliest work hour (home time)"), default=time(8, 0))
    day_end = models.TimeField(_("latest work hour (home time)"), default=time(23, 0))
    family_start = models.TimeField(_("family time from"), null=True, blank=True)
    family_end = models.TimeField(_("family time until"), null=True, blank=True)
    required_remote_weeks = models.PositiveSmallIntegerField(
        _("remote weeks a year needed"), default=0, validators=[MaxValueValidator(52)]
    )
    min_first_year_total = models.DecimalField(
        _("minimum first-year total (home currency)"),
        null=True,
        blank=True,
        validators=NON_NEGATIVE,
        **MONEY,
    )
    relocation_ok = models.BooleanField(_("willing to relocate"), default=True)
    rank_in_hand_only = models.BooleanField(
        _("rank only offers in hand"),
        default=False,
        help_text=_(
            "An option that is not an offer in hand yet (a draft of the terms you expect, or "
            "an offer declined or expired) then ranks after every offer in hand, like an "
            "option that breaks a hard constraint."
        ),
    )
    horizon_years = models.PositiveSmallIntegerField(
        _("horizon (years)"), default=4, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    home_currency = models.CharField(
        _("home currency"), max_length=3, default="USD", validators=[currency_validator]
    )
    basis = models.CharField(_("compare"), max_length=5, choices=Basis.choices, default=Basis.NET)
    decision_date = models.DateField(
        _("decision date"),
        null=True,
        blank=True,
        help_text=_("Every option is valued from this day on; empty means today."),
    )
    risk_percentile = models.PositiveSmallIntegerField(
        _("stock price basis"),
        default=StockPrice.ASSUMED,
        choices=StockPrice.choices,
        help_text=_(
            "The assumed price is today's price grown at the growth rate and rebuilds by hand "
            "(shares × price × rate); the median and the cautious and optimistic prices come "
            "from the simulated share prices."
        ),
    )
    # What the chance of the best choice assumes (offers.choice).
    market_correlation = models.PositiveSmallIntegerField(
        _("how closely different stocks move together (%)"),
        default=50,
        validators=[MaxValueValidator(100)],
        help_text=_("0: each stock on its own; 100: every stock moves with the market."),
    )
    uncertainty_of_weights = models.PositiveSmallIntegerField(
        _("how unsure you are of your weights (± %)"),
        default=0,
        validators=[MaxValueValidator(90)],
    )
    risk_aversion = models.DecimalField(
        _("risk aversion (0 = off)"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("10"))],
        help_text=_(
            "At 2, a 50/50 chance of 100,000 or 300,000 is worth a sure 150,000 to you "
            "(its certainty equivalent); at 0 it is worth the average, 200,000."
        ),
    )
    discount_rate_pct = models.DecimalField(
        _("yearly discount rate (%)"),
        max_digits=3,
        decimal_places=1,
        default=Decimal("0"),
        db_default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("30"))],
        help_text=_(
            "Money later is worth less to you than money now. Each window year's figures are "
            "divided by (1 + rate) to the power of the years from the decision date to the "
            "middle of that year: at 5, year 2's by 1.05^1.5. 0: no discount."
        ),
    )
    # weight_<key> for every ranking criterion, defined here like the ratings above.
    locals().update(weight_fields())
    reminders_email = models.BooleanField(
        _("email me reminders"),
        default=False,
        help_text=_(
            "A message the day before an interview round, and when an offer's decision "
            "deadline comes near (sent once each, to your account's email address)."
        ),
    )
    reminder_days = models.PositiveSmallIntegerField(
        _("days before a deadline"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(30)],
        help_text=_("Remind me of an offer's decision deadline this many days ahead."),
    )
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name_plural = "preferences"
        constraints = [
            models.CheckConstraint(
                condition=Q(market_correlation__lte=100, uncertainty_of_weights__lte=90)
                & Q(risk_aversion__gte=0, risk_aversion__lte=10)
                & Q(discount_rate_pct__gte=0, discount_rate_pct__lte=30),
                name="prefs_uncertainty_range",
            ),
            models.CheckConstraint(
                condition=Q(horizon_years__gte=1, horizon_years__lte=10), name="prefs_horizon_range"
            ),
            models.CheckConstraint(
                condition=Q(required_remote_weeks__lte=52), name="prefs_remote_weeks_range"
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{c.weight_field}__gte": 0, f"{c.weight_field}__lte": 10}),
                    name=f"prefs_weight_{c.key}_range",
                )
                for c in CRITERIA
            ],
        ]

    def __str__(self) -> str:
        return f"Preferences of {self.owner}"

    @property
    def weights(self) -> dict[str, float]:
        """Return the criteria weights as floats."""
        return {c.key: float(getattr(self, c.weight_field)) for c in CRITERIA}


class Scenario(models.Model):
    """An offer plus negotiation adjustments, with its stored Monte Carlo result."""

    class McStatus(models.TextChoices):
        NONE = "none", _("Not run")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        CANCELLED = "cancelled", _("Cancelled")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios"
    )
    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(_("name"), max_length=120)
    base = models.DecimalField(
        _("base salary"), null=True, blank=True, validators=NON_NEGATIVE, **MONEY
    )
    raise_pct = models.DecimalField(
        _("yearly raise %"),
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("50"))],
        **PCT,
    )
    extra_sign_on = models.DecimalField(
        _("extra sign-on"), default=Decimal("0"), validators=NON_NEGATIVE, **MONEY
    )
    extra_stock_yearly = models.DecimalField(
        _("extra stock a year"), default=Decimal("0"), validators=NON_NEGATIVE, **MONEY
    )
    refresher_yearly = models.DecimalField(
        _("refreshers a year"), null=True, blank=True, validators=NON_NEGATIVE, **MONEY
    )
    # The currency of the stock amounts above (extra stock, refreshers): the offer's grant
    # price currency when the scenario was made (USD for a US-listed company, whatever the
    # pay's), or the pay currency of a scenario saved before stock was asked in its own.
    stock_currency = models.CharField(
        _("currency of the stock amounts"), max_length=3, validators=[currency_validator]
    )
    level = models.ForeignKey(
        "compensation.Level", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    remote_weeks_per_year = models.PositiveSmallIntegerField(
        _("remote weeks a year"), null=True, blank=True, validators=[MaxValueValidator(52)]
    )
    start_date = models.DateField(_("start date"), null=True, blank=True)
    growth_pct = models.DecimalField(
        _("share growth % a year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("-90")), MaxValueValidator(Decimal("200"))],
        **PCT,
    )
    volatility_pct = models.DecimalField(
        _("volatility % a year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("300"))],
        **PCT,
    )
    notes = models.TextField(_("notes"), blank=True)
    mc_status = models.CharField(max_length=10, choices=McStatus.choices, default=McStatus.NONE)
    mc_progress = models.PositiveSmallIntegerField(default=0)
    mc_input_hash = models.CharField(max_length=64, blank=True)
    mc_result = models.JSONField(null=True, blank=True)
    mc_error = models.CharField(max_length=300, blank=True)
    mc_task_id = models.CharField(max_length=64, blank=True, help_text="Task that owns the run.")
    mc_progress_at = models.DateTimeField(default=timezone.now, help_text="Last progress report.")
    mc_runs = models.PositiveIntegerField(
        default=0, help_text="How many times a result was stored."
    )
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["offer__name", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(base__isnull=True) | Q(base__gte=0), name="scenario_base_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(extra_sign_on__gte=0), name="scenario_sign_on_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(extra_stock_yearly__gte=0), name="scenario_stock_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(stock_currency__regex=r"^[A-Z]{3}$"),
                name="scenario_stock_currency_code",
            ),
            models.CheckConstraint(
                condition=Q(mc_progress__lte=100), name="scenario_progress_range"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Job(models.Model):
    """A background export or restore of one user's data: its progress, then its result.

    An export keeps its format, the language its labels are written in, and its file once
    done; a restore keeps the uploaded file until it ends, ``replace``, and what it restored.
    """

    class Kind(models.TextChoices):
        EXPORT = "export", _("Export")
        RESTORE = "restore", _("Restore")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True, help_text="Task that owns the job.")
    progress_at = models.DateTimeField(default=timezone.now, help_text="Last progress report.")
    resent_at = models.DateTimeField(
        null=True, blank=True, help_text="When its message was sent again, unclaimed."
    )
    file_path = models.CharField(max_length=300, blank=True)
    upload_sha256 = models.CharField(max_length=64, blank=True, help_text="A restore's upload.")
    file_bytes = models.PositiveBigIntegerField(default=0)
    # The formats are registered in offers/export/formats.py; a new one needs a migration.
    format = models.CharField(_("format"), max_length=4, choices=FORMAT_CHOICES, blank=True)
    language = models.CharField(max_length=10, blank=True, default="")
    # "Replace my data with this backup": the owner's data is replaced in the restore's step.
    replace = models.BooleanField(default=False)
    errors = models.JSONField(default=list, blank=True)
    counts = models.JSONField(default=dict, blank=True, help_text="Records restored, by section.")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="job_progress_range"),
            models.CheckConstraint(
                condition=Q(kind="export", format__in=list(EXPORT_FORMATS))
                | Q(kind="restore", format=""),
                name="job_format_valid",
            ),
            # One file restores once at a time, even when two posts race past the form's check.
            models.UniqueConstraint(
                fields=["owner", "upload_sha256"],
                condition=Q(kind="restore", status__in=["queued", "running"])
                & ~Q(upload_sha256=""),
                name="job_one_restore_per_file",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.RESTORE:
            return f"restore #{self.pk}"
        return f"{self.get_format_display()} export #{self.pk}"

    @property
    def filename(self) -> str:
        """Return the name an export's download is saved under."""
        stamp = self.created_at.strftime("%Y%m%d-%H%M")
        return f"offerdesk-comparison-{stamp}.{EXPORT_FORMATS[self.format].extension}"


class ReminderSent(models.Model):
    """A reminder emailed (or being emailed) once: an offer's deadline or an interview round.

    `due` is the deadline day or the round's start it was about: when either moves, the new
    date gets its own reminder. The unique constraints make the sender's claim a single insert.
    """

    class Kind(models.TextChoices):
        DEADLINE = "deadline", _("Offer deadline")
        ROUND = "round", _("Interview round")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminders_sent"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    offer = models.ForeignKey(Offer, null=True, blank=True, on_delete=models.CASCADE)
    round = models.ForeignKey("interviews.Round", null=True, blank=True, on_delete=models.CASCADE)
    due = models.DateTimeField()
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["offer", "due"],
                condition=models.Q(kind="deadline"),
                name="reminder_once_per_offer_deadline",
            ),
            models.UniqueConstraint(
                fields=["round", "due"],
                condition=models.Q(kind="round"),
                name="reminder_once_per_round_start",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="deadline", offer__isnull=False, round__isnull=True)
                    | models.Q(kind="round", round__isnull=False, offer__isnull=True)
                ),
                name="reminder_is_about_one_thing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} reminder for {self.due:%Y-%m-%d %H:%M}"
