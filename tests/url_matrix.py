"""Every URL pattern of the project, and how to build one of Alice's objects for each.

Each app registers its object-taking URLs in `tests/<app>/url_objects.py` as
`URL_OBJECTS = {"ns:name": lambda user: {"pk": SomeFactory(owner=user).pk}}`.
A new URL that is neither public, object-free nor registered fails the suite.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

# Open to anonymous users on purpose.
PUBLIC = {
    "login",
    "signup",
    "healthz",
    "set_language",
    "logout",
    "interviews:calendar_feed",
    # A forgotten password: asked for while logged out (the link's token is its key).
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}
# Namespaces with their own access rules (Django admin: staff only, tested by Django).
SKIPPED_NAMESPACES = {"admin"}
APPS = ("accounts", "compensation", "interviews", "offers")


@dataclass(frozen=True)
class Route:
    name: str
    pattern: str
    kwargs: tuple[str, ...]
    int_kwargs: tuple[str, ...]


def _walk(resolvers: list[Any], ns: str = "", prefix: str = "") -> Iterator[Route]:
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            child_ns = ns
            if entry.namespace:
                child_ns = f"{ns}:{entry.namespace}" if ns else entry.namespace
            if entry.namespace in SKIPPED_NAMESPACES:
                continue
            yield from _walk(entry.url_patterns, child_ns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            if not entry.name:
                continue
            full = f"{ns}:{entry.name}" if ns else entry.name
            converters = getattr(entry.pattern, "converters", {})
            kwargs = tuple(converters.keys())
            ints = tuple(k for k, c in converters.items() if type(c).__name__ == "IntConverter")
            yield Route(full, prefix + str(entry.pattern), kwargs, ints)


def all_routes() -> list[Route]:
    """Return every named route of the project, admin excluded."""
    seen: dict[str, Route] = {}
    for route in _walk(get_resolver().url_patterns):
        seen.setdefault(route.name, route)
    return sorted(seen.values(), key=lambda r: r.name)


def url_objects() -> dict[str, Callable[[Any], dict[str, Any]]]:
    """Collect the object builders every app registered."""
    registry: dict[str, Callable[[Any], dict[str, Any]]] = {}
    for app in APPS:
        try:
            module = importlib.import_module(f"tests.{app}.url_objects")
        except ModuleNotFoundError:
            continue
        registry.update(module.URL_OBJECTS)
    return registry
