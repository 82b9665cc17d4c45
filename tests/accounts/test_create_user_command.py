"""`manage.py create_user`: the first account on a server whose sign-up is closed."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
PASSWORD = "a-long-enough-passphrase"


def create(*args, stdin_text=None, monkeypatch=None, **kwargs):
    out = io.StringIO()
    if stdin_text is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin_text))
    call_command("create_user", *args, stdout=out, **kwargs)
    return out.getvalue()


def test_password_from_the_environment_and_the_account_logs_in(client, monkeypatch, settings):
    settings.SIGNUP_OPEN = False
    monkeypatch.setenv("OFFERDESK_PASSWORD", PASSWORD)
    out = create("erin", "--email", "erin@example.com")
    assert "Created the account 'erin'" in out
    user = get_user_model().objects.get(username="erin")
    assert user.email == "erin@example.com"
    assert not user.is_staff and not user.is_superuser
    assert user.check_password(PASSWORD)
    response = client.post(LOGIN, {"username": "erin", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)


def test_password_from_standard_input_when_it_is_no_terminal(monkeypatch):
    monkeypatch.delenv("OFFERDESK_PASSWORD", raising=False)
    create("frank", "--admin", stdin_text=PASSWORD + "\n", monkeypatch=monkeypatch)
    user = get_user_model().objects.get(username="frank")
    assert user.is_staff and user.is_superuser and user.check_password(PASSWORD)


def test_password_at_the_prompt_asked_twice(monkeypatch):
    monkeypatch.delenv("OFFERDESK_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    answers = iter([PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    create("gina")
    assert get_user_model().objects.get(username="gina").check_password(PASSWORD)

    typo = iter([PASSWORD, PASSWORD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typo))
    with pytest.raises(CommandError, match="differ"):
        create("hank")
    assert not get_user_model().objects.filter(username="hank").exists()


@pytest.mark.parametrize(
    ("password", "reason"),
    [("short-pw", "too short"), ("password1234", "too common"), ("ivan-ivan-ivan", "similar")],
)
def test_a_weak_password_is_refused_as_on_the_sign_up_page(monkeypatch, password, reason):
    monkeypatch.setenv("OFFERDESK_PASSWORD", password)
    with pytest.raises(CommandError, match=reason):
        create("ivan-ivan")
    assert not get_user_model().objects.exists()


def test_an_existing_name_or_a_bad_one_is_refused(monkeypatch, alice):
    monkeypatch.setenv("OFFERDESK_PASSWORD", PASSWORD)
    with pytest.raises(CommandError, match="already exists"):
        create("Alice")
    with pytest.raises(CommandError):
        create("no spaces allowed")
    assert get_user_model().objects.count() == 1


def test_no_password_anywhere_is_an_error(monkeypatch):
    monkeypatch.delenv("OFFERDESK_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="No password"):
        create("judy", stdin_text="", monkeypatch=monkeypatch)
