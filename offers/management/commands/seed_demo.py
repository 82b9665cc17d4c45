"""Create the demo user and their story: the showcase of every feature."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "offerdesk-demo"


class Command(BaseCommand):
    help = "Create user 'demo' (password 'offerdesk-demo') with illustrative demo data. Idempotent."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo user's data first."
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Create the demo user even with DEBUG off (its password is public).",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        from accounts.services import account_delete
        from compensation import demo as compensation_demo
        from interviews import demo as interviews_demo
        from offers import demo as offers_demo

        if not settings.DEBUG and not options["force"]:
            # Its password is printed in the README: anyone could log in to a real server.
            raise CommandError(
                f"Refusing to create the demo user '{DEMO_USERNAME}' with its public password "
                "while DEBUG is off. Use DEBUG=1 on a development machine, or --force if this "
                "server is meant to be a public demo."
            )
        compensation_demo.seed_reference()
        User = get_user_model()
        user = User.objects.filter(username=DEMO_USERNAME).first()
        if user is not None and options["reset"]:
            # A plain user.delete() is refused: an offer PROTECTs its package.
            account_delete(user=user)
            user = None
        if user is not None:
            self.stdout.write("Demo user already exists; nothing to do (use --reset to rebuild).")
            return
        user = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
        story = compensation_demo.seed_user(user)
        story.update(interviews_demo.seed_user(user, story))
        offers_demo.seed_user(user, story)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: log in as {DEMO_USERNAME} / {DEMO_PASSWORD} (figures are illustrative)."
            )
        )
