"""The board's default decision date is today on the user's own clock, wherever it is built."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.utils import timezone

from offers.board import board_build
from offers.valuation_basis import home_today
from tests.factories import OfferFactory, PreferencesFactory

pytestmark = pytest.mark.django_db

# 16:30 UTC on 30 Nov 2026 is already 00:30 on 1 Dec in Taipei.
EVENING_UTC = dt.datetime(2026, 11, 30, 16, 30, tzinfo=dt.UTC)


@pytest.fixture
def evening(monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: EVENING_UTC)


def test_home_today_is_the_date_in_the_saved_home_zone(alice, evening):
    prefs = PreferencesFactory(owner=alice, home_timezone="Asia/Taipei")
    assert timezone.localdate() == dt.date(2026, 11, 30)  # the server's clock (UTC)
    assert home_today(prefs) == dt.date(2026, 12, 1)


def test_a_board_built_outside_a_request_values_from_the_pages_date(alice, evening):
    PreferencesFactory(owner=alice, home_timezone="Asia/Taipei")
    OfferFactory(owner=alice)
    outside = board_build(user=alice, mc_paths=0)  # a worker, a command, a test
    with timezone.override(zoneinfo.ZoneInfo("Asia/Taipei")):  # what the middleware does
        in_request = board_build(user=alice, mc_paths=0)
    assert outside.basis.start == in_request.basis.start == dt.date(2026, 12, 1)
    assert [e.value for e in outside.evaluations] == [e.value for e in in_request.evaluations]
