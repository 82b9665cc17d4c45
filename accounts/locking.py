"""Optimistic locking: refuse a save when the row changed since the form was opened."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.signals import rows_updated

# Said when an edit comes without the version its page was opened at: nothing is saved.
NO_VERSION = gettext_lazy(
    "This form was sent without the version it was opened at, so your edits were not saved; "
    "reload the page and make them again."
)


class StaleEditError(Exception):
    """The object changed since the user opened it."""

    def __init__(self, obj: models.Model) -> None:
        super().__init__(
            _(
                "%(obj)s was changed since you opened it (maybe in another tab). "
                "Your edits were not saved; reload to see the latest version."
            )
            % {"obj": obj}
        )
        self.obj = obj


def save_if_unchanged(obj: models.Model, *, expected_version: int, fields: list[str]) -> None:
    """Save `fields` of `obj` and bump its version, only if the stored version still matches."""
    values: dict[str, Any] = {f: getattr(obj, f) for f in fields}
    model = type(obj)
    updated = model.objects.filter(pk=obj.pk, version=expected_version).update(
        version=models.F("version") + 1, **values
    )
    if updated != 1:
        raise StaleEditError(obj)
    obj.version = expected_version + 1  # type: ignore[attr-defined]
    rows_updated.send(sender=model, instance=obj)


def require_version(form: forms.BaseForm) -> None:
    """Refuse an edit posted without a version its form was opened at.

    Every field named ``version`` or ``<thing>_version`` counts (an offer's form carries its
    package's too). Without one the save could not tell whether someone changed the object
    meanwhile, and would overwrite a newer edit.
    """
    instance = getattr(form, "instance", None)
    if instance is not None and not instance.pk:
        return
    names = [n for n in form.fields if n == "version" or n.endswith("_version")]
    if any(form.cleaned_data.get(n) is None for n in names):
        form.add_error(None, NO_VERSION)


class VersionedForm(forms.ModelForm):
    """A ModelForm carrying the hidden version used for optimistic locking."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["version"].initial = self.instance.version

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        require_version(self)
        return data

    def expected_version(self) -> int:
        """Return the version the user saw when opening the form."""
        return int(self.cleaned_data["version"])
