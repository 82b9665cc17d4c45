"""CACHES follows the environment: CACHE_URL, else the broker's Redis, else local memory."""

from __future__ import annotations

import pytest

from config.settings import cache_settings

REDIS = "django.core.cache.backends.redis.RedisCache"
LOCMEM = "django.core.cache.backends.locmem.LocMemCache"


def test_cache_url_wins():
    caches = cache_settings("redis://cache.internal:6380/3", "redis://127.0.0.1:6379/0")
    assert caches["default"]["BACKEND"] == REDIS
    assert caches["default"]["LOCATION"] == "redis://cache.internal:6380/3"


def test_the_brokers_redis_on_the_next_database():
    caches = cache_settings("", "redis://127.0.0.1:6379/0")
    assert caches["default"]["BACKEND"] == REDIS
    assert caches["default"]["LOCATION"] == "redis://127.0.0.1:6379/1"
    assert cache_settings("", "redis://h:1")["default"]["LOCATION"] == "redis://h:1/1"


def test_local_memory_otherwise():
    assert cache_settings("", "")["default"]["BACKEND"] == LOCMEM
    assert cache_settings("", "amqp://guest@localhost//")["default"]["BACKEND"] == LOCMEM
    assert cache_settings("locmem://", "redis://h:1/0")["default"]["BACKEND"] == LOCMEM


def test_an_unknown_cache_url_is_refused():
    with pytest.raises(ValueError, match="CACHE_URL"):
        cache_settings("memcached://h", "")
