"""Access control over every URL: anonymous -> log-in, another user -> 404, GET changes nothing."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import reverse

from tests.url_matrix import PUBLIC, all_routes, url_objects

ROUTES = all_routes()
OBJECTS = url_objects()
IGNORED_TABLES = {"django_session", "axes_accessattempt", "axes_accesslog", "axes_accessfailurelog"}


def db_snapshot() -> dict[str, list[tuple]]:
    """Return every row of every table that user actions may change."""
    snap = {}
    for model in apps.get_models():
        if model._meta.db_table in IGNORED_TABLES or model._meta.proxy:
            continue
        snap[model._meta.db_table] = list(model.objects.order_by("pk").values_list())
    return snap


def url_for(route, user):
    if not route.kwargs:
        return reverse(route.name)
    return reverse(route.name, kwargs=OBJECTS[route.name](user))


def test_every_route_is_covered():
    missing = [
        r.name for r in ROUTES if r.kwargs and r.name not in PUBLIC and r.name not in OBJECTS
    ]
    assert not missing, f"add these URLs to tests/<app>/url_objects.py: {missing}"
    stale = sorted(set(OBJECTS) - {r.name for r in ROUTES})
    assert not stale, f"url_objects entries for URLs that no longer exist: {stale}"
    assert len(ROUTES) > 10


PRIVATE = [r for r in ROUTES if r.name not in PUBLIC]


@pytest.mark.django_db
@pytest.mark.parametrize("route", PRIVATE, ids=lambda r: r.name)
def test_anonymous_goes_to_login(client, alice, route):
    url = url_for(route, alice)
    for method in ("get", "post"):
        response = getattr(client, method)(url)
        assert response.status_code == 302, (method, url, response.status_code)
        assert response["Location"].startswith(reverse("login")), response["Location"]


OBJECT_ROUTES = [r for r in PRIVATE if r.kwargs]


@pytest.mark.django_db
@pytest.mark.parametrize("route", OBJECT_ROUTES, ids=lambda r: r.name)
def test_other_user_gets_404_and_changes_nothing(client, alice, charlie, route):
    url = url_for(route, alice)
    client.force_login(charlie)
    before = db_snapshot()
    for method in ("get", "post"):
        response = getattr(client, method)(url, {"confirm": "1"})
        assert response.status_code == 404, (method, url, response.status_code)
    assert db_snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("route", PRIVATE, ids=lambda r: r.name)
def test_get_changes_nothing(client, alice, route):
    url = url_for(route, alice)
    client.force_login(alice)
    before = db_snapshot()
    response = client.get(url)
    assert response.status_code in (200, 302, 405), (url, response.status_code)
    assert db_snapshot() == before, f"GET {url} changed the database"


INT_ROUTES = [r for r in OBJECT_ROUTES if r.int_kwargs]


@pytest.mark.django_db
@pytest.mark.parametrize("route", INT_ROUTES, ids=lambda r: r.name)
def test_unknown_or_malformed_id_is_404(client, alice, route):
    kwargs = OBJECTS[route.name](alice)
    client.force_login(alice)
    for bad in (2_000_000_000, 0):
        bad_kwargs = {**kwargs, **dict.fromkeys(route.int_kwargs, bad)}
        response = client.get(reverse(route.name, kwargs=bad_kwargs))
        assert response.status_code == 404, (route.name, bad, response.status_code)
    # A non-numeric id does not even resolve.
    path = reverse(route.name, kwargs=kwargs)
    for k in route.int_kwargs:
        path = path.replace(f"/{kwargs[k]}/", "/not-a-number/", 1)
    assert client.get(path).status_code == 404
