from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods

from accounts.forms import (
    CountedPasswordChangeForm,
    EmailForm,
    PasswordConfirmForm,
    QueuedPasswordResetForm,
    SignUpForm,
)
from accounts.reauth import mark_reauthenticated, reauth_required
from accounts.reset import Refusal, reset_request_count, window_seconds
from accounts.selectors import account_language
from accounts.services import account_delete, account_email_set, account_language_set
from config import health
from config.middleware import ServiceUnavailable

LANGUAGE_COOKIE = ("age", "path", "domain", "secure", "httponly", "samesite")  # its settings


@login_not_required
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    if not settings.SIGNUP_OPEN:
        return render(request, "registration/signup_closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        mark_reauthenticated(request)
        messages.success(request, _("Welcome to Offerdesk. Start by setting your preferences."))
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form})


@login_not_required
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (its safe ``next``); a logged-in user's account keeps the choice."""
    response = i18n.set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        account_language_set(user=request.user, language=request.POST.get("language", ""))
    return response


class LoginView(auth_views.LoginView):
    """Log in in the account's language; the password just typed counts as a re-authentication."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        mark_reauthenticated(self.request)
        if language := account_language(form.get_user()):
            # The cookie Django's switch sets: a new device follows the account from here on.
            cookie = {k: getattr(settings, f"LANGUAGE_COOKIE_{k.upper()}") for k in LANGUAGE_COOKIE}
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME, language, max_age=cookie.pop("age"), **cookie
            )
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change the password; wrong old passwords count towards the log-in lock-out."""

    form_class = CountedPasswordChangeForm
    success_url = "/accounts/password/done/"

    def get_form_kwargs(self) -> dict[str, object]:
        kwargs = super().get_form_kwargs()
        kwargs["request"] = self.request
        return kwargs

    def form_valid(self, form: CountedPasswordChangeForm) -> HttpResponse:  # type: ignore[override]
        response = super().form_valid(form)
        mark_reauthenticated(self.request)  # the password was just typed
        return response


@require_http_methods(["GET", "POST"])
def reauth(request: HttpRequest) -> HttpResponse:
    """Ask for the password again, then go on to `next`."""
    next_url = request.POST.get("next") or request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = "/"
    form = PasswordConfirmForm(request.POST or None, user=request.user, request=request)
    if request.method == "POST" and form.is_valid():
        # A new session key, as at log-in: a key read before the password was typed (a shared
        # machine, a leaked log) does not carry the rights the password just granted.
        request.session.cycle_key()
        mark_reauthenticated(request)
        return redirect(next_url)
    return render(request, "registration/reauth.html", {"form": form, "next": next_url})


@reauth_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the user and every object they own, after a fresh password check."""
    if request.method == "POST":
        user = request.user
        account_delete(user=user)
        logout(request)
        messages.success(request, _("Your account and all of its data were deleted."))
        return redirect("login")
    return render(request, "registration/delete_account.html")


class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a reset link by email address; the same answer whether or not an account has it."""

    form_class = QueuedPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_valid(self, form: QueuedPasswordResetForm) -> HttpResponse:  # type: ignore[override]
        # The message is queued for a worker: with the broker down it would be lost while the
        # page said "sent". Asked for every address alike (within SERVICE_TIMEOUT), so the 503
        # says nothing of whether an account has it.
        if health.broker_status() == "error":
            raise ServiceUnavailable("The job queue")
        refusal = reset_request_count(self.request, form.cleaned_data["email"])
        if refusal is Refusal.ADDRESS:
            minutes = window_seconds() // 60
            return render(
                self.request,
                "registration/password_reset_limited.html",
                {"minutes": minutes},
                status=429,
            )
        if refusal is Refusal.EMAIL:
            return redirect(self.get_success_url())  # as if sent: says nothing of the account
        return super().form_valid(form)


@reauth_required
@require_http_methods(["GET", "POST"])
def email_change(request: HttpRequest) -> HttpResponse:
    """Set the account's email address, after a fresh password check."""
    form = EmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        account_email_set(user=request.user, email=form.cleaned_data["email"])
        messages.success(request, _("Your email address was saved."))
        return redirect("email_change")
    return render(request, "registration/email_form.html", {"form": form})
