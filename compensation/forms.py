"""Forms of the compensation pages; they validate input, services write it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.locking import require_version
from compensation import engine, selectors, vesting_labels
from compensation.form_fields import KeepsOmitted, checked_formfield
from compensation.models import Band, Company, FxRate, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from compensation.services import (
    BAND_FIELDS,
    COMPANY_FIELDS,
    LOCATION_FIELDS,
    PACKAGE_FIELDS,
)
from compensation.terms import (
    GRANT_OWN_FIELDS,
    REFRESHER_OWN_FIELDS,
    SIGN_ON_FIELDS,
    VESTING_FIELDS,
)

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def preset_choices() -> list[tuple[str, str]]:
    """Return the engine's vesting presets as form choices, by readable name."""
    return vesting_labels.preset_choices(empty_label=_("— custom —"))


def preset_field(label: str) -> forms.ChoiceField:
    """Return a choice of the vesting presets; blank: the schedule typed in the fields below."""
    return forms.ChoiceField(
        label=label,
        choices=preset_choices,
        required=False,
        help_text=_("Custom: the schedule typed in the fields below."),
    )


class CompanyForm(forms.ModelForm):
    vesting_preset = preset_field(_("usual vesting schedule"))

    class Meta:
        model = Company
        fields = list(COMPANY_FIELDS)
        formfield_callback = checked_formfield
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}


class LevelForm(forms.ModelForm):
    class Meta:
        model = Level
        fields = ["code", "title", "order", "equivalence"]
        formfield_callback = checked_formfield


class BandForm(forms.ModelForm):
    class Meta:
        model = Band
        fields = list(BAND_FIELDS)
        formfield_callback = checked_formfield
        widgets = {"as_of": DATE}
        labels = {"level": _("Level")}  # a foreign key without a verbose name

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].queryset = selectors.level_list(user=user)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for prefix in ("base", "stock"):
            lo, mid, hi = (data.get(f"{prefix}_{k}") for k in ("min", "mid", "max"))
            if lo is not None and mid is not None and mid < lo:
                self.add_error(f"{prefix}_mid", _("Must be at least the minimum."))
            if mid is not None and hi is not None and hi < mid:
                self.add_error(f"{prefix}_max", _("Must be at least the mid-point."))
        return data


class BandImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), help_text=_("UTF-8, at most 5 MB."))


class FxRateForm(forms.ModelForm):
    class Meta:
        model = FxRate
        fields = ["currency", "to_currency", "rate", "as_of"]
        formfield_callback = checked_formfield
        widgets = {"as_of": DATE}


class LocationForm(forms.ModelForm):
    class Meta:
        model = LocationPreset
        fields = list(LOCATION_FIELDS)
        formfield_callback = checked_formfield


# Which base a job you hold wants: today's, not the one you were hired at (docs/valuation.md,
# "A job you hold"). The offer page says the same above its pay fields.
BASE_HELP = _(
    "For a job you hold (staying, the pay before a transfer): today's base. Raises apply from "
    "your next work anniversary after the decision date."
)
START_HELP = _(
    "For a job you hold: your hire date (raises fall on its anniversaries). Refreshers granted "
    "before the decision date are grants below, each with its own date and price."
)


class PackageForm(KeepsOmitted):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Package
        fields = list(PACKAGE_FIELDS)
        formfield_callback = checked_formfield
        widgets = {"start_date": DATE}
        # The foreign keys have no verbose name: without these the labels stay English.
        labels = {"company": _("Company"), "level": _("Level"), "location": _("Location")}
        help_texts = {"base": BASE_HELP, "start_date": START_HELP}

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["company"].queryset = selectors.company_list(user=user)
        self.fields["level"].queryset = selectors.level_list(user=user)
        self.fields["location"].queryset = selectors.location_list(user=user)
        if self.instance.pk and not self.is_bound:
            self.initial["version"] = self.instance.version

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if (data.get("bonus_cutoff_month") is None) != (data.get("bonus_cutoff_day") is None):
            self.add_error(
                "bonus_cutoff_day", _("Give both the cut-off month and day, or neither.")
            )
        elif data.get("bonus_cutoff_month") is not None:
            try:
                engine.check_calendar_dates(
                    "cutoff", [(data["bonus_cutoff_month"], data["bonus_cutoff_day"])]
                )
            except engine.EngineInputError:
                self.add_error("bonus_cutoff_day", _("That day does not exist in that month."))
        company, level = data.get("company"), data.get("level")
        if company is not None and level is not None and level.company_id != company.pk:
            self.add_error("level", _("Choose a level of the package's company."))
        require_version(self)
        return data

    def package_fields(self) -> dict[str, Any]:
        """Return the cleaned model fields (without the version)."""
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


def parse_weights(text: str) -> list[float]:
    """Return yearly vesting percentages from text like "25, 25, 25, 25" or "33/33/22/12"."""
    parts = list(text.replace("/", ",").replace(";", ",").replace("%", "").split(","))
    parts = [p.strip() for p in parts if p.strip()]
    if not parts:
        raise ValidationError(_("Enter one percentage per year, e.g. 25,25,25,25."))
    try:
        weights = [float(p) for p in parts]
    except ValueError:
        raise ValidationError(_("Use numbers separated by commas, e.g. 33,33,22,12.")) from None
    if any(w < 0 or w != w or w in (float("inf"),) for w in weights):
        raise ValidationError(_("Percentages must be zero or more."))
    if len(weights) > 10:
        raise ValidationError(_("At most 10 years."))
    if abs(sum(weights) - 100.0) > 1e-6:
        raise ValidationError(
            _("The yearly percentages must add up to 100 (they add up to %(s)s).")
            % {"s": f"{sum(weights):g}"}
        )
    return weights


def _pairs(
    text: str, sep: str, read: Callable[[str, str], list[Any]], message: Any
) -> list[list[Any]]:
    """Return the comma-separated "a<sep>b" pairs of text, each read by ``read`` (empty: [])."""
    pairs: list[list[Any]] = []
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        first, found, second = part.partition(sep)
        try:
            if not found:
                raise ValueError(part)
            pairs.append(read(first, second))
        except ValueError:
            raise ValidationError(message) from None
    return pairs


def parse_vest_dates(text: str) -> list[list[int]] | None:
    """Return [month, day] pairs from text like "02-15, 05-15, 08-15, 11-15" (empty: None)."""
    message = _("Write each date as month-day, e.g. 02-15, 05-15, 08-15, 11-15.")
    pairs = _pairs(text.replace("/", "-"), "-", lambda m, d: [int(m), int(d)], message)
    if not pairs:
        return None
    try:
        checked = engine.check_calendar_dates("vest_dates", pairs)
    except engine.EngineInputError as error:
        raise ValidationError(
            _("%(dates)s is not a valid list of dates: %(why)s")
            % {"dates": text.strip(), "why": error.message}
        ) from None
    return [list(pair) for pair in checked]


def format_vest_dates(dates: Any) -> str:
    """Return [month, day] pairs as "02-15, 05-15"."""
    if not isinstance(dates, list) or not dates:
        return ""
    return ", ".join(f"{int(m):02d}-{int(d):02d}" for m, d in dates)


def format_weights(weights: Any) -> str:
    """Return weights as "25,25,25,25"."""
    if not isinstance(weights, list):
        return ""
    return ",".join(f"{float(w):g}" for w in weights)


class VestingFormMixin(forms.ModelForm):
    """Weights typed as "25,25,25,25" or picked from a preset (which wins when chosen)."""

    preset = preset_field(_("preset"))
    weights_text = forms.CharField(
        label=_("yearly vesting %"),
        initial="25,25,25,25",
        required=False,
        max_length=100,
        help_text=_("One percentage per year, e.g. 33,33,22,12."),
    )
    vest_dates_text = forms.CharField(
        label=_("fixed vest dates"),
        required=False,
        max_length=200,
        help_text=_(
            "Optional: the calendar days every tranche vests on, as month-day, one per vest "
            "in a year (Meta, quarterly: 02-15, 05-15, 08-15, 11-15). The first vest is the "
            "first such day after the vesting start (or the cliff)."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and not self.is_bound:
            self.initial["weights_text"] = format_weights(self.instance.weights)
            self.initial["vest_dates_text"] = format_vest_dates(self.instance.vest_dates)
        self.fields["cliff_months"].required = False
        self.fields["frequency_months"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        if preset:
            data.update(selectors.preset_vesting(preset).fields())
        else:
            try:
                data["vest_dates"] = parse_vest_dates(data.get("vest_dates_text") or "")
            except ValidationError as error:
                self.add_error("vest_dates_text", error)
                return data
            try:
                data["weights"] = parse_weights(data.get("weights_text") or "")
            except ValidationError as error:
                self.add_error("weights_text", error)
                return data
            data["cliff_months"] = data.get("cliff_months") or 0
            data["frequency_months"] = data.get("frequency_months") or 3
            if self.instance.pk and self.instance.weights == data["weights"]:
                data["year_frequencies"] = self.instance.year_frequencies
            else:
                data["year_frequencies"] = None
        probe = type(self.instance)(
            weights=data["weights"],
            cliff_months=data["cliff_months"],
            frequency_months=data["frequency_months"],
            year_frequencies=data["year_frequencies"],
            vest_dates=data["vest_dates"],
        )
        try:
            selectors.schedule_of(probe)
        except engine.EngineInputError as error:
            target = {"cliff_months": "cliff_months", "vest_dates": "vest_dates_text"}.get(
                error.field, "weights_text"
            )
            self.add_error(target, error.message)
        return data

    def vesting_values(self) -> dict[str, Any]:
        return {k: self.cleaned_data[k] for k in VESTING_FIELDS}


def parse_instalments(text: str) -> list[list[float]] | None:
    """Return [months, share] pairs from text like "0:50%, 12:50%" (empty: None, all at once)."""

    def read(months: str, share: str) -> list[Any]:
        pct = float(share.replace("%", "").strip())
        return [int(months.strip()), pct / 100.0]

    message = _("Write each instalment as months:share, e.g. 0:50%, 12:50%.")
    pairs = _pairs(text, ":", read, message)
    if not pairs:
        return None
    try:
        checked = engine.check_instalments("instalments", pairs)
    except engine.EngineInputError as error:
        raise ValidationError(
            _("These instalments do not work: %(why)s") % {"why": error.message}
        ) from None
    return [[m, f] for m, f in checked]


def format_instalments(instalments: Any) -> str:
    """Return [months, share] pairs as "0:50%, 12:50%"."""
    if not isinstance(instalments, list) or not instalments:
        return ""
    return ", ".join(f"{int(m)}:{float(f) * 100:g}%" for m, f in instalments)


class SignOnForm(forms.ModelForm):
    instalments_text = forms.CharField(
        label=_("instalments"),
        required=False,
        max_length=200,
        help_text=_(
            "Empty: all of it at the start of its year. Else months after that: share, e.g. "
            "0:50%, 12:50% (half at once, half a year later)."
        ),
    )

    class Meta:
        model = SignOn
        fields = [f for f in SIGN_ON_FIELDS if f != "instalments"]
        formfield_callback = checked_formfield

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clawback_kind"].required = False
        if self.instance.pk and not self.is_bound:
            self.initial["instalments_text"] = format_instalments(self.instance.instalments)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["clawback_kind"] = data.get("clawback_kind") or "prorated"
        try:
            data["instalments"] = parse_instalments(data.get("instalments_text") or "")
        except ValidationError as error:
            self.add_error("instalments_text", error)
        return data

    def row(self) -> dict[str, Any]:
        return {k: self.cleaned_data.get(k) for k in SIGN_ON_FIELDS}


class GrantForm(VestingFormMixin):
    class Meta:
        model = EquityGrant
        fields = [*GRANT_OWN_FIELDS, "cliff_months", "frequency_months"]
        widgets = {"vest_start": DATE}
        formfield_callback = checked_formfield

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Show the currency a blank field stands for: the company's share-price currency.
        try:
            package = self.instance.package
        except Package.DoesNotExist:
            package = None
        if package is not None and package.company_id is not None:
            self.fields["price_currency"].widget.attrs["placeholder"] = selectors.stock_currency(
                package
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("value") is None and data.get("shares") is None:
            self.add_error("value", _("Give the grant's value or its number of shares."))
        return data

    def row(self) -> dict[str, Any]:
        d = self.cleaned_data
        own = {k: d.get(k) for k in GRANT_OWN_FIELDS}
        return {**own, "price_currency": d.get("price_currency") or "", **self.vesting_values()}


class RefresherForm(VestingFormMixin):
    class Meta:
        model = Refresher
        fields = [*REFRESHER_OWN_FIELDS, "cliff_months", "frequency_months"]
        formfield_callback = checked_formfield

    def row(self) -> dict[str, Any]:
        own = {k: self.cleaned_data[k] for k in REFRESHER_OWN_FIELDS}
        return {**own, **self.vesting_values()}


SignOnFormSet = forms.inlineformset_factory(
    Package, SignOn, form=SignOnForm, extra=1, can_delete=True, max_num=10, validate_max=True
)
GrantFormSet = forms.inlineformset_factory(
    Package, EquityGrant, form=GrantForm, extra=1, can_delete=True, max_num=10, validate_max=True
)
RefresherFormSet = forms.inlineformset_factory(
    Package, Refresher, form=RefresherForm, extra=1, can_delete=True, max_num=5, validate_max=True
)


def formset_rows(formset: forms.BaseInlineFormSet) -> list[dict[str, Any]]:
    """Return one dict per kept, filled-in form (with "id" for existing rows)."""
    rows: list[dict[str, Any]] = []
    for form in formset.forms:
        if not form.has_changed() and not form.instance.pk:
            continue
        if formset.can_delete and formset._should_delete_form(form):
            continue
        row = form.row()
        if form.instance.pk:
            row["id"] = form.instance.pk
        rows.append(row)
    return rows
