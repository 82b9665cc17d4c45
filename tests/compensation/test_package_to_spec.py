from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from compensation import engine, selectors
from compensation.terms import Money, TermsChange, apply_change
from tests.factories import EquityGrantFactory, FxRateFactory, LocationPresetFactory

pytestmark = pytest.mark.django_db


def spec_of(alice, package, **kwargs):
    loaded = selectors.package_get(user=alice, pk=package.pk)
    return selectors.package_to_spec(loaded, horizon_years=kwargs.pop("horizon_years", 4), **kwargs)


def spec_changed(alice, package, change, **kwargs):
    """Return the spec of the package's terms with ``change`` applied in memory."""
    loaded = selectors.package_get(user=alice, pk=package.pk)
    terms = apply_change(selectors.package_terms(loaded), change, selectors.terms_rate(loaded))
    return selectors.package_to_spec(loaded, horizon_years=4, terms=terms, **kwargs)


def usd(amount) -> Money:
    return Money(Decimal(amount), "USD")


def test_fields_map_to_floats(alice, package):
    spec = spec_of(alice, package, fx_to_home=32.0, tax_rate_pct=20)
    assert spec.name == package.name and spec.currency == "USD"
    assert spec.start == dt.date(2027, 1, 4) and spec.horizon_years == 4
    assert (spec.base, spec.raise_pct, spec.bonus_target_pct) == (200000.0, 3.0, 15.0)
    assert spec.fx_to_home == 32.0 and spec.tax_rate_pct == 20.0
    assert spec.sign_on == (engine.SignOn(50000.0, 1, 12),)
    (grant,) = spec.grants
    assert grant.value == 400000.0 and grant.shares is None and grant.grant_price == 100.0
    assert grant.schedule == engine.VESTING_PRESETS["even_4y_quarterly"]
    assert grant.share_count(spec.stock.price) == 4000
    (refresher,) = spec.refreshers
    assert refresher.yearly_value == 50000.0 and refresher.first_year == 2
    assert spec.stock == engine.Stock(
        price=100.0, growth_pct=0.0, volatility_pct=30.0, liquidity_discount_pct=0.0, ticker="ACME"
    )


def test_no_queries_when_prefetched(alice, package, django_assert_num_queries):
    loaded = selectors.package_get(user=alice, pk=package.pk)
    change = TermsChange(extra_stock_yearly=usd(1000))
    with django_assert_num_queries(0):
        terms = apply_change(selectors.package_terms(loaded), change, selectors.terms_rate(loaded))
        selectors.package_to_spec(loaded, horizon_years=4, terms=terms)


def test_first_year_matches_hand_figures(alice, package):
    # base 200,000 + bonus 15% 30,000 + sign-on 50,000 + 1/4 of 4,000 shares at a flat 100.
    yearly = engine.project_yearly(spec_of(alice, package))
    assert yearly.loc[1, "total"] == pytest.approx(200000 + 30000 + 50000 + 100000)
    # Year 2: base +3%, bonus on it, grant 100,000, first refresher vests 1/4 of 50,000.
    assert yearly.loc[2, "total"] == pytest.approx(206000 * 1.15 + 100000 + 12500)


def test_tax_from_location_by_default(alice, package):
    package.location = LocationPresetFactory(effective_tax_pct=Decimal("20"))
    package.save()
    assert spec_of(alice, package).tax_rate_pct == 20.0
    assert spec_of(alice, package, tax_rate_pct=0).tax_rate_pct == 0.0


def test_scenario_adjustments(alice, package):
    change = TermsChange(
        start_date=dt.date(2027, 3, 4),
        move_grants=True,
        extra_stock_yearly=usd(20000),
        extra_sign_on=usd(10000),
        base=usd(210000),
        refresher_yearly=usd(80000),
    )
    spec = spec_changed(alice, package, change, growth_pct=10, volatility_pct=40)
    assert spec.start == dt.date(2027, 3, 4) and spec.base == 210000.0
    assert spec.stock.growth_pct == 10.0 and spec.stock.volatility_pct == 40.0
    assert spec.grants[0].vest_start == dt.date(2027, 3, 4)  # moved with the start
    extra = spec.grants[1]
    assert extra.value == 80000.0 and extra.vest_start == dt.date(2027, 3, 4)
    assert extra.schedule == spec.grants[0].schedule
    assert spec.sign_on[-1] == engine.SignOn(10000.0, 1, 12)
    assert [r.yearly_value for r in spec.refreshers] == [80000.0]
    assert spec_changed(alice, package, TermsChange(refresher_yearly=usd(0))).refreshers == ()


def test_extra_stock_without_grants_is_even_quarterly(alice, package):
    package.grants.all().delete()
    spec = spec_changed(alice, package, TermsChange(extra_stock_yearly=usd(10000)))
    (grant,) = spec.grants
    assert grant.value == 40000.0 and grant.schedule == engine.VESTING_PRESETS["even_4y_quarterly"]


def test_share_grants_and_uneven_schedules(alice, package):
    package.grants.all().delete()
    EquityGrantFactory(
        package=package,
        value=None,
        shares=Decimal("1000"),
        grant_price=Decimal("90"),
        weights=[5, 15, 40, 40],
        frequency_months=6,
        year_frequencies=[12, 12, 6, 6],
    )
    (grant,) = spec_of(alice, package).grants
    assert grant.shares == 1000.0 and grant.value is None
    assert grant.schedule == engine.VESTING_PRESETS["amazon_5_15_40_40"]


def test_company_price_stays_in_its_currency_and_vests_convert(alice, package):
    # The stock is priced in USD (the company's); 1 SGD = 0.8 USD, so 1 USD = 1.25 SGD.
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.8"))
    package.currency = "SGD"
    package.save()
    stock = spec_of(alice, package).stock
    assert stock.price == 100.0 and stock.currency == "USD"
    assert stock.fx_to_package == pytest.approx(1.25)


def test_without_company_price_uses_grant_price(alice, package):
    package.company.share_price = 0
    package.company.save()
    assert spec_of(alice, package).stock.price == 100.0


def test_invalid_weights_raise_engine_error(alice, package):
    package.grants.update(weights=[50, 10])
    with pytest.raises(engine.EngineInputError, match="weights"):
        spec_of(alice, package)
