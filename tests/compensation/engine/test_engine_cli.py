"""CLI via subprocess: good JSON in, JSON out; bad input exits 2 naming the field."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests import fresh_python

ROOT = Path(__file__).resolve().parents[3]

OFFER = {
    "name": "Acme L5",
    "start": "2025-03-01",
    "horizon_years": 4,
    "currency": "USD",
    "base": 200000,
    "raise_pct": 3,
    "bonus_target_pct": 15,
    "bonus_multiplier": 1.0,
    "sign_on": [{"amount": 50000, "year": 1, "clawback_months": 12}],
    "grants": [
        {
            "value": 400000,
            "weights": [25, 25, 25, 25],
            "cliff_months": 12,
            "frequency_months": 3,
            "vest_start": "2025-03-01",
        }
    ],
    "refreshers": [
        {
            "yearly_value": 50000,
            "weights": [25, 25, 25, 25],
            "cliff_months": 0,
            "frequency_months": 3,
            "first_year": 2,
        }
    ],
    "stock": {"price": 100, "growth_pct": 5, "volatility_pct": 35},
}


def run(tmp_path: Path, data: object, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "input.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return fresh_python.run(
        ["-m", "compensation.engine", *args[:1], str(path), *args[1:]],
        cwd=ROOT,
        timeout=60,
    )


def test_project(tmp_path):
    done = run(tmp_path, OFFER, "project")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [row["year"] for row in out["years"]] == [1, 2, 3, 4]
    first = out["years"][0]
    assert first["base"] == 200000 and first["bonus"] == 30000 and first["sign_on"] == 50000
    assert first["equity"] == 105000  # 12-month cliff: 25% of 4,000 shares at 100 x 1.05
    assert first["total"] == first["cumulative"] == 385000
    assert {"total", "cumulative", "equity"} <= set(out["years"][3])


def test_simulate_options(tmp_path):
    other = dict(OFFER, name="Beta", base=230000)
    done = run(tmp_path, {"options": [OFFER, other]}, "simulate", "--paths", "2000", "--seed", "3")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["paths"] == 2000 and out["seed"] == 3
    assert {"option", "year", "p10", "p50", "p90"} <= set(out["yearly"][0])
    assert len(out["cumulative"]) == 8
    assert set(out["prob_beats"]) == {"Acme L5", "Beta"}
    again = run(tmp_path, {"options": [OFFER, other]}, "simulate", "--paths", "2000", "--seed", "3")
    assert again.stdout == done.stdout


def test_breakeven(tmp_path):
    b = dict(OFFER, name="Beta", base=230000)
    done = run(tmp_path, {"a": OFFER, "b": b, "years": 4, "component": "sign_on"}, "breakeven")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["component"] == "sign_on" and out["years"] == 4
    assert out["extra"] > 0


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["grants"][0].update(weights=[25, 25, 25, 15]), "grants[0].weights"),
        (lambda d: d.update(start="2025-02-30"), "start"),
        (lambda d: d["stock"].update(price=0), "stock.price"),
        (lambda d: d["sign_on"][0].update(year="one"), "sign_on[0].year"),
        (lambda d: d["grants"][0].update(frequency_months=2), "grants[0].frequency_months"),
        (lambda d: d["grants"][0].update(wieghts=[100]), "grants[0].wieghts"),
        (lambda d: d.pop("base"), "base"),
    ],
)
def test_bad_input_exits_2_naming_the_field(tmp_path, mutate, field):
    data = json.loads(json.dumps(OFFER))
    mutate(data)
    done = run(tmp_path, data, "project")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"error: {field}: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_bad_weights_message(tmp_path):
    data = json.loads(json.dumps(OFFER))
    data["grants"][0]["weights"] = [30, 30, 20, 10]
    done = run(tmp_path, data, "project")
    assert done.stderr.strip() == "error: grants[0].weights: must sum to 100 (got 90)"


def test_bad_option_in_list_and_bad_json(tmp_path):
    bad = dict(OFFER, horizon_years=0)
    done = run(tmp_path, {"options": [OFFER, bad]}, "simulate", "--paths", "10")
    assert done.returncode == 2 and "options[1].horizon_years" in done.stderr
    done = run(tmp_path, "{not json", "project")
    assert done.returncode == 2 and done.stderr.startswith("error: ")
