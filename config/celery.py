"""Celery app, configured from Django settings under the CELERY namespace.

Logging: the worker and beat keep Django's LOGGING (config/logformat.py: the same format and
token redaction as the web process) instead of installing Celery's own plain-text handlers.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("offerdesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _django_logging(**kwargs: Any) -> None:
    """Configure logging with Django's LOGGING (connected: Celery then adds no handler of its own)."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
