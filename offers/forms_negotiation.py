"""Forms of the negotiation log: log an ask (with its answer if it came), record an answer."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.wording import aside
from compensation.form_fields import checked_formfield
from compensation.models import Level
from compensation.selectors import package_terms
from compensation.terms import stock_grant_currency
from offers.models import NegotiationEntry, Offer
from offers.services_negotiation import ANSWER_FIELDS, ASK_FIELDS

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TEXT = forms.Textarea(attrs={"rows": 2})


class _TermsForm(forms.ModelForm):
    """Revised terms, each in its own currency, and the versions of the offer the form saw."""

    offer_version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    package_version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args: Any, offer: Offer, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.offer = offer
        pay = offer.package.currency
        # A revised grant is stated in the grant's own currency (USD for a US-listed parent,
        # whatever the pay's currency), as the recruiter says it.
        stock = stock_grant_currency(
            package_terms(offer.package), revise_first_grant=offer.kind == Offer.Kind.EXTERNAL
        )
        self.fields["offer_version"].initial = offer.version
        self.fields["package_version"].initial = offer.package.version
        for name, help_text, currency in (
            ("revised_base", _("The new base salary a year, in %(c)s."), pay),
            ("revised_stock", _("The new stock grant in total over its vesting, in %(c)s."), stock),
            ("revised_sign_on", _("The new year-1 sign-on, in %(c)s."), pay),
        ):
            self.fields[name].help_text = help_text % {"c": currency}
            self.fields[name].label = f"{self.fields[name].label}{aside(currency)}"
        self.fields["revised_level"].queryset = Level.objects.filter(
            company_id=offer.company_id
        ).order_by("order")
        self.fields["revised_deadline"].help_text = _(
            "The offer's new decision deadline, if they moved it."
        )
        self.fields["decision_by"].help_text = _(
            "The day they said they would decide, if they gave one: the timeline lines it up."
        )
        self.fields["letter_by"].help_text = _(
            "The day they said the offer letter would come, if they gave one."
        )
        self.fields["revised_level"].help_text = _(
            "Revised terms make a new version of the offer; the earlier one stays in its history."
        )


class NegotiationEntryForm(_TermsForm):
    """Log what was asked, when and through whom; what came back may follow later."""

    class Meta:
        model = NegotiationEntry
        fields = [*ASK_FIELDS, *ANSWER_FIELDS]
        formfield_callback = checked_formfield
        widgets = {
            "asked_on": DATE,
            "answered_on": DATE,
            "revised_deadline": DATE,
            "decision_by": DATE,
            "letter_by": DATE,
            "ask": TEXT,
            "answer": TEXT,
        }

    def __init__(self, *args: Any, offer: Offer, **kwargs: Any) -> None:
        kwargs.setdefault("instance", NegotiationEntry(owner_id=offer.owner_id, offer=offer))
        super().__init__(*args, offer=offer, **kwargs)
        if not self.instance.asked_on:  # the instance's empty date would hide a field initial
            self.initial["asked_on"] = timezone.localdate()


class NegotiationAnswerForm(_TermsForm):
    """Record what came back on an ask that was waiting for an answer."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    class Meta:
        model = NegotiationEntry
        fields = ANSWER_FIELDS
        formfield_callback = checked_formfield
        widgets = {
            "answered_on": DATE,
            "revised_deadline": DATE,
            "decision_by": DATE,
            "letter_by": DATE,
            "answer": TEXT,
        }

    def __init__(self, *args: Any, offer: Offer, **kwargs: Any) -> None:
        super().__init__(*args, offer=offer, **kwargs)
        self.fields["version"].initial = self.instance.version
        self.fields["outcome"].choices = [
            c for c in NegotiationEntry.Outcome.choices if c[0] != NegotiationEntry.Outcome.PENDING
        ]
        if not self.instance.answered_on:
            self.initial["answered_on"] = timezone.localdate()
