"""Compensation fixtures: a package with one sign-on, grant and refresher."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    PackageFactory,
    RefresherFactory,
    SignOnFactory,
)


@pytest.fixture
def package(alice):
    """Alice's package: base 200k, 15% bonus, 50k sign-on, 400k grant at 100, 50k refreshers."""
    company = CompanyFactory(
        owner=alice, share_price=Decimal("100"), growth_pct=Decimal("0"), ticker="ACME"
    )
    pkg = PackageFactory(owner=alice, company=company, start_date=dt.date(2027, 1, 4))
    SignOnFactory(package=pkg, amount=Decimal("50000"), year=1, clawback_months=12)
    EquityGrantFactory(package=pkg, value=Decimal("400000"), grant_price=Decimal("100"))
    RefresherFactory(package=pkg, yearly_value=Decimal("50000"), first_year=2)
    return pkg
