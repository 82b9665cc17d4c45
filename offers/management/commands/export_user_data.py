"""Write everything a user owns to one JSON backup file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from offers.export.backup import backup_bytes


class Command(BaseCommand):
    help = "Back up a user's data: --user NAME --output FILE.json (restore with import_user_data)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--user", required=True)
        parser.add_argument("--output", required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"No user named {options['user']!r}.")
        data = backup_bytes(user=user)
        Path(options["output"]).write_bytes(data)
        self.stderr.write(f"Wrote {len(data):,} bytes to {options['output']}.")
