"""Command line: project, simulate or break even offers described in a JSON file."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .breakeven import breakeven
from .errors import EngineInputError, check_int
from .io import as_list, options_from_dict, package_from_dict
from .projection import YEARLY_COLUMNS, annualized, project_yearly
from .spec import PackageSpec
from .window import package_paths, summarise_paths

# Keys whose numbers are not money: probabilities keep 4 decimals (a cent would round 0.4999
# to 0.5 and hide a one-in-ten-thousand difference).
DECIMALS = {"prob_beats": 4}
PERCENTILES = (10.0, 50.0, 90.0)


def _clean(value: Any, decimals: int = 2) -> Any:
    """Return ``value`` with money rounded to cents (see DECIMALS) and numpy scalars JSON-safe."""
    if isinstance(value, dict):
        return {str(k): _clean(v, DECIMALS.get(str(k), decimals)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v, decimals) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        return round(number, decimals) if math.isfinite(number) else None
    return value


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict(orient="records")]


def run_project(data: Any) -> Any:
    """Return the yearly projection of each package in ``data``."""
    out = []
    for spec in options_from_dict(data):
        yearly = project_yearly(spec)
        rows = yearly[list(YEARLY_COLUMNS)].reset_index()
        out.append(
            {
                "name": spec.name,
                "currency": spec.currency,
                "years": _records(rows),
                "annualized": annualized(spec),
            }
        )
    if isinstance(data, Mapping) and "options" in data:
        return {"options": out}
    return out[0]


def _labels(specs: Sequence[PackageSpec]) -> list[str]:
    """Return each package's name, made unique: a second "Acme" is "Acme (2)"."""
    labels: list[str] = []
    for spec in specs:
        label, n = spec.name or "option", 2
        while label in labels:
            label, n = f"{spec.name or 'option'} ({n})", n + 1
        labels.append(label)
    return labels


def _rows(label: str, values: np.ndarray, percentiles: np.ndarray) -> list[dict[str, Any]]:
    """Return one row per year: its mean over the paths and its percentiles."""
    return [
        {"option": label, "year": year + 1, "mean": float(values[:, year].mean())}
        | {f"p{p:g}": float(percentiles[i, year]) for i, p in enumerate(PERCENTILES)}
        for year in range(values.shape[1])
    ]


def run_simulate(data: Any, paths: int, seed: int) -> Any:
    """Return Monte Carlo percentiles and win probabilities for the packages in ``data``."""
    return simulate(options_from_dict(data), paths, seed)


def simulate(specs: Sequence[PackageSpec], paths: int, seed: int) -> dict[str, Any]:
    """Return the yearly and cumulative mean and percentiles of each package's window value,
    and ``prob_beats[a][b]``: the share of paths on which a's whole window beats b's.

    Every package is valued over one window from the earliest start, as long as the longest
    horizon, on the app's own futures (`window.package_paths`): packages on one ticker move
    together; a package that starts later counts from its own start.
    """
    seed = check_int("seed", seed, minimum=0)
    if not specs:
        raise EngineInputError("options", "needs at least one package")
    labels = _labels(specs)
    years = max(spec.horizon_years for spec in specs)
    values = package_paths(
        dict(zip(labels, specs, strict=True)),
        years=years,
        paths=paths,
        rng=np.random.default_rng(seed),
    )
    result = summarise_paths(values, PERCENTILES)
    running = {label: np.cumsum(v, axis=1) for label, v in values.items()}
    return {
        "paths": result.paths,
        "seed": seed,
        "years": years,
        "basis": "home",
        "yearly": [r for k in labels for r in _rows(k, values[k], result.yearly[k])],
        "cumulative": [r for k in labels for r in _rows(k, running[k], result.cumulative[k])],
        "prob_beats": result.prob_beats,
    }


def run_breakeven(data: Any, paths: int, seed: int) -> Any:
    """Return the break-even extra stock or sign-on for ``{"a": ..., "b": ..., "years": N}``."""
    seed = check_int("seed", seed, minimum=0)
    if not isinstance(data, Mapping):
        raise EngineInputError("a", "input must be an object with a, b and years")
    if "options" in data:
        options = as_list("options", data["options"])
        if len(options) != 2:
            raise EngineInputError("options", f"breakeven needs exactly 2 (got {len(options)})")
        a_data, b_data = options
    else:
        for key in ("a", "b"):
            if key not in data:
                raise EngineInputError(key, "is required")
        a_data, b_data = data["a"], data["b"]
    a = package_from_dict(a_data, prefix="a")
    b = package_from_dict(b_data, prefix="b")
    years = check_int("years", data.get("years", a.horizon_years), minimum=1)
    component = data.get("component", "stock")
    paths = check_int("paths", data.get("paths", paths), minimum=0)
    return breakeven(a, b, years, component, np.random.default_rng(seed), paths)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m compensation.engine", description="Offerdesk compensation engine"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    project = commands.add_parser("project", help="yearly deterministic projection")
    project.add_argument("file")
    sim = commands.add_parser("simulate", help="Monte Carlo percentiles")
    sim.add_argument("file")
    sim.add_argument("--paths", type=int, default=10_000)
    sim.add_argument("--seed", type=int, default=0)
    even = commands.add_parser("breakeven", help="extra stock or sign-on to match another offer")
    even.add_argument("file")
    even.add_argument("--paths", type=int, default=0)
    even.add_argument("--seed", type=int, default=0)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit status (2 on bad input)."""
    args = _parser().parse_args(argv)
    try:
        with open(args.file, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        print(f"error: {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"error: {args.file}: invalid JSON: {error}", file=sys.stderr)
        return 2
    try:
        if args.command == "project":
            output = run_project(data)
        elif args.command == "simulate":
            output = run_simulate(data, args.paths, args.seed)
        else:
            output = run_breakeven(data, args.paths, args.seed)
    except EngineInputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    json.dump(_clean(output), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
