"""Round trip of a large account: 1,000 options and 10,000 interview rounds, in under a minute."""

from __future__ import annotations

import io
import json
import time

import pandas as pd
import pytest

from offers.board import board_build
from offers.export.backup import backup_build, backup_restore
from offers.export.comparison import comparison_build
from offers.export.csv_export import csv_bytes
from offers.export.generate import generate_user_data

pytestmark = pytest.mark.django_db


def test_large_round_trip(alice, bob):
    started = time.perf_counter()
    generate_user_data(user=alice, offers=1000, rounds=10_000)
    first = backup_build(user=alice)
    assert len(first["offers"]) == 1000 and len(first["rounds"]) == 10_000
    result = backup_restore(user=bob, raw=json.dumps(first))
    assert result.counts["rounds"] == 10_000
    again = backup_build(user=bob)
    for key in ("exported_at", "username"):
        first.pop(key), again.pop(key)
    assert again == first
    assert time.perf_counter() - started < 60


def test_large_csv_export(alice):
    generate_user_data(user=alice, offers=200, rounds=500)
    board = board_build(user=alice, mc_paths=0)
    frame = pd.read_csv(io.BytesIO(csv_bytes(comparison_build(user=alice, board=board))))
    assert frame["option_key"].nunique() == 200
