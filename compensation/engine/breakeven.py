"""Break-even: how much extra stock or sign-on makes offer A match offer B."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np

from .errors import EngineInputError, check_int, check_kind
from .projection import project_yearly
from .spec import MAX_HORIZON_YEARS, Grant, PackageSpec, SignOn
from .vesting import VestingSchedule, describe_schedule
from .window import package_paths

Component = Literal["stock", "sign_on"]
UNIT = 1000.0  # probe size; value is linear in the extra amount


def _with_extra(spec: PackageSpec, component: str, amount: float) -> PackageSpec:
    """Return ``spec`` with ``amount`` extra stock per year or extra year-1 sign-on."""
    if component == "sign_on":
        return dataclasses.replace(spec, sign_on=(*spec.sign_on, SignOn(amount, 1)))
    schedule = _extra_schedule(spec)
    grant = Grant(
        # ``amount`` is in the package currency; a grant's value is in the stock's.
        value=amount / spec.stock.fx_to_package * schedule.years,
        grant_price=spec.stock.price,
        schedule=schedule,
        vest_start=spec.start,
    )
    return dataclasses.replace(spec, grants=(*spec.grants, grant))


def _extra_schedule(spec: PackageSpec) -> VestingSchedule:
    return spec.grants[0].schedule if spec.grants else VestingSchedule()


def _cumulative_home(spec: PackageSpec) -> float:
    return float(project_yearly(spec)["cumulative_home"].iloc[-1])


def _median(values: np.ndarray) -> float:
    return float(np.median(values))


def _solve_median(base: np.ndarray, slope: np.ndarray, target: float, guess: float) -> float | None:
    """Return X with median(base + X * slope) == target; slope >= 0 makes it monotone."""
    if not np.any(slope > 0):
        return None

    def gap(x: float) -> float:
        return _median(base + x * slope) - target

    step = max(abs(guess), 1.0)
    lo, hi = guess - step, guess + step
    for _ in range(200):
        if gap(lo) <= 0:
            break
        lo -= step
        step *= 2
    for _ in range(200):
        if gap(hi) >= 0:
            break
        hi += step
        step *= 2
    if gap(lo) > 0 or gap(hi) < 0:
        return None
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if gap(mid) < 0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-9 * max(1.0, abs(mid)):
            break
    return 0.5 * (lo + hi)


def breakeven(
    a: PackageSpec,
    b: PackageSpec,
    years: int,
    component: Component = "stock",
    rng: np.random.Generator | None = None,
    paths: int = 0,
) -> dict[str, Any]:
    """Return the extra stock per year (or year-1 sign-on) that makes A's N-year total equal B's.

    Totals are cumulative gross in home currency; the extra (and its grant value) is in A's
    package currency, converted into A's stock currency for the grant. Extra stock is a new
    grant of ``years_of_schedule x X`` on A's first grant's schedule (4-year even monthly if
    none) priced at A's current share price. With ``paths > 0`` the Monte Carlo medians are
    matched too, using common random numbers (``rng`` defaults to ``default_rng(0)``).
    """
    if component not in ("stock", "sign_on"):
        raise EngineInputError("component", f"must be 'stock' or 'sign_on' (got {component!r})")
    years = check_int("years", years, minimum=1, maximum=MAX_HORIZON_YEARS)
    paths = check_int("paths", paths, minimum=0)
    for field, spec in (("a", a), ("b", b)):
        check_kind(field, spec, PackageSpec)
    a_n = dataclasses.replace(a, horizon_years=years)
    b_n = dataclasses.replace(b, horizon_years=years)
    a_probe = _with_extra(a_n, component, UNIT)
    a_value = _cumulative_home(a_n)
    b_value = _cumulative_home(b_n)
    slope = (_cumulative_home(a_probe) - a_value) / UNIT
    extra = (b_value - a_value) / slope if slope > 0 else None
    schedule = _extra_schedule(a) if component == "stock" else None

    def grant_value(x: float | None) -> float | None:
        return None if x is None or schedule is None else x * schedule.years

    result: dict[str, Any] = {
        "component": component,
        "years": years,
        "a": a.name,
        "b": b.name,
        "a_cumulative_home": a_value,
        "b_cumulative_home": b_value,
        "extra": extra,
        "extra_grant_value": grant_value(extra),
        "schedule": describe_schedule(schedule) if schedule is not None else None,
        "reachable": extra is not None,
        "monte_carlo": None,
    }
    if paths > 0:
        cumulative = _cumulative_paths(a_n, a_probe, b_n, years, paths, rng)
        per_unit = (cumulative[1] - cumulative[0]) / UNIT
        target = _median(cumulative[2])
        guess = extra if extra is not None else 0.0
        mc_extra = _solve_median(cumulative[0], per_unit, target, guess)
        result["monte_carlo"] = {
            "paths": paths,
            "a_median_home": _median(cumulative[0]),
            "b_median_home": target,
            "extra": mc_extra,
            "extra_grant_value": grant_value(mc_extra),
        }
    return result


def _cumulative_paths(
    a: PackageSpec,
    probe: PackageSpec,
    b: PackageSpec,
    years: int,
    paths: int,
    rng: np.random.Generator | None,
) -> list[np.ndarray]:
    """Return A's, A-with-the-probe's and B's window totals on simulated prices, each over
    its own years from its own start: A and the probe on the very same paths (one stock),
    B on the same as A's only where they share a ticker."""
    rng = rng if rng is not None else np.random.default_rng(0)
    out: list[np.ndarray] = []
    for specs in ((a, probe), (b,)):
        values = package_paths(
            {str(k): spec for k, spec in enumerate(specs)}, years=years, paths=paths, rng=rng
        )
        out.extend(v.sum(axis=1) for v in values.values())
    return out
