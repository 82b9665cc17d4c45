from __future__ import annotations

from decimal import Decimal

import pytest

from compensation import selectors
from compensation.selectors.bands import percentile_in_band
from tests.factories import BandFactory, FxRateFactory, LevelFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "expected"),
    [(180, 0), (195, 25), (210, 50), (225, 75), (240, 100), (170, -50 / 3), (250, 100 + 50 / 3)],
)
def test_percentile_is_piecewise_linear(value, expected):
    assert percentile_in_band(value, 180, 210, 240) == pytest.approx(expected)


def test_percentile_with_uneven_halves_and_degenerate_bands():
    assert percentile_in_band(190, 180, 200, 300) == pytest.approx(25)
    assert percentile_in_band(250, 180, 200, 300) == pytest.approx(75)
    assert percentile_in_band(200, 200, 200, 200) == 50
    assert percentile_in_band(210, 200, 200, 200) is None


def test_band_position_hand_figures(alice, package):
    # Band base 180/210/240k, stock 80/120/160k; package base 225k, stock 400k / 4 = 100k.
    band = BandFactory(level=LevelFactory(company=package.company))
    package.base = Decimal("225000")
    package.save()
    nxt = BandFactory(
        level=LevelFactory(company=package.company),
        base_min=240000,
        base_mid=265000,
        base_max=290000,
        stock_min=180000,
        stock_mid=240000,
        stock_max=300000,
        bonus_target_pct=20,
    )
    loaded = selectors.package_get(user=alice, pk=package.pk)
    pos = selectors.band_position(package=loaded, band=band, next_band=nxt)
    base, stock = pos["components"]
    assert base["percentile"] == 75.0
    assert stock["value"] == 100000.0 and stock["percentile"] == 25.0
    assert pos["bonus"] == {
        "key": "bonus_target_pct",
        "label": "Bonus target %",
        "value": 15.0,
        "band": 15.0,
        "delta": 0.0,
        "next": 20.0,
    }
    assert pos["at_top_of_band"] is False
    assert base["next"] == {"min": 240000.0, "mid": 265000.0, "max": 290000.0}
    fig = pos["figure"].to_plotly_json()
    assert {"data", "layout"} <= set(fig)
    bars = fig["data"][0]
    assert bars["base"][:2] == [180000.0, 240000.0] and bars["x"][:2] == [60000.0, 50000.0]
    assert fig["data"][2]["x"] == [225000.0, 100000.0]


@pytest.mark.parametrize(("base", "top"), [(235200, True), (240000, True), (235000, False)])
def test_top_of_band_is_98_percent_of_max(alice, package, base, top):
    band = BandFactory(level=LevelFactory(company=package.company))
    package.base = Decimal(base)
    assert selectors.band_position(package=package, band=band)["at_top_of_band"] is top


def test_band_in_another_currency_is_converted(alice, package):
    FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.5"))
    band = BandFactory(
        level=LevelFactory(company=package.company),
        currency="SGD",
        base_min=360000,
        base_mid=420000,
        base_max=480000,
    )
    pos = selectors.band_position(package=package, band=band)
    assert pos["converted_from"] == "SGD"
    # 360-480k SGD at 0.5 is 180-240k USD; base 200k is 2/3 of the way to mid: 33.3.
    base = pos["components"][0]
    assert base["mid"] == 210000.0 and base["percentile"] == 33.3
