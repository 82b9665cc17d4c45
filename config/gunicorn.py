"""gunicorn's settings for the Procfile's web process, `make serve` and the load test.

    gunicorn config.wsgi -c config/gunicorn.py --bind 127.0.0.1:8000

Two processes of four threads on this 2-core machine (the load test measured 3x3 slower);
WEB_CONCURRENCY sets the number of processes (one a core is a fair start on a bigger server).
The command line (--workers) overrides any of these.
"""

from __future__ import annotations

import gc
import os
import traceback
from typing import Any

from gunicorn.glogging import Logger

from config.logformat import log_handlers
from config.redact import secret_paths_redact


class RedactingLogger(Logger):
    """gunicorn's logger: its access log is one line a request, in the format of every log.

    A line holds the method, the path without its query string, with any calendar feed or
    password reset token redacted (config/redact.py), the status, the bytes sent and the time
    taken; no referer, user agent, address or query string, where tokens and search terms go.
    With LOG_FORMAT=json the fields are also under "http".
    """

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: secret_paths_redact(v) if isinstance(v, str) else v for k, v in atoms.items()}

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        http = {
            "method": atoms["m"],
            "path": atoms["U"],  # PATH_INFO: the query string is not part of it
            "status": int(atoms["s"]) if str(atoms["s"]).isdigit() else atoms["s"],
            "bytes": atoms["B"] if isinstance(atoms["B"], int) else 0,
            "duration_ms": int(atoms["M"]),
        }
        try:
            self.access_log.info(
                "%s %s %s %s B %s ms",
                http["method"],
                http["path"],
                http["status"],
                http["bytes"],
                http["duration_ms"],
                extra={"http": http},
            )
        except Exception:
            self.error(traceback.format_exc())


logger_class = RedactingLogger
# gunicorn's own lines (gunicorn.error) and its access log (gunicorn.access) through the same
# formatter, redaction and LOG_FORMAT as Django's and Celery's (config/logformat.py).
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    **log_handlers(os.environ.get("LOG_FORMAT", "text")),
    "root": {"level": "WARNING", "handlers": ["console"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
        "gunicorn.access": {
            "level": "INFO",
            "handlers": ["access_console"],
            "propagate": False,
        },
    },
}
logconfig_dict["handlers"] = {
    **logconfig_dict["handlers"],
    # Access lines to standard output, gunicorn's and the app's messages to standard error.
    "access_console": {**logconfig_dict["handlers"]["console"], "stream": "ext://sys.stdout"},
}


def web_concurrency(default: int = 2) -> int:
    """Return gunicorn's worker processes: WEB_CONCURRENCY (a whole number from 1), else 2.

    gunicorn reads WEB_CONCURRENCY itself only when no config file sets `workers`; this file
    sets it, so it reads the variable here. A wrong value stops the start with its reason.
    """
    raw = os.environ.get("WEB_CONCURRENCY", "").strip()
    if not raw:
        return default
    try:
        workers = int(raw)
    except ValueError:
        workers = 0
    if workers < 1:
        raise SystemExit(f"WEB_CONCURRENCY must be a whole number of processes from 1, not {raw!r}")
    return workers


workers = web_concurrency()
threads = 4
keepalive = 30  # browsers keep a connection open between clicks
# No control socket (gunicornc): its default path is one per machine user, so a second instance
# (another checkout, the load test) would take it over and remove it when it stops.
control_socket_disable = True


def post_worker_init(worker: Any) -> None:
    """Import every view, then freeze what the process has loaded.

    Django, numpy, pandas and plotly leave a few hundred thousand long-lived objects; frozen,
    the garbage collector no longer walks them on each of its full passes, which otherwise
    land on whichever request is running (the load test's p99 fell by about a sixth).
    """
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (loads the URLconf and every view module)
    gc.collect()
    gc.freeze()
