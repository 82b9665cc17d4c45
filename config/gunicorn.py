"""gunicorn's settings for the Procfile's web process, `make serve` and the load test.

    gunicorn config.wsgi -c config/gunicorn.py --bind 127.0.0.1:8000

Two processes of four threads on this 2-core machine (the load test measured 3x3 slower). The
command line overrides any of these.
"""

from __future__ import annotations

import gc
from typing import Any

from gunicorn.glogging import Logger

from config.redact import secret_paths_redact


class RedactingLogger(Logger):
    """gunicorn's logger, with calendar feed tokens taken out of the access log's fields.

    The access log is off unless asked for (`--access-logfile -`); on, it writes the request
    line, path and referer, where a feed's URL is its only key (config/redact.py).
    """

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: secret_paths_redact(v) if isinstance(v, str) else v for k, v in atoms.items()}


logger_class = RedactingLogger
workers = 2
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
