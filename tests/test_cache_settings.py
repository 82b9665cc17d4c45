"""CACHES follows the environment: CACHE_URL and CACHE_KEY_PREFIX, else local memory.

Nothing is derived from the broker: two instances on one Redis share a cache only if they are
given the same CACHE_URL and CACHE_KEY_PREFIX.
"""

from __future__ import annotations

import json

import pytest
from django.core.cache.backends.redis import RedisCache

from config.settings import cache_settings
from tests.config.test_settings import run_settings

REDIS = "django.core.cache.backends.redis.RedisCache"
LOCMEM = "django.core.cache.backends.locmem.LocMemCache"
READ_CACHES = (
    "import json, django; django.setup(); from django.conf import settings as s;"
    "print(json.dumps(s.CACHES['default']))"
)
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": "k" * 60, "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}


def test_cache_url_and_key_prefix():
    caches = cache_settings("redis://cache.internal:6380/3", "offerdesk-staging")
    assert caches["default"]["BACKEND"] == REDIS
    assert caches["default"]["LOCATION"] == "redis://cache.internal:6380/3"
    assert caches["default"]["KEY_PREFIX"] == "offerdesk-staging"


def test_local_memory_otherwise():
    assert cache_settings("", "offerdesk")["default"]["BACKEND"] == LOCMEM
    assert cache_settings("locmem://", "offerdesk")["default"]["BACKEND"] == LOCMEM


def test_an_unknown_cache_url_is_refused():
    with pytest.raises(ValueError, match="CACHE_URL"):
        cache_settings("memcached://h", "offerdesk")


def test_two_prefixes_on_one_redis_never_share_a_key():
    def backend(prefix: str) -> RedisCache:
        params = cache_settings("redis://127.0.0.1:6379/1", prefix)["default"]
        return RedisCache(str(params["LOCATION"]), params)

    assert backend("blue").make_key("board:1") != backend("green").make_key("board:1")


def _caches(**env: str) -> dict:
    out = run_settings(READ_CACHES, **env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_environment_names_the_cache_and_its_prefix():
    found = _caches(**PRODUCTION, CACHE_URL="redis://10.0.0.5:6379/4", CACHE_KEY_PREFIX="blue")
    assert (found["LOCATION"], found["KEY_PREFIX"]) == ("redis://10.0.0.5:6379/4", "blue")
    assert _caches(DEBUG="1", CACHE_URL="redis://h:6379/2")["KEY_PREFIX"] == "offerdesk"


def test_no_cache_database_is_derived_from_the_broker():
    found = _caches(DEBUG="1", CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert found["BACKEND"] == LOCMEM


def test_production_with_a_redis_broker_refuses_to_start_without_cache_url():
    out = run_settings(READ_CACHES, **PRODUCTION)
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr
    assert "CACHE_URL is not set" in out.stderr
    assert _caches(**PRODUCTION, CACHE_URL="locmem://")["BACKEND"] == LOCMEM
