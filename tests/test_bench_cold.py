"""bench/cold.py's cold worker: after a dashboard and its `/chance/`, every cache the process
kept for them is empty (bench_edit's and bench_pages' cold figures stand on it). No timing."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

from bench.cold import cold_worker
from compensation.engine import dates, vesting, window
from compensation.engine.tax import tables
from offers import board_cache, board_hours, board_paths
from offers.logic import i18n

MEMOS = (
    dates.add_months,
    tables.regimes,
    vesting.tranche_dates,
    window._one_path_values,
    window._one_path_tax,
    board_hours._overlap,
)
KEPT = (board_cache.RECENT, board_paths.MC_PATHS_KEPT)


@pytest.mark.django_db
def test_a_cold_worker_keeps_nothing_of_the_pages_it_served(client, demo_user):
    client.force_login(demo_user)
    assert client.get("/").status_code == 200
    assert client.get("/chance/", headers={"HX-Request": "true"}).status_code == 200
    assert all(memo.cache_info().currsize for memo in MEMOS)
    for kept in KEPT:  # a test's board is not kept (its writes are not committed): one put here
        kept.put("probe", object())
    translator = i18n._translator

    cleared = cold_worker()

    assert all(memo.cache_info().currsize == 0 for memo in MEMOS)
    assert not any(kept.items for kept in KEPT)
    assert i18n._translator is not translator  # a new gettext, its memo empty
    assert "offers.board_cache.RECENT" in cleared and "offers.board_hours._overlap" in cleared
    if isinstance(cache, LocMemCache):  # the process's own memory: cleared; a Redis is shared
        assert "django cache 'default'" in cleared and not cache._cache
    # The page is served again from nothing, as a worker that has not seen the user would.
    assert client.get("/").status_code == 200
    assert dates.add_months.cache_info().currsize
