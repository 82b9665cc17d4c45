"""System checks of the deployment settings, run by `manage.py check`, `migrate` and `runserver`.

The email and site address checks run with `check --deploy` only: a development machine writes
mail to the log and is opened at 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, Warning, register
from django.utils.module_loading import autodiscover_modules

from config.celery import app


def task_time_limits() -> dict[str, float | None]:
    """Return the hard time limit of every task of the project, by name (None: no limit)."""
    # What the worker's autodiscovery imports (each app's tasks module), and every module named
    # in TASK_TIME_LIMITS; not Celery's own import, which runs the system checks again.
    autodiscover_modules("tasks")
    for name in settings.TASK_TIME_LIMITS:
        with contextlib.suppress(ImportError):
            importlib.import_module(name.rpartition(".")[0])
    return {
        name: task.time_limit or settings.CELERY_TASK_TIME_LIMIT
        for name, task in app.tasks.items()
        if not name.startswith("celery.")
    }


@register()
def visibility_timeout_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Fail when the broker could hand a task still running to a second worker."""
    errors: list[CheckMessage] = []
    limits = task_time_limits()
    for name in settings.TASK_TIME_LIMITS:
        if name not in limits:
            errors.append(
                Error(
                    f"TASK_TIME_LIMITS names {name}, which is no task.",
                    hint="Use the task's full name (module.function), as Celery registers it.",
                    id="offerdesk.E001",
                )
            )
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout")
    for name, limit in sorted(limits.items()):
        if limit is None or timeout is None or timeout <= limit:
            errors.append(
                Error(
                    f"The broker's visibility timeout ({timeout} s) is not above the time limit "
                    f"of {name} ({limit} s): a task running that long would be delivered to a "
                    "second worker while the first still runs it.",
                    hint="Unset CELERY_VISIBILITY_TIMEOUT (the default exceeds every task's "
                    "limit) or raise it above the longest limit in TASK_TIME_LIMITS.",
                    id="offerdesk.E002",
                )
            )
    return errors


@register(deploy=True)
def email_configured_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Warn when a server (DEBUG off) was given no way to send mail."""
    if settings.DEBUG or settings.EMAIL_CONFIGURED:
        return []
    return [
        Warning(
            "No email backend is configured (neither EMAIL_URL nor EMAIL_HOST is set): password "
            "reset links and reminders are written, in clear, to the worker's log instead of "
            "being sent.",
            hint="Set EMAIL_URL, e.g. smtp+tls://user:password@mail.example.com:587, or "
            "EMAIL_URL=console:// to keep each message in the log on purpose.",
            id="offerdesk.W001",
        )
    ]


@register(deploy=True)
def site_url_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Warn when a server's mail would link to this machine: SITE_URL left at its default."""
    host = urlsplit(settings.SITE_URL).hostname
    if settings.DEBUG or host not in ("127.0.0.1", "localhost", "::1"):
        return []
    return [
        Warning(
            f"SITE_URL is {settings.SITE_URL}: the links in reminders lead to the reader's "
            "own machine, not to this server.",
            hint="Set SITE_URL to the address people open, e.g. https://offerdesk.example.com.",
            id="offerdesk.W002",
        )
    ]
