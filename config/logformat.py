"""The one log format of every process: Django's, gunicorn's (config/gunicorn.py) and Celery's.

`log_handlers(fmt)` is the formatters, the redaction filter and the console handler that
Django's LOGGING (config/settings.py), gunicorn's logconfig_dict and the Celery worker (which
keeps Django's configuration: config/celery.py) all use, so one LOG_FORMAT (text, or json for
one JSON object a line) holds for every line, and every line passes the token redaction.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any


class JsonFormatter(logging.Formatter):
    """Format a record as one JSON object: time, level, logger, message (and the traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        http = getattr(record, "http", None)
        if isinstance(http, dict):  # gunicorn's access log: the request's fields
            entry["http"] = http
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_handlers(fmt: str, *, stream: str = "ext://sys.stderr") -> dict[str, Any]:
    """Return the formatters, filters and the "console" handler of a dictConfig, in `fmt`."""
    return {
        "formatters": {
            "text": {"format": TEXT_FORMAT},
            "json": {"()": "config.logformat.JsonFormatter"},
        },
        # Every line passes the redaction: no feed or reset token reaches the log.
        "filters": {"secret_paths": {"()": "config.redact.SecretPathFilter"}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "json" if fmt == "json" else "text",
                "filters": ["secret_paths"],
                "stream": stream,
            }
        },
    }
