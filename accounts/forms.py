from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.locking import StaleEditError
from accounts.selectors import account_language

logger = logging.getLogger(__name__)

EMAIL_HELP = _("Only for a password reset and the reminders you ask for. Optional.")


class SignUpForm(UserCreationForm):
    """Sign up with a username, an optional email address and a password of 12+ characters."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        labels, help_texts = {"email": _("Email address")}, {"email": EMAIL_HELP}


class EmailForm(forms.ModelForm):
    """The account's email address (empty: no password reset by email, no reminders)."""

    class Meta:
        model = User
        fields = ("email",)
        labels, help_texts = SignUpForm.Meta.labels, SignUpForm.Meta.help_texts


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, its message (in the account's language) sent by a task after commit.

    The page answers in the same time whether or not an account has the address (no SMTP
    conversation inside the request when a worker runs), and a mail server that is down is
    retried by the task instead of failing the page.
    """

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        from accounts.tasks import password_reset_mail_task

        with translation.override(account_language(context["user"], translation.get_language())):
            subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            body = loader.render_to_string(email_template_name, context)

        def send() -> None:
            try:
                password_reset_mail_task.delay(subject, body, to_email)
            except Exception:  # no broker, or (tasks run at once) the mail server refused
                logger.exception("password reset message not sent")

        transaction.on_commit(send)


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


def model_values(form: forms.BaseModelForm) -> dict[str, Any]:
    """Return a valid model form's cleaned values of its model's fields (``Meta.fields``).

    What a service writes with `accounts.fields.fields_assign`, which refuses any other name:
    the form's controls (a hidden version, a token) stay out, and nothing is dropped unseen.
    """
    names = set(form._meta.fields or ())
    return {name: value for name, value in form.cleaned_data.items() if name in names}


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
