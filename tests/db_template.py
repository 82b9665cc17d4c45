"""One migrated PostgreSQL test database per run, cloned for each pytest-xdist worker.

pytest-django gives each xdist worker its own test database (`test_<name>_gw0`, ...) and
builds each by running every migration (data migrations included): 26 to 28 s a worker on
PostgreSQL, the workers all doing it at once. Here the first worker to come builds
`test_<name>_tpl_<run>` by the same migrations, and each worker copies it with
`CREATE DATABASE ... WITH TEMPLATE` (a fraction of a second). Workers take turns through a
PostgreSQL advisory lock; each drops its copy at its end, and then the template (the next worker
to need it, if any, builds it again), so nothing is left behind.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings


def template_name(connection: Any, run_id: str, worker_id: str) -> str:
    """The run's template database: the worker's test database name, the worker's id off."""
    target = connection.creation._get_test_db_name()
    base = target.removesuffix(f"_{worker_id}")
    return f"{base[:40]}_tpl_{run_id[:12]}"


def _locked(connection: Any, name: str):
    """A cursor on the server holding the advisory lock named after `name` (freed on close)."""
    key = int(hashlib.sha256(name.encode()).hexdigest()[:15], 16)
    cursor_context = connection.creation._nodb_cursor()
    cursor = cursor_context.__enter__()
    cursor.execute("SELECT pg_advisory_lock(%s)", [key])
    return cursor_context, cursor


def _exists(cursor: Any, name: str) -> bool:
    cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return cursor.fetchone() is not None


def clone(connection: Any, template: str, *, verbosity: int, serialize: bool) -> str:
    """Point `connection` at a new copy of `template` (built first if missing); the old name."""
    creation = connection.creation
    quote = connection.ops.quote_name
    old_name = connection.settings_dict["NAME"]
    target = creation._get_test_db_name()
    lock_context, cursor = _locked(connection, template)
    try:
        if not _exists(cursor, template):
            test_settings = connection.settings_dict.setdefault("TEST", {})
            test_settings["NAME"] = template
            try:
                creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False)
            finally:
                test_settings["NAME"] = target
            connection.close()  # a template must have no session open on it to be copied
        if verbosity >= 1:
            creation.log(f"Copying the test database {template} to {target}...")
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(target)}")
        cursor.execute(f"CREATE DATABASE {quote(target)} WITH TEMPLATE {quote(template)}")
    finally:
        lock_context.__exit__(None, None, None)
    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = target
    connection.settings_dict["NAME"] = target
    connection.ensure_connection()
    if serialize:
        connection._test_serialized_contents = creation.serialize_db_to_string()
    return old_name


def drop(connection: Any, template: str, old_name: str, *, verbosity: int) -> None:
    """Drop the worker's copy (the settings get their name back), then the template."""
    connection.creation.destroy_test_db(old_name, verbosity)
    lock_context, cursor = _locked(connection, template)
    try:
        cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(template)}")
    finally:
        lock_context.__exit__(None, None, None)
