from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    """Sign up with a username and a password of at least 12 characters."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


class PasswordConfirmForm(forms.Form):
    """Ask for the current password again before a sensitive action."""

    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput)

    def __init__(self, *args: object, user: User, request: object = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password
