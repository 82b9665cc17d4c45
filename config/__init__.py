from __future__ import annotations

from . import checks  # noqa: F401  (registers the project's system checks)
from .celery import app as celery_app

__all__ = ("celery_app",)
