"""CLI and input checks: probabilities to 4 decimals, seeds, ISO 4217, stable random streams."""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

from compensation.engine import Grant, PackageSpec, Stock
from compensation.engine.cli import main, simulate
from compensation.engine.currencies import ISO_4217
from compensation.engine.errors import EngineInputError
from compensation.engine.io import package_from_dict
from compensation.engine.segments import Segment
from compensation.engine.window import chunked_paths, window_paths
from tests.compensation.engine.test_engine_cli import OFFER


def cli(tmp_path: Path, data: object, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(data))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([args[0], str(path), *args[1:]])
    return status, out.getvalue(), err.getvalue()


def two_options() -> dict[str, object]:
    other = copy.deepcopy(OFFER)
    other["name"] = "Other"
    other["base"] = 215_000
    other["stock"] = {"price": 40, "growth_pct": 8, "volatility_pct": 60}
    return {"options": [OFFER, other]}


def test_prob_beats_is_printed_with_four_decimals(tmp_path):
    status, out, _ = cli(tmp_path, two_options(), "simulate", "--paths", "3001", "--seed", "7")
    assert status == 0
    prob = json.loads(out)["prob_beats"]
    shown = prob["Acme L5"]["Other"]
    specs = [package_from_dict(o) for o in two_options()["options"]]  # type: ignore[union-attr]
    exact = simulate(specs, 3001, seed=7)["prob_beats"]["Acme L5"]["Other"]
    # 3,001 paths: a share like 1234/3001 = 0.41119... is printed 0.4112, not 0.41.
    assert shown == round(float(exact), 4)
    assert shown != round(float(exact), 2)
    assert prob["Acme L5"]["Other"] + prob["Other"]["Acme L5"] == pytest.approx(1.0, abs=2e-4)
    # Money stays in cents.
    row = json.loads(out)["yearly"][0]
    assert row["mean"] == round(row["mean"], 2)


@pytest.mark.parametrize("command", ["simulate", "breakeven"])
def test_a_negative_seed_is_a_clean_error(tmp_path, command):
    data = two_options() if command == "simulate" else {"a": OFFER, "b": OFFER, "years": 4}
    status, out, err = cli(tmp_path, data, command, "--seed", "-1")
    assert status == 2 and out == ""
    assert err == "error: seed: must be at least 0 (got -1)\n"


@pytest.mark.parametrize("code", ["usd", "ABC", "US", "", 840])
def test_a_package_currency_outside_iso_4217_is_an_error(tmp_path, code):
    status, _, err = cli(tmp_path, {**OFFER, "currency": code}, "project")
    assert status == 2
    assert err.startswith("error: currency: must be an ISO 4217 currency code")


def test_a_stock_currency_outside_iso_4217_is_an_error(tmp_path):
    offer = {**OFFER, "stock": {**OFFER["stock"], "currency": "XYZ", "fx_to_package": 1.1}}
    status, _, err = cli(tmp_path, offer, "project")
    assert status == 2 and err.startswith("error: stock.currency: must be an ISO 4217")


def test_the_iso_list_has_the_currencies_of_this_product_and_no_retired_ones():
    assert {"USD", "TWD", "SGD", "HKD", "CNY", "JPY", "EUR", "GBP", "INR", "KRW"} <= ISO_4217
    assert not {"DEM", "FRF", "HRK", "VEF", "SLL"} & ISO_4217  # replaced currencies
    assert all(len(c) == 3 and c.isupper() for c in ISO_4217)
    with pytest.raises(EngineInputError, match="currency"):
        Stock(price=1.0, currency="usd")


# --- Random streams keyed by ticker or option --------------------------------------------------


def spec(name: str, ticker: str | None, price: float, vol: float) -> PackageSpec:
    return PackageSpec(
        name=name,
        start=dt.date(2026, 1, 1),
        base=100_000.0,
        grants=(Grant(value=400_000.0),),
        stock=Stock(price=price, growth_pct=5.0, volatility_pct=vol, ticker=ticker),
    )


A = spec("A", "AAA", 100.0, 30.0)
B = spec("B", "BBB", 50.0, 45.0)
C = spec("C", None, 20.0, 60.0)


def cumulative(specs: list[PackageSpec], paths: int, seed: int, chunk: int = 20_000) -> list:
    values = chunked_paths(
        {str(k): [Segment(s, s.start)] for k, s in enumerate(specs)},
        window_start=dt.date(2026, 1, 1),
        years=4,
        paths=paths,
        rng=np.random.default_rng(seed),
        chunk=chunk,
    )
    assert values is not None
    return [v.sum(axis=1) for v in values.values()]


def test_an_option_gets_the_same_paths_whatever_runs_beside_it():
    alone = cumulative([A], 2_000, 11)
    with_b = cumulative([B, A, C], 2_000, 11)
    assert np.array_equal(alone[0], with_b[1])
    c_alone = cumulative([C], 2_000, 11)
    assert np.array_equal(c_alone[0], with_b[2])


def test_options_on_one_ticker_share_their_paths_and_other_seeds_differ():
    twin = spec("A twin", "AAA", 100.0, 30.0)
    out = cumulative([A, twin], 500, 5)
    assert np.array_equal(out[0], out[1])
    other = cumulative([A], 500, 6)
    assert not np.array_equal(out[0], other[0])


def test_window_simulation_paths_do_not_depend_on_the_other_options():
    start = dt.date(2026, 1, 1)
    a = {"a": [Segment(A, start)]}
    both = {"b": [Segment(B, start)], "a": [Segment(A, start)]}
    alone = window_paths(a, window_start=start, years=4, paths=500, rng=np.random.default_rng(9))
    beside = window_paths(
        both, window_start=start, years=4, paths=500, rng=np.random.default_rng(9)
    )
    assert np.array_equal(alone["a"], beside["a"])
