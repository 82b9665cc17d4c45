from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from compensation.selectors.fx import fx_rate_for_owner
from tests.factories import FxRateFactory

pytestmark = pytest.mark.django_db


def rate(user, a, b, on=None):
    return fx_rate_for_owner(owner_id=user.pk, currency=a, to_currency=b, on=on)


def test_identity_is_one_without_a_query(alice, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert rate(alice, "USD", "USD") == 1


def test_direct_inverse_and_via_usd(alice):
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    assert rate(alice, "SGD", "USD") == Decimal("0.74")
    assert rate(alice, "usd", "sgd") == Decimal(1) / Decimal("0.74")
    assert rate(alice, "SGD", "TWD") == Decimal("0.74") * 32  # 23.68, through USD
    assert float(rate(alice, "TWD", "SGD")) == pytest.approx(1 / (0.74 * 32))


def test_direct_rate_beats_the_route_through_usd(alice):
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    FxRateFactory(currency="SGD", to_currency="TWD", rate=Decimal("24"))
    assert rate(alice, "SGD", "TWD") == 24


def test_own_rate_preferred_and_invisible_to_others(alice, bob):
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
    FxRateFactory(
        owner=alice,
        currency="SGD",
        to_currency="USD",
        rate=Decimal("0.70"),
        as_of=dt.date(2026, 1, 1),
    )
    assert rate(alice, "SGD", "USD") == Decimal("0.70")
    assert rate(bob, "SGD", "USD") == Decimal("0.74")


def test_latest_rate_on_a_date(alice):
    FxRateFactory(
        currency="SGD", to_currency="USD", rate=Decimal("0.70"), as_of=dt.date(2025, 1, 1)
    )
    FxRateFactory(
        currency="SGD", to_currency="USD", rate=Decimal("0.74"), as_of=dt.date(2026, 11, 1)
    )
    assert rate(alice, "SGD", "USD") == Decimal("0.74")
    assert rate(alice, "SGD", "USD", on=dt.date(2025, 6, 1)) == Decimal("0.70")
    assert rate(alice, "SGD", "USD", on=dt.date(2024, 1, 1)) == Decimal("0.70")  # earliest after


def test_missing_pair_names_it(alice):
    with pytest.raises(LookupError, match="CNY to TWD"):
        rate(alice, "CNY", "TWD")
