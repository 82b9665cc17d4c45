"""Models of a package's parts: its sign-on payments, stock grants and refreshers."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compensation.model_fields import MONEY, NON_NEGATIVE, currency_validator, default_weights


class Clawback(models.TextChoices):
    PRORATED = "prorated", _("Pro-rated")
    FULL = "full", _("In full")


class VestingFrequency(models.IntegerChoices):
    MONTHLY = 1, _("Monthly")
    QUARTERLY = 3, _("Quarterly")
    SEMIANNUAL = 6, _("Every six months")
    YEARLY = 12, _("Yearly")


class SignOn(models.Model):
    """A sign-on payment, paid in a year of the package, clawed back if leaving early."""

    package = models.ForeignKey(
        "compensation.Package",
        verbose_name=_("package"),
        on_delete=models.CASCADE,
        related_name="sign_ons",
    )
    amount = models.DecimalField(_("amount"), validators=NON_NEGATIVE, **MONEY)
    year = models.PositiveSmallIntegerField(
        _("paid in year"), default=1, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    clawback_months = models.PositiveSmallIntegerField(
        _("clawback months"), default=12, validators=[MaxValueValidator(60)]
    )
    clawback_kind = models.CharField(
        _("clawback terms"),
        max_length=8,
        choices=Clawback.choices,
        default=Clawback.PRORATED,
        help_text=_(
            "What you repay if you leave within the clawback months of a payment: pro-rated "
            "by the months not served, or in full."
        ),
    )
    instalments = models.JSONField(
        _("instalments"),
        null=True,
        blank=True,
        help_text=_(
            "Empty: all of it at the start of its year. Else [months after it, share] pairs, "
            "e.g. 50 % at once and 50 % after 12 months: [[0, 0.5], [12, 0.5]]."
        ),
    )

    class Meta:
        verbose_name = _("sign-on bonus")
        verbose_name_plural = _("sign-on bonuses")
        ordering = ["year", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="signon_amount_non_negative"),
            models.CheckConstraint(
                condition=Q(year__gte=1, year__lte=10), name="signon_year_range"
            ),
            models.CheckConstraint(
                condition=Q(clawback_kind__in=Clawback.values), name="signon_clawback_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} in year {self.year}"


class VestingFields(models.Model):
    """Vesting schedule fields shared by grants and refreshers."""

    weights = models.JSONField(_("yearly vesting %"), default=default_weights)
    cliff_months = models.PositiveSmallIntegerField(
        _("cliff months"), default=0, validators=[MaxValueValidator(120)]
    )
    frequency_months = models.PositiveSmallIntegerField(
        _("vests every"), choices=VestingFrequency.choices, default=VestingFrequency.QUARTERLY
    )
    year_frequencies = models.JSONField(
        _("vest frequency per year"),
        null=True,
        blank=True,
        help_text=_("Optional months between vests, one per year (Amazon: 12, 12, 6, 6)."),
    )
    vest_dates = models.JSONField(
        _("fixed vest dates"),
        null=True,
        blank=True,
        help_text=_(
            "Optional calendar days every tranche vests on, as [month, day] pairs "
            "(Meta: [[2, 15], [5, 15], [8, 15], [11, 15]]), whatever the vesting start."
        ),
    )

    class Meta:
        abstract = True


class EquityGrant(VestingFields):
    """An RSU grant: a value (converted at the grant price) or a share count.

    ``grant_price`` and ``value`` are both in ``price_currency``, the currency the stock
    is priced in, as an offer letter reads ("USD 400,000 of RSUs at USD 100 a share"
    is 4,000 shares, whatever currency the salary is paid in). A blank
    ``price_currency`` means the company's share-price currency (``Company.currency``),
    or the package currency for a package without a company: see
    `compensation.selectors.grant_price_currency`. The shares are ``value / grant_price``;
    at each vest they are worth the share price then, converted into the package
    currency at the FX table's rate.
    """

    package = models.ForeignKey(
        "compensation.Package",
        verbose_name=_("package"),
        on_delete=models.CASCADE,
        related_name="grants",
    )
    label = models.CharField(_("label"), max_length=80, blank=True)
    value = models.DecimalField(
        _("grant value"),
        null=True,
        blank=True,
        validators=NON_NEGATIVE,
        help_text=_("In the share price's currency, like the grant price."),
        **MONEY,
    )
    shares = models.DecimalField(
        _("shares"), max_digits=14, decimal_places=4, null=True, blank=True, validators=NON_NEGATIVE
    )
    grant_price = models.DecimalField(
        _("grant price"),
        max_digits=14,
        decimal_places=4,
        validators=[MinValueValidator(Decimal("0.0001"))],
    )
    price_currency = models.CharField(
        _("share price currency"),
        max_length=3,
        blank=True,
        default="",
        validators=[currency_validator],
        help_text=_(
            "ISO 4217 code of the grant price and value, e.g. USD for a US-listed parent. "
            "Empty: the company's share-price currency."
        ),
    )
    vest_start = models.DateField(_("vesting start"))

    class Meta:
        verbose_name = _("stock grant")
        verbose_name_plural = _("stock grants")
        ordering = ["vest_start", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(value__isnull=False) | Q(shares__isnull=False),
                name="grant_value_or_shares",
            ),
            models.CheckConstraint(
                condition=Q(value__isnull=True) | Q(value__gte=0), name="grant_value_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(shares__isnull=True) | Q(shares__gte=0),
                name="grant_shares_non_negative",
            ),
            models.CheckConstraint(condition=Q(grant_price__gt=0), name="grant_price_positive"),
        ]

    def __str__(self) -> str:
        return self.label or gettext("Grant from %(date)s") % {"date": self.vest_start}


class Refresher(VestingFields):
    """Yearly refresher grants of a given value, from `first_year` on.

    ``yearly_value`` is in the stock's currency (``Company.currency``, or the package
    currency without a company), like a grant's value: each refresher becomes shares at
    the share price on its grant date.
    """

    package = models.ForeignKey(
        "compensation.Package",
        verbose_name=_("package"),
        on_delete=models.CASCADE,
        related_name="refreshers",
    )
    yearly_value = models.DecimalField(
        _("yearly value"),
        validators=NON_NEGATIVE,
        help_text=_("In the share price's currency (the company's)."),
        **MONEY,
    )
    first_year = models.PositiveSmallIntegerField(
        _("first year"), default=2, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )

    class Meta:
        verbose_name = _("refresher")
        verbose_name_plural = _("refreshers")
        ordering = ["first_year", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(yearly_value__gte=0), name="refresher_value_non_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.yearly_value}/year from year {self.first_year}"
