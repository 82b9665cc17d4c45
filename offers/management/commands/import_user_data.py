"""Restore a JSON backup into a user's account: all of it, or nothing with the reasons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from offers.export.backup import BackupError
from offers.export.restore import backup_restore


class Command(BaseCommand):
    help = "Restore a backup made by export_user_data: --user NAME FILE.json (new ids)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--user", required=True, help="The account to import into.")
        parser.add_argument("file")
        parser.add_argument(
            "--create-user",
            action="store_true",
            help="Create the user (with an unusable password) if it does not exist.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        user = User.objects.filter(username=options["user"]).first()
        if user is None and not options["create_user"]:
            raise CommandError(f"No user named {options['user']!r} (add --create-user).")
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No file {path}.")
        raw = path.read_bytes()
        try:
            if user is None:
                from django.db import transaction

                with transaction.atomic():
                    user = User.objects.create_user(options["user"])
                    result = backup_restore(user=user, raw=raw)
            else:
                result = backup_restore(user=user, raw=raw)
        except BackupError as exc:
            raise CommandError("Nothing was imported:\n  " + "\n  ".join(exc.errors)) from None
        details = ", ".join(f"{n} {k}" for k, n in result.counts.items() if n)
        self.stdout.write(self.style.SUCCESS(f"Imported {result.total} records: {details}."))
