"""Companies, level ladders, pay bands, packages, FX rates and location presets.

A package's sign-ons, grants and refreshers are `compensation.package_parts`.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import formats
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

# default_weights: migration 0001 names it here.
from compensation.model_fields import (  # noqa: F401
    MONEY,
    NON_NEGATIVE,
    PCT,
    currency_validator,
    default_weights,
)


def _shared_owner(related_name: str, **options: Any) -> models.ForeignKey:
    """Return the owner of a row that is a user's own or, empty, shared reference data."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name=related_name,
        **options,
    )


class Equivalence(models.IntegerChoices):
    """Cross-company seniority stage, so that Meta E5, Google L5 and Apple ICT4 line up."""

    ENTRY = 3, _("Entry")
    MID = 4, _("Mid")
    SENIOR = 5, _("Senior")
    STAFF = 6, _("Staff")
    SENIOR_STAFF = 7, _("Senior staff")
    PRINCIPAL = 8, _("Principal")


class Company(models.Model):
    """A company: its stock and, for a private company, the discount its RSUs deserve."""

    owner = _shared_owner("companies", help_text=_("Empty for shared reference data."))
    name = models.CharField(_("name"), max_length=120)
    ticker = models.CharField(_("ticker"), max_length=12, blank=True)
    is_private = models.BooleanField(_("private company"), default=False)
    currency = models.CharField(
        _("currency"), max_length=3, default="USD", validators=[currency_validator]
    )
    share_price = models.DecimalField(
        _("share price"),
        max_digits=14,
        decimal_places=4,
        default=Decimal("0"),
        validators=NON_NEGATIVE,
    )
    growth_pct = models.DecimalField(
        _("expected growth % a year"),
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("-90")), MaxValueValidator(Decimal("200"))],
        **PCT,
    )
    volatility_pct = models.DecimalField(
        _("volatility % a year"),
        default=Decimal("30"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("300"))],
        **PCT,
    )
    liquidity_discount_pct = models.DecimalField(
        _("liquidity discount %"),
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
        **PCT,
    )
    vesting_preset = models.CharField(_("usual vesting schedule"), max_length=40, blank=True)
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "companies"
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="company_unique_name_per_owner"),
            models.UniqueConstraint(
                fields=["name"], condition=Q(owner__isnull=True), name="company_unique_shared_name"
            ),
            models.CheckConstraint(
                condition=Q(share_price__gte=0), name="company_share_price_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(volatility_pct__gte=0, volatility_pct__lte=300),
                name="company_volatility_range",
            ),
            models.CheckConstraint(
                condition=Q(liquidity_discount_pct__gte=0, liquidity_discount_pct__lte=100),
                name="company_liquidity_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Level(models.Model):
    """One rung of a company's ladder (E5, L5, ICT4...)."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="levels")
    code = models.CharField(_("code"), max_length=20)
    order = models.PositiveSmallIntegerField(_("order"), help_text=_("Higher is more senior."))
    title = models.CharField(_("title"), max_length=80, blank=True)
    equivalence = models.PositiveSmallIntegerField(
        _("cross-company stage"), choices=Equivalence.choices, null=True, blank=True
    )

    class Meta:
        ordering = ["company__name", "order"]
        constraints = [
            models.UniqueConstraint(fields=["company", "code"], name="level_unique_code"),
        ]

    def __str__(self) -> str:
        return f"{self.company.name} {self.code}"


class Band(models.Model):
    """Pay band of a level: base, yearly stock and bonus target, with its source and date."""

    owner = _shared_owner("bands")
    level = models.ForeignKey(Level, on_delete=models.CASCADE, related_name="bands")
    currency = models.CharField(
        _("currency"), max_length=3, default="USD", validators=[currency_validator]
    )
    base_min = models.DecimalField(_("base min"), validators=NON_NEGATIVE, **MONEY)
    base_mid = models.DecimalField(_("base mid"), validators=NON_NEGATIVE, **MONEY)
    base_max = models.DecimalField(_("base max"), validators=NON_NEGATIVE, **MONEY)
    stock_min = models.DecimalField(
        _("yearly stock min"), default=Decimal("0"), validators=NON_NEGATIVE, **MONEY
    )
    stock_mid = models.DecimalField(
        _("yearly stock mid"), default=Decimal("0"), validators=NON_NEGATIVE, **MONEY
    )
    stock_max = models.DecimalField(
        _("yearly stock max"), default=Decimal("0"), validators=NON_NEGATIVE, **MONEY
    )
    bonus_target_pct = models.DecimalField(
        _("bonus target %"),
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("200"))],
        **PCT,
    )
    location = models.CharField(_("location"), max_length=80, blank=True)
    source = models.CharField(_("source"), max_length=200, blank=True)
    as_of = models.DateField(_("as of"), null=True, blank=True)

    class Meta:
        ordering = ["level__company__name", "level__order"]
        constraints = [
            models.CheckConstraint(
                condition=Q(base_min__gte=0)
                & Q(base_min__lte=F("base_mid"))
                & Q(base_mid__lte=F("base_max")),
                name="band_base_ordered",
            ),
            models.CheckConstraint(
                condition=Q(stock_min__gte=0)
                & Q(stock_min__lte=F("stock_mid"))
                & Q(stock_mid__lte=F("stock_max")),
                name="band_stock_ordered",
            ),
            models.CheckConstraint(
                condition=Q(bonus_target_pct__gte=0), name="band_bonus_non_negative"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(level)s band (%(currency)s)") % {
            "level": self.level,
            "currency": self.currency,
        }


def location_regime_choices() -> list[tuple[str, str]]:
    """Return a location's tax rules: none (its flat rate), then each regime's tables."""
    return [("", str(_("Flat rate (no tax table)"))), *_regime_choices()]


class LocationPreset(models.Model):
    """A place: its currency, tax (a flat rate or a tax rule) and time zone (editable presets)."""

    owner = _shared_owner("locations")
    name = models.CharField(_("name"), max_length=80)
    currency = models.CharField(_("currency"), max_length=3, validators=[currency_validator])
    effective_tax_pct = models.DecimalField(
        _("effective tax %"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("90"))],
        **PCT,
    )
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    # The tax rule of the place where the engine has its tables: a package in this place
    # with no rule of its own is taxed by it (`compensation.selectors.package_to_spec`).
    tax_regime = models.CharField(
        _("tax rule"),
        max_length=16,
        blank=True,
        default="",
        choices=location_regime_choices,
        help_text=_(  # xgettext:no-python-format
            "The place's tax table: a package here with no tax rule of its own is taxed by "
            "it. Empty: the effective tax % is its flat rate."
        ),
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "name"], name="location_unique_name_per_owner"
            ),
            models.CheckConstraint(
                condition=Q(effective_tax_pct__gte=0, effective_tax_pct__lte=90),
                name="location_tax_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class FxRate(models.Model):
    """How many units of `to_currency` one unit of `currency` buys, as of a date."""

    owner = _shared_owner("fx_rates")
    currency = models.CharField(_("currency"), max_length=3, validators=[currency_validator])
    to_currency = models.CharField(_("to currency"), max_length=3, validators=[currency_validator])
    rate = models.DecimalField(
        _("rate"),
        max_digits=18,
        decimal_places=8,
        validators=[MinValueValidator(Decimal("0.00000001"))],
    )
    as_of = models.DateField(_("as of"))

    class Meta:
        ordering = ["currency", "to_currency", "-as_of"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "currency", "to_currency", "as_of"], name="fx_unique_per_day"
            ),
            models.CheckConstraint(condition=Q(rate__gt=0), name="fx_rate_positive"),
        ]

    def __str__(self) -> str:
        # The day in the reader's house format (15 Dec 2026, 2026年12月15日), not ISO.
        day = formats.date_format(self.as_of, "DATE_FORMAT") if self.as_of else ""
        return gettext("1 %(a)s = %(rate)s %(b)s (%(day)s)") % {
            "a": self.currency,
            "rate": self.rate,
            "b": self.to_currency,
            "day": day,
        }


# The places of the engine's tax tables (compensation/engine/tax/data/regimes.toml), here so that
# the catalogue holds their names; a test fails when a regime's place has no translation.
TAX_PLACES = (
    gettext_noop("California + US federal"),
    gettext_noop("Washington + US federal"),
    gettext_noop("New York State + US federal (not NYC)"),
    gettext_noop("Singapore resident"),
    gettext_noop("Singapore citizen or PR (with CPF)"),
    gettext_noop("Taiwan"),
    gettext_noop("Hong Kong salaries tax"),
    gettext_noop("Mainland China IIT"),
    gettext_noop("Shanghai: IIT, social insurance and housing fund"),
)
# What a package's tax rule covers (the package form and the offer form say the same).
TAX_REGIME_HELP = _(
    "Income tax by the place's published brackets, per tax year, and the employee "
    "contributions the place levies: Singapore's CPF for citizens and PRs only (an "
    "Employment Pass holder pays none: choose the rule without CPF), Hong Kong's MPF, "
    "Taiwan's labour and health insurance, Shanghai's social insurance and housing fund. "
    "Empty: the tax location's rule (its tax table, else its effective tax % as a flat "
    "rate); with neither, the tax is unknown and the option is flagged."
)


def tax_regime_label(regime: Any, years: tuple[int, int] | None = None) -> str:
    """Return a tax regime in the user's language, e.g. 'California + US federal 2025 tax'.

    With ``years`` (the first and last tax year taxed), name the tables taxing them and say
    when a year is taxed by another year's table, as `TaxRegime.label_for` does in English.
    """
    use = regime.use(*years) if years is not None else None
    label: str = gettext("%(place)s %(year)s tax") % {
        "place": gettext(regime.place),
        "year": use.year_label if use is not None else regime.year_label,
    }
    if use is not None and use.later is not None:
        label = gettext("%(rule)s (%(table)s table used for %(year)s on)") % {
            "rule": label,
            "table": use.later[0],
            "year": use.later[1],
        }
    if use is not None and use.earlier is not None:
        label = gettext("%(rule)s (%(table)s table used for %(year)s and before)") % {
            "rule": label,
            "table": use.earlier[0],
            "year": use.earlier[1],
        }
    return label


def _regime_choices() -> list[tuple[str, str]]:
    from compensation.engine.tax.tables import regimes

    return [(key, tax_regime_label(r)) for key, r in regimes().items()]


def tax_regime_choices() -> list[tuple[str, str]]:
    """Return the package tax rules: the location's, then each regime of the engine's tables."""
    own = str(_("The tax location's rule"))
    return [("", own), *_regime_choices()]


MONTHS = [
    (1, _("January")),
    (2, _("February")),
    (3, _("March")),
    (4, _("April")),
    (5, _("May")),
    (6, _("June")),
    (7, _("July")),
    (8, _("August")),
    (9, _("September")),
    (10, _("October")),
    (11, _("November")),
    (12, _("December")),
]


class BonusCycle(models.TextChoices):
    ANNIVERSARY = "anniversary", _("Anniversary year")
    CALENDAR = "calendar", _("Calendar year")
    FISCAL = "fiscal", _("Fiscal year")


class Package(models.Model):
    """A pay package: an offer's terms or the current job's."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="packages"
    )
    name = models.CharField(_("name"), max_length=120)
    company = models.ForeignKey(
        Company,
        verbose_name=_("company"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="packages",
    )
    level = models.ForeignKey(
        Level,
        verbose_name=_("level"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="packages",
    )
    is_current_job = models.BooleanField(_("current job"), default=False)
    currency = models.CharField(
        _("currency"), max_length=3, default="USD", validators=[currency_validator]
    )
    base = models.DecimalField(_("base salary"), validators=NON_NEGATIVE, **MONEY)
    raise_pct = models.DecimalField(
        _("yearly raise %"),
        default=Decimal("3"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("50"))],
        **PCT,
    )
    bonus_target_pct = models.DecimalField(
        _("bonus target %"),
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("200"))],
        **PCT,
    )
    bonus_multiplier = models.DecimalField(
        _("expected bonus multiplier"),
        max_digits=5,
        decimal_places=3,
        default=Decimal("1"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("5"))],
    )
    bonus_cycle = models.CharField(
        _("bonus cycle"),
        max_length=12,
        choices=BonusCycle.choices,
        default=BonusCycle.ANNIVERSARY,
        help_text=_(
            "When the bonus year runs. Anniversary year: each year from the start date, paid "
            "on its last day, no proration."
        ),
    )
    bonus_fiscal_start_month = models.PositiveSmallIntegerField(
        _("fiscal year starts in month"),
        choices=MONTHS,
        default=1,
        help_text=_("For a fiscal-year bonus cycle: the month the bonus year starts."),
    )
    bonus_payout_month = models.PositiveSmallIntegerField(
        _("bonus paid in month"),
        choices=MONTHS,
        default=3,
        help_text=_("Paid on the 15th of this month, after the bonus year ends."),
    )
    bonus_prorate_first_year = models.BooleanField(
        _("pro-rate the first bonus year"),
        default=True,
        help_text=_("A mid-year start is paid the share of the first bonus year worked."),
    )
    bonus_cutoff_month = models.PositiveSmallIntegerField(
        _("bonus cut-off month"), choices=MONTHS, null=True, blank=True
    )
    bonus_cutoff_day = models.PositiveSmallIntegerField(
        _("bonus cut-off day"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(31)],
        help_text=_("Starting after this day of the first bonus year pays no bonus that year."),
    )
    bonus_paid_if_left = models.BooleanField(
        _("bonus paid after leaving"),
        default=False,
        help_text=_(
            "Usually a bonus is paid only if you still work there on its payout day. "
            "Tick if the share of the year worked is paid after you leave."
        ),
    )
    relocation = models.DecimalField(
        _("relocation"), default=Decimal("0"), validators=NON_NEGATIVE, **MONEY
    )
    start_date = models.DateField(_("start date"))
    location = models.ForeignKey(
        LocationPreset,
        verbose_name=_("tax location"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="packages",
    )
    tax_regime = models.CharField(
        _("tax rule"),
        max_length=16,
        blank=True,
        default="",
        choices=tax_regime_choices,
        help_text=TAX_REGIME_HELP,
    )
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    updated_at = models.DateTimeField(_("last changed"), auto_now=True)

    class Meta:
        verbose_name = _("package")
        verbose_name_plural = _("packages")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(base__gte=0), name="package_base_non_negative"),
            models.CheckConstraint(
                condition=Q(relocation__gte=0), name="package_relocation_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(raise_pct__gte=0, raise_pct__lte=50), name="package_raise_range"
            ),
            models.CheckConstraint(
                condition=Q(bonus_target_pct__gte=0), name="package_bonus_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(bonus_multiplier__gte=0), name="package_multiplier_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(bonus_payout_month__gte=1, bonus_payout_month__lte=12)
                & Q(bonus_fiscal_start_month__gte=1, bonus_fiscal_start_month__lte=12),
                name="package_bonus_months_range",
            ),
            models.CheckConstraint(
                # Both or neither. The NOT NULLs matter: a comparison with NULL is unknown,
                # and a CHECK passes an unknown.
                condition=Q(bonus_cutoff_month__isnull=True, bonus_cutoff_day__isnull=True)
                | Q(
                    bonus_cutoff_month__isnull=False,
                    bonus_cutoff_day__isnull=False,
                    bonus_cutoff_month__gte=1,
                    bonus_cutoff_month__lte=12,
                    bonus_cutoff_day__gte=1,
                    bonus_cutoff_day__lte=31,
                ),
                name="package_bonus_cutoff_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def bonus_payout_day(self) -> dt.date:
        """Return the bonus's yearly payout day (the 15th of its month), for "paid on 15 Mar"."""
        return dt.date(2000, self.bonus_payout_month, 15)


# A package's sign-ons, grants and refreshers have their own module (which names the package
# by its label, never importing this one): importing it here registers them with the app.
from compensation import package_parts  # noqa: E402, F401
