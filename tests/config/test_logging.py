"""Log lines carry the time, the level and the logger; LOG_FORMAT=json makes them JSON."""

from __future__ import annotations

import json
import logging
import re

from tests.config.test_settings import run_settings

CODE = (
    "import django, logging; django.setup();"
    "logging.getLogger('offerdesk.test').warning('disk %s full', 'media')"
)


def test_text_log_line_has_time_level_and_logger():
    out = run_settings(CODE, DEBUG="1")
    assert out.returncode == 0, out.stderr
    line = out.stderr.strip().splitlines()[-1]
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING offerdesk\.test: disk media full", line
    ), line


def test_json_log_line():
    out = run_settings(CODE, DEBUG="1", LOG_FORMAT="json")
    assert out.returncode == 0, out.stderr
    entry = json.loads(out.stderr.strip().splitlines()[-1])
    assert entry["level"] == "WARNING"
    assert entry["logger"] == "offerdesk.test"
    assert entry["message"] == "disk media full"
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", entry["time"])


def test_json_formatter_keeps_the_traceback():
    from config.logformat import JsonFormatter

    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    entry = json.loads(JsonFormatter().format(record))
    assert "ValueError: boom" in entry["exception"]
