"""The shared helpers: 404 before 405 (accounts.http) and assigning form fields (accounts.fields)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from accounts.fields import fields_assign
from accounts.http import method_refused
from offers.models import Offer


@pytest.mark.parametrize(
    ("method", "allowed", "refused"),
    [
        ("POST", ("POST",), False),
        ("GET", ("POST",), True),
        ("GET", ("GET",), False),
        ("HEAD", ("GET",), False),
        ("HEAD", ("POST",), True),
        ("DELETE", ("GET", "POST"), True),
    ],
)
def test_method_refused(method, allowed, refused):
    request = RequestFactory().generic(method, "/")
    response = method_refused(request, *allowed)
    if refused:
        assert response is not None and response.status_code == 405
        assert response["Allow"] == ", ".join(allowed)
    else:
        assert response is None


def test_fields_assign_sets_allowed_and_refuses_unknown_names():
    offer = Offer()
    # A foreign key may be allowed by its column name, as interviews' services list them.
    assert fields_assign(
        offer, {"name": "A", "target_level": None}, ["name", "target_level_id"]
    ) == ["name", "target_level"]
    assert offer.name == "A"
    with pytest.raises(TypeError, match="owner"):
        fields_assign(offer, {"name": "B", "owner": 1}, ["name"])
    assert offer.name == "A"  # nothing set when a name is refused


def test_fields_assign_never_skips_a_name():
    """Issue 33: a term dropped on the way raised nothing; there is no way to skip one now."""
    import inspect

    assert list(inspect.signature(fields_assign).parameters) == ["obj", "values", "allowed"]
    offer = Offer()
    with pytest.raises(TypeError, match="version"):
        fields_assign(offer, {"version": 9, "notes": "n"}, ["notes"])
    assert offer.notes == "" and offer.version == 1


def test_model_values_keeps_a_model_forms_model_fields_only(alice):
    from accounts.forms import model_values
    from offers.forms import PreferencesForm

    form = PreferencesForm(data={}, instance=None)
    form.cleaned_data = {"home_timezone": "Asia/Taipei", "version": 3}
    assert model_values(form) == {"home_timezone": "Asia/Taipei"}
