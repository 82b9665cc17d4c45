"""The negotiation log's model: each ask, its answer, and the offer versions around it.

Imported by `offers.models` (which Django loads), so it is one of the app's models.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import formats
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from compensation.models import MONEY, NON_NEGATIVE, currency_validator


class NegotiationChannel(models.TextChoices):
    RECRUITER = "recruiter", _("Recruiter")
    HIRING_MANAGER = "hiring_manager", _("Hiring manager")
    VP = "vp", _("VP or director")
    OWN_MANAGER = "own_manager", _("Own manager")
    OTHER = "other", _("Someone else")


class NegotiationTopic(models.TextChoices):
    LEVEL = "level", _("Level")
    BASE = "base", _("Base salary")
    STOCK = "stock", _("Stock")
    SIGN_ON = "sign_on", _("Sign-on")
    REMOTE = "remote", _("Remote terms")
    START_DATE = "start_date", _("Start date")
    DEADLINE = "deadline", _("Deadline")
    OTHER = "other", _("Something else")


class NegotiationOutcome(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    REFUSED = "refused", _("Refused")
    COUNTERED = "countered", _("Countered")


class NegotiationEntry(models.Model):
    """One ask in a negotiation: what was asked, when, through whom, and what came back.

    An answer with revised terms (base, stock, sign-on, level) turns the offer into a new
    version: the entry keeps the offer's versions before and after, and the option's headline
    value on the board's basis before and after, so the log shows the gap closing.
    """

    Channel = NegotiationChannel
    Topic = NegotiationTopic
    Outcome = NegotiationOutcome

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="negotiation_entries"
    )
    offer = models.ForeignKey(
        "offers.Offer", on_delete=models.CASCADE, related_name="negotiation_entries"
    )
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
    # Remote work they offered: weeks a year, from where, for how long, in writing or not.
    revised_remote_weeks = models.PositiveSmallIntegerField(
        _("remote weeks a year offered"), null=True, blank=True, validators=[MaxValueValidator(52)]
    )
    remote_from = models.CharField(_("remote from"), max_length=120, blank=True)
    remote_years = models.PositiveSmallIntegerField(
        _("for how many years"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text=_("Empty: for as long as the job."),
    )
    remote_in_writing = models.BooleanField(_("in writing"), default=False)
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
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{field}__in": choices.values}),
                    name=f"negotiation_{field}_valid",
                )
                for field, choices in (
                    ("outcome", NegotiationOutcome),
                    ("channel", NegotiationChannel),
                    ("topic", NegotiationTopic),
                )
            ],
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{name}__isnull": True}) | Q(**{f"{name}__gte": 0}),
                    name=f"negotiation_{name}_non_negative",
                )
                for name in ("revised_base", "revised_stock", "revised_sign_on")
            ],
            models.CheckConstraint(
                condition=Q(revised_remote_weeks__isnull=True) | Q(revised_remote_weeks__lte=52),
                name="negotiation_remote_weeks_range",
            ),
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
                    revised_remote_weeks__isnull=True,
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
            any(v is not None for v in (*amounts, self.revised_remote_weeks))
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
        if self.revised_remote_weeks is not None:
            terms.append((str(_("remote work")), None, "", self.remote_words()))
        return terms

    def remote_words(self) -> str:
        """Return the remote terms offered: '12 weeks a year, from Taipei, in writing'."""
        n = self.revised_remote_weeks or 0
        words = [ngettext("%(n)s week a year", "%(n)s weeks a year", n) % {"n": n}]
        if self.remote_from:
            words.append(str(_("from %(place)s") % {"place": self.remote_from}))
        if self.remote_years:
            years = self.remote_years
            words.append(ngettext("for %(n)s year", "for %(n)s years", years) % {"n": years})
        words.append(str(_("in writing") if self.remote_in_writing else _("not in writing")))
        return str(_(", ")).join(words)

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
