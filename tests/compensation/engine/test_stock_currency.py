"""Pay in one currency, stock priced in another: hand-computed figures."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from compensation.engine import (
    VESTING_PRESETS,
    EngineInputError,
    Grant,
    PackageSpec,
    Refresher,
    Stock,
    assumptions,
    forfeited_on_leave,
    package_from_dict,
    project,
    project_yearly,
)
from compensation.engine.breakeven import breakeven

START = dt.date(2027, 1, 1)
QUARTERLY = VESTING_PRESETS["even_4y_quarterly"]


def usd_stock_package(currency: str, usd_to_package: float, **extra: object) -> PackageSpec:
    """USD 400,000 of RSUs granted at USD 100, stock at a flat USD 110, on a non-USD package."""
    return PackageSpec(
        name=f"{currency} package",
        start=START,
        currency=currency,
        base=0.0,
        grants=(Grant(value=400_000.0, grant_price=100.0, schedule=QUARTERLY),),
        stock=Stock(price=110.0, currency="USD", fx_to_package=usd_to_package),
        **extra,  # type: ignore[arg-type]
    )


def test_usd_grant_on_sgd_package():
    spec = usd_stock_package("SGD", 1.35)
    monthly = project(spec)
    # USD 400,000 at USD 100 a share = 4,000 shares; even quarterly over 4 years = 250 a vest.
    # At USD 110 and 1 USD = 1.35 SGD the first vest is 250 x 110 x 1.35 = SGD 37,125.
    assert monthly.loc[3, "equity_grants"] == pytest.approx(37_125.0)
    assert monthly.loc[1, "equity_grants"] == 0.0
    # A year is four vests: SGD 148,500; four years: 4,000 x 110 x 1.35 = SGD 594,000.
    yearly = project_yearly(spec)
    assert list(yearly["equity"]) == pytest.approx([148_500.0] * 4)
    assert yearly["cumulative"].iloc[-1] == pytest.approx(594_000.0)


def test_usd_grant_on_twd_package():
    spec = usd_stock_package("TWD", 32.0, fx_to_home=1 / 32.0)
    # 250 shares x USD 110 x 32 = TWD 880,000 at the first vest; 3,520,000 a year.
    assert project(spec).loc[3, "equity_grants"] == pytest.approx(880_000.0)
    yearly = project_yearly(spec)
    assert yearly.loc[1, "equity"] == pytest.approx(3_520_000.0)
    # Back in USD at home: 1,000 shares x 110 = USD 110,000 a year.
    assert yearly.loc[1, "total_home"] == pytest.approx(110_000.0)


def test_refresher_value_is_in_the_stock_currency():
    # USD 44,000 a year at USD 110 = 400 shares; the first quarterly vest is 25 shares,
    # 25 x 110 x 1.35 = SGD 3,712.50.
    spec = dataclasses.replace(
        usd_stock_package("SGD", 1.35),
        grants=(),
        refreshers=(Refresher(44_000.0, QUARTERLY, first_year=1),),
    )
    assert project(spec).loc[3, "refreshers"] == pytest.approx(3_712.5)


def test_assumptions_name_both_currencies():
    facts = assumptions(usd_stock_package("SGD", 1.35))
    (grant,) = facts["grants"]
    assert grant["shares"] == pytest.approx(4_000.0) and grant["grant_price"] == 100.0
    assert grant["price_currency"] == "USD"
    assert grant["value_at_grant_stock_currency"] == pytest.approx(400_000.0)
    assert grant["value_at_grant"] == pytest.approx(540_000.0)  # 400,000 x 1.35 SGD
    assert facts["grant_value_total"] == pytest.approx(540_000.0)
    assert facts["stock"]["currency"] == "USD" and facts["stock"]["fx_to_package"] == 1.35


def test_forfeiture_converts_unvested_stock():
    # Leaving on 15 April 2027: one vest (250 shares) done, 3,750 shares unvested,
    # worth 3,750 x 110 x 1.35 = SGD 556,875.
    lost = forfeited_on_leave(usd_stock_package("SGD", 1.35), dt.date(2027, 4, 15))
    assert lost["unvested_shares"] == pytest.approx(3_750.0)
    assert lost["unvested_value"] == pytest.approx(556_875.0)
    assert lost["price"] == pytest.approx(110.0) and lost["price_currency"] == "USD"


def test_breakeven_extra_is_in_the_package_currency():
    a = usd_stock_package("SGD", 1.35)
    b = dataclasses.replace(a, name="b", base=10_000.0)
    # SGD 10,000 a year more base over 4 years = SGD 40,000; as stock that is SGD 10,000
    # a year whatever currency the stock is priced in.
    answer = breakeven(a, b, years=4)
    assert answer["extra"] == pytest.approx(10_000.0)


def test_rate_must_be_one_when_the_stock_is_in_the_package_currency():
    with pytest.raises(EngineInputError, match="fx_to_package"):
        PackageSpec(
            name="x", start=START, base=1.0, currency="USD", stock=Stock(price=1.0, fx_to_package=2)
        )
    with pytest.raises(EngineInputError, match="fx_to_package"):
        Stock(price=1.0, currency="USD", fx_to_package=0.0)


def test_json_input_takes_the_stock_currency():
    spec = package_from_dict(
        {
            "start": "2027-01-01",
            "currency": "SGD",
            "base": 0,
            "grants": [
                {
                    "value": 400000,
                    "grant_price": 100,
                    "weights": [25, 25, 25, 25],
                    "frequency_months": 3,
                }
            ],
            "stock": {"price": 110, "currency": "USD", "fx_to_package": 1.35},
        }
    )
    assert spec.stock_currency == "USD"
    assert project(spec).loc[3, "equity_grants"] == pytest.approx(37_125.0)
