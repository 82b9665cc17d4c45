from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.locking import StaleEditError


class SignUpForm(UserCreationForm):
    """Sign up with a username and a password of at least 12 characters."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


class PasswordConfirmForm(forms.Form):
    """Ask for the current password again before a sensitive action."""

    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput)

    def __init__(
        self, *args: object, user: User, request: HttpRequest | None = None, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not password_is(self.user, self.request, password):
            raise forms.ValidationError(_("That is not your password."))
        return password


def form_add_service_errors(form: forms.BaseForm, error: ValidationError) -> None:
    """Put a service's ValidationError on the form's fields (unknown ones on the form)."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            target = name if name in form.fields else None
            for e in errors:
                form.add_error(target, e.messages if target is None else e)
    else:
        form.add_error(None, error.messages)


def form_write(form: forms.BaseForm, write: Callable[[], object]) -> int:
    """Run a service's write for a valid form; return the HTTP status to answer with.

    200: written. 409: another edit came first (its message on the form). 400: the service
    refused the data (its errors on the form's fields).
    """
    try:
        write()
    except StaleEditError as exc:
        form.add_error(None, str(exc))
        return 409
    except ValidationError as exc:
        form_add_service_errors(form, exc)
        return 400
    return 200


def form_status(form: forms.BaseForm, written: int | None, *, htmx: bool) -> int:
    """Return the status of a form page answered again after a post.

    409 when another edit came first; a form with errors answers 400 to htmx (which swaps
    it in) and 200 to a full page; else 200.
    """
    if written == 409:
        return 409
    return 400 if htmx and form.is_bound and form.errors else 200


def password_is(user: User, request: HttpRequest | None, password: str) -> bool:
    """Return True if ``password`` is the user's, counting a wrong one as a failed log-in.

    Through authenticate() so that django-axes counts failures here as at log-in: a stolen
    session cannot be used to guess the password, and a locked-out user stays locked out.
    """
    if request is None:
        return user.check_password(password)
    checked = authenticate(request, username=user.get_username(), password=password)
    return checked is not None and checked.pk == user.pk


class CountedPasswordChangeForm(PasswordChangeForm):
    """Change the password; wrong old passwords count towards the log-in lock-out."""

    def __init__(self, user: User, *args: object, request: HttpRequest, **kwargs: object) -> None:
        super().__init__(user, *args, **kwargs)  # type: ignore[arg-type]
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        if not password_is(self.user, self.request, old_password):
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password
