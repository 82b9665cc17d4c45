"""Options to choose between, the user's preferences, and negotiation scenarios."""

from __future__ import annotations

import datetime as dt
from datetime import time
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import JobStatus
from compensation.models import MONEY, NON_NEGATIVE, PCT, currency_validator
from offers.export.formats import EXPORT_FORMATS, FORMAT_CHOICES
from offers.logic.criteria import CRITERIA, RATINGS

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
                & Q(risk_aversion__gte=0, risk_aversion__lte=10),
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


class ExportJob(models.Model):
    """A large comparison export built in the background, with its progress and file."""

    Status = JobStatus

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="export_jobs"
    )
    # The formats are registered in offers/export/formats.py; a new one needs a migration.
    format = models.CharField(_("format"), max_length=4, choices=FORMAT_CHOICES)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    file_path = models.CharField(max_length=300, blank=True)
    file_bytes = models.PositiveBigIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    # The language the export was asked in: the background job writes its labels in it.
    language = models.CharField(max_length=10, blank=True, default="")
    task_id = models.CharField(max_length=64, blank=True, help_text="Task that owns the job.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="exportjob_progress_range"),
            models.CheckConstraint(
                condition=Q(format__in=list(EXPORT_FORMATS)),
                name="exportjob_format_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_format_display()} export #{self.pk}"

    @property
    def filename(self) -> str:
        """Return the name the download is saved under."""
        stamp = self.created_at.strftime("%Y%m%d-%H%M") if self.created_at else "export"
        return f"offerdesk-comparison-{stamp}.{EXPORT_FORMATS[self.format].extension}"


class NegotiationEntry(models.Model):
    """One ask in a negotiation: what was asked, when, through whom, and what came back.

    An answer with revised terms (base, stock, sign-on, level) turns the offer into a new
    version: the entry keeps the offer's versions before and after, and the option's headline
    value on the board's basis before and after, so the log shows the gap closing.
    """

    class Channel(models.TextChoices):
        RECRUITER = "recruiter", _("Recruiter")
        HIRING_MANAGER = "hiring_manager", _("Hiring manager")
        VP = "vp", _("VP or director")
        OWN_MANAGER = "own_manager", _("Own manager")
        OTHER = "other", _("Someone else")

    class Topic(models.TextChoices):
        LEVEL = "level", _("Level")
        BASE = "base", _("Base salary")
        STOCK = "stock", _("Stock")
        SIGN_ON = "sign_on", _("Sign-on")
        REMOTE = "remote", _("Remote terms")
        START_DATE = "start_date", _("Start date")
        DEADLINE = "deadline", _("Deadline")
        OTHER = "other", _("Something else")

    class Outcome(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")
        COUNTERED = "countered", _("Countered")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="negotiation_entries"
    )
    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="negotiation_entries")
    asked_on = models.DateField(_("asked on"))
    channel = models.CharField(
        _("through"), max_length=16, choices=Channel.choices, default=Channel.RECRUITER
    )
    contact = models.CharField(_("name"), max_length=120, blank=True)
    topic = models.CharField(_("about"), max_length=12, choices=Topic.choices, default=Topic.OTHER)
    ask = models.TextField(_("what was asked"), max_length=2000)
    outcome = models.CharField(
        _("what came back"), max_length=10, choices=Outcome.choices, default=Outcome.PENDING
    )
    answered_on = models.DateField(_("answered on"), null=True, blank=True)
    answer = models.TextField(_("their answer"), max_length=2000, blank=True)
    revised_base = models.DecimalField(
        _("revised base salary"), null=True, blank=True, validators=NON_NEGATIVE, **MONEY
    )
    revised_stock = models.DecimalField(
        _("revised stock grant (total)"), null=True, blank=True, validators=NON_NEGATIVE, **MONEY
    )
    revised_sign_on = models.DecimalField(
        _("revised year-1 sign-on"), null=True, blank=True, validators=NON_NEGATIVE, **MONEY
    )
    revised_level = models.ForeignKey(
        "compensation.Level",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("revised level"),
    )
    revised_deadline = models.DateField(_("new decision deadline"), null=True, blank=True)
    # Dates the answer gave for the company's own next steps: the timeline lines them up.
    decision_by = models.DateField(_("their decision by"), null=True, blank=True)
    letter_by = models.DateField(_("offer letter by"), null=True, blank=True)
    # The currency of the revised amounts: the offer's package currency when they were entered.
    terms_currency = models.CharField(
        _("currency of the revised terms"),
        max_length=3,
        blank=True,
        validators=[currency_validator],
    )
    # The currency of the revised stock grant: the price currency of the grant it revises
    # (often USD for a US-listed company, whatever the pay's currency).
    stock_currency = models.CharField(
        _("currency of the revised stock grant"),
        max_length=3,
        blank=True,
        validators=[currency_validator],
    )
    offer_version_before = models.PositiveIntegerField(null=True, blank=True)
    offer_version_after = models.PositiveIntegerField(null=True, blank=True)
    # The offer's history entries before and after the revised terms (not in a backup).
    revision_before = models.ForeignKey(
        "accounts.Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revision_after = models.ForeignKey(
        "accounts.Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The option's headline value (offers/board.py Evaluation.value) on the basis stated in
    # value_basis: when the ask was logged, or just before and after the revised terms.
    value_before = models.DecimalField(null=True, blank=True, **MONEY)
    value_after = models.DecimalField(null=True, blank=True, **MONEY)
    value_currency = models.CharField(
        max_length=3, blank=True, validators=[currency_validator], default=""
    )
    value_basis = models.CharField(max_length=300, blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["asked_on", "id"]
        verbose_name_plural = "negotiation entries"
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=["pending", "accepted", "refused", "countered"]),
                name="negotiation_outcome_valid",
            ),
            models.CheckConstraint(
                condition=Q(
                    channel__in=["recruiter", "hiring_manager", "vp", "own_manager", "other"]
                ),
                name="negotiation_channel_valid",
            ),
            models.CheckConstraint(
                condition=Q(
                    topic__in=[
                        "level",
                        "base",
                        "stock",
                        "sign_on",
                        "remote",
                        "start_date",
                        "deadline",
                        "other",
                    ]
                ),
                name="negotiation_topic_valid",
            ),
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{name}__isnull": True}) | Q(**{f"{name}__gte": 0}),
                    name=f"negotiation_{name}_non_negative",
                )
                for name in ("revised_base", "revised_stock", "revised_sign_on")
            ],
            models.CheckConstraint(
                condition=Q(answered_on__isnull=True) | Q(answered_on__gte=models.F("asked_on")),
                name="negotiation_answer_after_ask",
            ),
            models.CheckConstraint(
                condition=~Q(outcome="pending")
                | Q(
                    answered_on__isnull=True,
                    revised_base__isnull=True,
                    revised_stock__isnull=True,
                    revised_sign_on__isnull=True,
                    revised_level__isnull=True,
                    revised_deadline__isnull=True,
                ),
                name="negotiation_pending_has_no_answer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.offer}: {self.get_topic_display()} ({self.asked_on})"

    @property
    def has_revised_terms(self) -> bool:
        """Return True if the answer changes the offer (its package, level or deadline)."""
        amounts = (self.revised_base, self.revised_stock, self.revised_sign_on)
        return (
            any(v is not None for v in amounts)
            or self.revised_deadline is not None
            or self._has_revised_level()
        )

    def _has_revised_level(self) -> bool:
        # A level set but not saved yet (a restore's own levels) has no id: ask the cache.
        field = self._meta.get_field("revised_level")
        if field.is_cached(self):  # type: ignore[union-attr]
            return field.get_cached_value(self) is not None  # type: ignore[union-attr]
        return self.revised_level_id is not None

    @property
    def revised_terms(self) -> list[tuple[str, Decimal | None, str, str]]:
        """Return the revised terms as (label, amount, its currency, or a level's code).

        Base and sign-on are in ``terms_currency``, the stock grant in ``stock_currency``.
        """
        stock = self.stock_currency or self.terms_currency
        terms: list[tuple[str, Decimal | None, str, str]] = [
            (str(label), amount, currency, "")
            for label, amount, currency in (
                (_("base"), self.revised_base, self.terms_currency),
                (_("stock grant"), self.revised_stock, stock),
                (_("year-1 sign-on"), self.revised_sign_on, self.terms_currency),
            )
            if amount is not None
        ]
        if self.revised_deadline is not None:
            day = formats.date_format(self.revised_deadline, "DATE_FORMAT")
            terms.append((str(_("decision deadline")), None, "", day))
        if self.revised_level_id:
            code = self.revised_level.code if self.revised_level else ""
            terms.append((str(_("level")), None, "", code))
        return terms

    @property
    def value_change(self) -> Decimal | None:
        """Return how much the headline moved with this answer (None without both values)."""
        if self.value_before is None or self.value_after is None:
            return None
        return self.value_after - self.value_before

    def clean(self) -> None:
        """Check that an answer follows its ask and that revised terms come with an answer."""
        errors: dict[str, str] = {}
        if self.outcome == self.Outcome.PENDING:
            if self.has_revised_terms:
                errors["outcome"] = _(
                    "Revised terms come with an answer: choose accepted, refused or countered."
                )
            elif self.answered_on is not None:
                errors["answered_on"] = _("An ask still waiting for an answer has no answer date.")
            elif self.decision_by is not None or self.letter_by is not None:
                errors["outcome"] = _(
                    "The dates they gave come with their answer: choose what came back."
                )
        elif self.answered_on is None:
            errors["answered_on"] = _("Enter the day the answer came.")
        if self.answered_on and self.asked_on and self.answered_on < self.asked_on:
            errors["answered_on"] = _("The answer cannot come before the ask.")
        if self.revised_deadline and self.asked_on and self.revised_deadline < self.asked_on:
            errors["revised_deadline"] = _("A new deadline comes after the ask.")
        if errors:
            raise ValidationError(errors)


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
