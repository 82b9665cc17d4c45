"""Create an account on a server whose public sign-up is closed (the first one, or a colleague's)."""

from __future__ import annotations

import getpass
import os
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

PASSWORD_VARIABLE = "OFFERDESK_PASSWORD"  # listed in .env.example


class Command(BaseCommand):
    help = (
        "Create an account. The password is asked twice at the prompt, or read from the "
        f"environment variable {PASSWORD_VARIABLE} (for scripts), or from the first line of "
        "standard input when it is not a terminal; it must pass the sign-up page's rules."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--admin",
            action="store_true",
            help="Also let the account into the Django admin (/admin/): staff and superuser.",
        )

    def _password(self) -> str:
        from_environment = os.environ.get("OFFERDESK_PASSWORD", "")
        if from_environment:
            return from_environment
        if not sys.stdin.isatty():
            line = sys.stdin.readline().rstrip("\r\n")
            if not line:
                raise CommandError(
                    f"No password: set {PASSWORD_VARIABLE}, type it at a terminal, or send "
                    "it on standard input."
                )
            return line
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ; nothing was created.")
        return password

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise CommandError(f"An account named {username!r} already exists.")
        user = User(username=username, email=options["email"])
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        password = self._password()
        try:
            validate_password(password, user)
        except ValidationError as exc:
            raise CommandError("Password refused: " + " ".join(exc.messages)) from exc
        user.set_password(password)
        user.is_staff = user.is_superuser = options["admin"]
        user.save()
        kind = "admin account" if options["admin"] else "account"
        self.stdout.write(
            self.style.SUCCESS(f"Created the {kind} {username!r}: log in at /accounts/login/.")
        )
