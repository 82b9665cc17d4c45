"""Forms for options, preferences and scenarios; every bound value is validated here."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Exists, Q, Subquery
from django.forms.models import fields_for_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.idempotency import new_form_token
from accounts.locking import VersionedForm, require_version
from accounts.widgets import LevelSelect
from accounts.wording import aside
from accounts.zones import TimeZoneField
from compensation import vesting_labels
from compensation.form_fields import (
    MAX_AMOUNT,
    CurrencyField,
    KeepsOmitted,
    NumberField,
    checked_formfield,
)
from compensation.models import Company, LocationPreset, Package
from compensation.selectors import level_list, preset_vesting
from compensation.terms import TERM_FIELDS, Money, TermsChange
from offers.logic.criteria import CRITERIA, RATINGS
from offers.models import OFFER_FIELDS, Offer, Preferences, Scenario
from offers.scenarios.adjustments import ADJUSTMENTS, SCENARIO_FIELDS

COMMON_ZONES = [
    "Asia/Taipei",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Hong_Kong",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Asia/Kolkata",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Vancouver",
    "Australia/Sydney",
    "UTC",
]


class TimezoneField(TimeZoneField):
    """The shared time-zone check (`accounts.zones`), suggested from the page's zone list."""

    widget = forms.TextInput(attrs={"list": "tz-list", "autocomplete": "off"})


def money_field(label: str, *, required: bool = False, help_text: str = "") -> NumberField:
    """Return a non-negative amount in plain digits, at most MAX_AMOUNT."""
    return NumberField(
        label=label, required=required, help_text=help_text, min_value=0, max_value=MAX_AMOUNT
    )


def preset_choices() -> list[tuple[str, str]]:
    """Return the vesting presets by readable name ("Google: 33/33/22/12, monthly")."""
    return vesting_labels.preset_choices(empty_label=_("Company default"))


class NewTermsForm(forms.Form):
    """The quick way to give a new option's sign-ons and stock: its cleaned data is a change.

    On the offer form when an option is added; afterwards they are edited, grant by grant, on
    the package page. `terms_change` is the change they make to the package's terms.
    """

    sign_on_year1 = money_field(_("Sign-on, year 1"))
    sign_on_year2 = money_field(_("Sign-on, year 2"))
    clawback_months = forms.IntegerField(
        label=_("Sign-on clawback months"),
        initial=12,
        required=False,
        validators=[MinValueValidator(0), MaxValueValidator(60)],
    )
    stock_grant = money_field(
        _("Initial stock grant (total value)"),
        help_text=_(
            "The whole grant, not per year, in the stock grant currency below. Empty: an "
            "external offer estimates four times the band's yearly stock midpoint; an "
            "internal transfer or staying keeps the grants you hold and adds none."
        ),
    )
    stock_currency = CurrencyField(
        label=_("Stock grant currency"),
        required=False,
        help_text=_(
            "The currency of the grant and refresher values as the offer letter states them "
            "(often USD for a US-listed company). Empty: the salary currency above."
        ),
    )
    vesting_preset = forms.ChoiceField(
        label=_("Vesting schedule"),
        choices=preset_choices,
        required=False,
        help_text=_(
            "Company default: the company's usual schedule; a company without one vests "
            "evenly, quarterly."
        ),
    )
    refresher_yearly = money_field(_("Expected refresher a year"))

    def terms_change(self, *, pay_currency: str) -> TermsChange:
        """Return the change these fields make to a new package's terms.

        Sign-ons are in the pay currency, stock in the stock grant currency (empty: the pay
        currency); an empty or zero amount adds nothing.
        """
        data = self.cleaned_data
        stock = data.get("stock_currency") or pay_currency

        def money(name: str, currency: str) -> Money | None:
            return Money(data[name], currency) if data.get(name) else None

        preset = data.get("vesting_preset") or ""
        return TermsChange(
            sign_on_year1=money("sign_on_year1", pay_currency),
            sign_on_year2=money("sign_on_year2", pay_currency),
            clawback_months=data.get("clawback_months"),
            stock_grant=money("stock_grant", stock),
            grant_label="Initial grant",
            refresher_yearly=money("refresher_yearly", stock),
            vesting=preset_vesting(preset) if preset else None,
        )


# The bonus timing is edited on the package page alone; every other term is on this form too.
PACKAGE_PAGE_ONLY = frozenset(
    {
        "bonus_cycle",
        "bonus_fiscal_start_month",
        "bonus_payout_month",
        "bonus_prorate_first_year",
        "bonus_cutoff_month",
        "bonus_cutoff_day",
        "bonus_paid_if_left",
    }
)
# The package's fields the offer form edits: model name -> form name, built from the model
# (its labels, bounds and checks). An option's own `location` (where the job is) and its
# package's tax `location` share a name: the page posts the package's as `tax_location`.
PACKAGE_FORM_NAMES = {
    name: "tax_location" if name == "location" else name
    for name in ("company", *TERM_FIELDS)
    if name not in PACKAGE_PAGE_ONLY
}
PACKAGE_HELP = {
    "base": _("Leave empty to use the band's midpoint."),
    "currency": _("ISO 4217, e.g. USD, SGD, TWD, CNY."),
    "start_date": _("Empty: about two months from today."),
}


def _package_fields() -> dict[str, forms.Field]:
    """Return the offer form's package fields, from the Package model, by their form names."""
    fields = fields_for_model(
        Package,
        fields=list(PACKAGE_FORM_NAMES),
        formfield_callback=checked_formfield,
        help_texts=PACKAGE_HELP,
        widgets={
            "level": LevelSelect,
            "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        },
    )
    # Empty is a choice on this form: a band's figure, a model default, the stored one (see
    # offers.services); the currency alone is always stated.
    for name, field in fields.items():
        field.required = name == "currency"
    fields["bonus_target_pct"].initial = None  # empty: the band's target
    return {PACKAGE_FORM_NAMES[name]: field for name, field in fields.items()}


class OfferForm(NewTermsForm, forms.ModelForm):
    """An option and its package's terms in one form: the quick way to add an offer."""

    # The 1-5 rating fields, one per rating criterion, for the template's field list.
    rating_names = ",".join(c.rating_field for c in RATINGS)

    work_timezone = TimezoneField(
        label=_("Work time zone (the team's)"), initial="America/Los_Angeles"
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # The package's own version, so that an edit made on the package page meanwhile is refused.
    package_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # One-time token of the new-offer form: posting the same form twice adds one option.
    form_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    class Meta:
        model = Offer
        fields = OFFER_FIELDS
        formfield_callback = checked_formfield
        # The foreign keys have no verbose name: without these the labels stay English.
        labels = {"target_level": _("Target level"), "process": _("Process")}
        widgets = {
            "deadline": forms.DateInput(attrs={"type": "date"}),
            "notes": forms.Textarea(attrs={"rows": 3}),
            "target_level": LevelSelect,
        }

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        visible = Q(owner=user) | Q(owner__isnull=True)
        self.fields["company"].queryset = Company.objects.filter(visible)
        levels = level_list(user=user)
        self.fields["level"].queryset = levels
        self.fields["target_level"].queryset = levels
        self.fields["tax_location"].queryset = LocationPreset.objects.filter(visible)
        from interviews.models import Process

        self.fields["process"].queryset = Process.objects.filter(owner=user).select_related(
            "company"
        )
        self.fields["process"].required = False
        if not self.instance.pk:
            self.fields["form_token"].initial = new_form_token()
            return
        del self.fields["form_token"]
        package = self.instance.package
        self.fields["version"].initial = self.instance.version
        self.fields["package_version"].initial = package.version
        for name, form_name in PACKAGE_FORM_NAMES.items():
            self.fields[form_name].initial = getattr(package, name)
        # Grants, sign-ons and refreshers are edited in detail on the package page.
        for name in NewTermsForm.base_fields:
            del self.fields[name]

    @property
    def package_names(self) -> str:
        """Return the package's fields on this form, in order, for the template's field list."""
        return ",".join(n for n in _PACKAGE_ORDER if n in self.fields)

    def offer_fields(self) -> dict[str, Any]:
        """Return the option's own fields (the Offer model's), as cleaned."""
        return {name: self.cleaned_data[name] for name in OFFER_FIELDS if name in self.cleaned_data}

    def package_fields(self) -> dict[str, Any]:
        """Return the package's fields in the Package model's names, as cleaned (None: empty)."""
        return {
            name: self.cleaned_data[form_name]
            for name, form_name in PACKAGE_FORM_NAMES.items()
            if form_name in self.cleaned_data
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        level, company = data.get("level"), data.get("company")
        for name in ("level", "target_level"):
            picked = data.get(name)
            if picked and company and picked.company_id != company.pk:
                self.add_error(
                    name,
                    _("This level belongs to %(c)s, not the chosen company.")
                    % {"c": picked.company},
                )
        start, deadline = data.get("start_date"), data.get("deadline")
        if start and deadline and deadline > start:
            self.add_error("deadline", _("The decision deadline must come before the start date."))
        if data.get("kind") != Offer.Kind.STAY and not data.get("base") and not level:
            self.add_error(
                "base",
                _("Enter the base salary, or pick a level so the band's midpoint can be used."),
            )
        require_version(self)
        return data


OfferForm.base_fields.update(_package_fields())
# The package's company, level and start date sit among the option's fields, in the order of
# the page and of the spreadsheet import's columns (which read base_fields); its other terms
# follow the option's.
_PLACED_WITH_OFFER = ("company", "level", "start_date")
_OFFER_ORDER = [
    *OFFER_FIELDS[: OFFER_FIELDS.index("process")],
    "company",
    "process",
    "level",
    *OFFER_FIELDS[OFFER_FIELDS.index("process") + 1 : OFFER_FIELDS.index("deadline")],
    "start_date",
    *OFFER_FIELDS[OFFER_FIELDS.index("deadline") :],
]
_PACKAGE_ORDER = [
    *(n for n in PACKAGE_FORM_NAMES.values() if n not in _PLACED_WITH_OFFER),
    *NewTermsForm.base_fields,
]
OfferForm.base_fields = {
    name: OfferForm.base_fields[name]
    for name in [
        *_OFFER_ORDER,
        *_PACKAGE_ORDER,
        *(n for n in OfferForm.base_fields if n not in _OFFER_ORDER and n not in _PACKAGE_ORDER),
    ]
}


class PreferencesForm(KeepsOmitted):
    # The weight fields, one per ranking criterion, for the template's field list.
    weight_names = ",".join(c.weight_field for c in CRITERIA)
    home_timezone = TimezoneField(label=_("Home time zone"))
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Preferences
        fields = [
            "home_timezone",
            "day_start",
            "day_end",
            "family_start",
            "family_end",
            "required_remote_weeks",
            "min_first_year_total",
            "relocation_ok",
            "rank_in_hand_only",
            "decision_date",
            "horizon_years",
            "home_currency",
            "basis",
            "risk_percentile",
            "discount_rate_pct",
            "market_correlation",
            "uncertainty_of_weights",
            "risk_aversion",
            "reminders_email",
            "reminder_days",
            *(c.weight_field for c in CRITERIA),
        ]
        formfield_callback = checked_formfield
        widgets = {
            "day_start": forms.TimeInput(attrs={"type": "time"}),
            "day_end": forms.TimeInput(attrs={"type": "time"}),
            "family_start": forms.TimeInput(attrs={"type": "time"}),
            "family_end": forms.TimeInput(attrs={"type": "time"}),
            "decision_date": forms.DateInput(attrs={"type": "date"}),
        }

    def clean_decision_date(self) -> dt.date | None:
        value = self.cleaned_data.get("decision_date")
        today = timezone.localdate()
        if value is not None and not (
            today - dt.timedelta(days=366 * 5) <= value <= today + dt.timedelta(days=366 * 5)
        ):
            raise forms.ValidationError(_("Pick a decision date within five years of today."))
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("day_start") and data.get("day_end") and data["day_start"] == data["day_end"]:
            self.add_error("day_end", _("The working window cannot be empty."))
        if bool(data.get("family_start")) != bool(data.get("family_end")):
            self.add_error("family_end", _("Give both ends of the family time, or neither."))
        weights = [data.get(c.weight_field) for c in CRITERIA]
        if all(w is not None for w in weights) and sum(weights) <= 0:  # type: ignore[arg-type]
            raise forms.ValidationError(_("At least one weight must be above zero."))
        require_version(self)
        return data


class ScenarioForm(VersionedForm):
    class Meta:
        model = Scenario
        fields = list(SCENARIO_FIELDS)
        formfield_callback = checked_formfield
        labels = {"level": _("Level")}  # a foreign key without a verbose name
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "notes": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        levels = level_list(user=user)
        if self.instance.offer_id:
            # A scenario plays out its own offer: only that company's ladder (in the same query).
            offer = Offer.objects.filter(pk=self.instance.offer_id, package__company__isnull=False)
            levels = levels.filter(
                Q(company_id=Subquery(offer.values("package__company_id")[:1])) | ~Exists(offer)
            )
        self.fields["level"].queryset = levels
        if self.instance.offer_id:
            # Every amount says its currency where it is typed: pay in the offer's pay
            # currency, stock in the scenario's (the grant's price currency).
            for adjustment in ADJUSTMENTS:
                currency = adjustment.currency(self.instance)
                if currency:  # an unsaved scenario names none yet
                    field = self.fields[adjustment.key]
                    field.label = f"{field.label}{aside(currency)}"
