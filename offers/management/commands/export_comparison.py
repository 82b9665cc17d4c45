"""Write a user's comparison to a file in one of the registered export formats."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from offers.export.formats import EXPORT_FORMATS
from offers.export.jobs import comparison_file


class Command(BaseCommand):
    help = "Export a user's offer comparison, e.g. --user demo --format xlsx --output offers.xlsx"

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--user", required=True, help="Username whose options to export.")
        parser.add_argument("--format", required=True, choices=list(EXPORT_FORMATS))
        parser.add_argument("--output", required=True, help="File to write ('-' for stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"No user named {options['user']!r}.")
        started = time.perf_counter()
        data = comparison_file(user=user, fmt=options["format"])
        if options["output"] == "-":
            self.stdout.buffer.write(data) if hasattr(self.stdout, "buffer") else self.stdout.write(
                data.decode("utf-8", "replace")
            )
            return
        Path(options["output"]).write_bytes(data)
        self.stderr.write(
            f"Wrote {len(data):,} bytes to {options['output']} "
            f"in {time.perf_counter() - started:.1f} s."
        )
