"""Reads for offers: options with their packages, evaluated, ranked and explained."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from compensation.engine import (
    EngineInputError,
    MonteCarloResult,
    PackageSpec,
    project_yearly,
    simulate,
)
from compensation.selectors import FxTable, fx_table, package_to_spec
from offers.logic.criteria import RATINGS
from offers.logic.ranking import (
    OptionFacts,
    RankedOption,
    RankingPrefs,
    Sensitivity,
    rank_options,
    weight_sensitivity,
)
from offers.logic.timezones import OverlapSummary, hour_strip, overlap_summary
from offers.models import Offer, Preferences, Scenario

DASHBOARD_MC_PATHS = 2000
DASHBOARD_MC_SEED = 20261130
OFFICE_WINDOW = (dt.time(9, 0), dt.time(17, 0))
COMPONENTS = ("base", "bonus", "sign_on", "relocation", "equity")


def preferences_get(*, user: AbstractBaseUser) -> Preferences:
    """Return the user's preferences, or unsaved defaults (a read never writes)."""
    prefs = Preferences.objects.filter(owner=user).first()
    return prefs if prefs is not None else Preferences(owner=user)


def offer_list(*, user: AbstractBaseUser) -> QuerySet[Offer]:
    """Return the user's options with everything needed to evaluate them."""
    return (
        Offer.objects.filter(owner=user)
        .select_related(
            "company",
            "level",
            "target_level",
            "process",
            "process__target_level",
            "package",
            "package__company",
            "package__location",
            "package__level",
        )
        .prefetch_related("package__sign_ons", "package__grants", "package__refreshers")
        .order_by("name", "id")
    )


def offer_get(*, user: AbstractBaseUser, pk: int) -> Offer:
    """Return one of the user's options or 404."""
    return get_object_or_404(offer_list(user=user), pk=pk)


def scenario_list(*, user: AbstractBaseUser) -> QuerySet[Scenario]:
    """Return the user's scenarios with their offers."""
    return Scenario.objects.filter(owner=user).select_related("offer", "offer__package", "level")


def scenario_get(*, user: AbstractBaseUser, pk: int) -> Scenario:
    """Return one of the user's scenarios or 404."""
    return get_object_or_404(scenario_list(user=user), pk=pk)


@lru_cache(maxsize=512)
def _overlap(
    office_tz: str,
    home_tz: str,
    year: int,
    home: tuple[dt.time, dt.time],
    family: tuple[dt.time, dt.time] | None,
) -> OverlapSummary:
    return overlap_summary(office_tz, home_tz, year, OFFICE_WINDOW, home, family)


def home_window(prefs: Preferences) -> tuple[dt.time, dt.time]:
    """Return the hours of the day the user is willing to work, home time."""
    return (prefs.day_start, prefs.day_end)


def family_window(prefs: Preferences) -> tuple[dt.time, dt.time] | None:
    """Return the hours kept free for family, home time, if any."""
    if prefs.family_start and prefs.family_end and prefs.family_start != prefs.family_end:
        return (prefs.family_start, prefs.family_end)
    return None


@dataclasses.dataclass
class Evaluation:
    """One option turned into money over time and facts the ranking can score."""

    offer: Offer
    spec: PackageSpec | None
    yearly: pd.DataFrame | None
    fx_to_home: float
    first_year_home: float
    cumulative_home: float
    comp_value: float
    overlap: OverlapSummary | None
    remote_weeks: float
    error: str = ""

    @property
    def key(self) -> str:
        return str(self.offer.pk)

    def yearly_home(self, basis: str) -> list[float]:
        """Return the yearly totals in home currency, gross or net."""
        if self.yearly is None:
            return []
        column = "total_net_home" if basis == Preferences.Basis.NET else "total_home"
        return [float(v) for v in self.yearly[column]]


def remote_weeks_allowed(offer: Offer, remote_weeks: int | None = None) -> float:
    """Return remote weeks a year; a fully remote job allows all 52."""
    if offer.remote_policy == Offer.RemotePolicy.FULLY_REMOTE:
        return 52.0
    return float(offer.remote_weeks_per_year if remote_weeks is None else remote_weeks)


def evaluate_offer(
    offer: Offer,
    prefs: Preferences,
    fx: FxTable,
    *,
    today: dt.date,
    spec: PackageSpec | None = None,
    remote_weeks: int | None = None,
) -> Evaluation:
    """Project one option over the user's horizon in home currency."""
    try:
        rate = fx.rate(offer.package.currency, prefs.home_currency)
        if spec is None:
            start = offer.start_date or today
            if offer.kind == Offer.Kind.STAY:
                start = today
            spec = package_to_spec(
                offer.package, horizon_years=prefs.horizon_years, fx_to_home=rate, start=start
            )
        else:
            spec = dataclasses.replace(spec, fx_to_home=rate)
        spec = dataclasses.replace(spec, name=f"o{offer.pk}")
        yearly = project_yearly(spec)
    except (EngineInputError, LookupError, ValueError) as exc:
        return Evaluation(offer, None, None, 1.0, 0.0, 0.0, 0.0, None, 0.0, error=str(exc))
    column = "total_net_home" if prefs.basis == Preferences.Basis.NET else "total_home"
    try:
        overlap = _overlap(
            offer.work_timezone,
            prefs.home_timezone,
            today.year,
            home_window(prefs),
            family_window(prefs),
        )
    except ValueError:
        overlap = None
    cumulative = float(yearly[column].sum())
    return Evaluation(
        offer=offer,
        spec=spec,
        yearly=yearly,
        fx_to_home=rate,
        first_year_home=float(yearly[column].iloc[0]),
        cumulative_home=cumulative,
        comp_value=cumulative,
        overlap=overlap,
        remote_weeks=remote_weeks_allowed(offer, remote_weeks),
    )


def option_facts(ev: Evaluation) -> OptionFacts:
    """Return what the ranking needs to know about one evaluated option."""
    offer = ev.offer
    target = offer.target_level or (offer.process.target_level if offer.process_id else None)
    level = offer.level
    return OptionFacts(
        key=ev.key,
        name=offer.name,
        kind=offer.kind,
        comp_value=ev.comp_value,
        first_year_total=ev.first_year_home,
        remote_weeks_allowed=ev.remote_weeks,
        remote_policy=offer.remote_policy,
        overlap_hours=ev.overlap.average_hours if ev.overlap else 0.0,
        office_hours=8.0,
        level_order=level.equivalence if level and level.equivalence else None,
        target_level_order=target.equivalence if target and target.equivalence else None,
        relocation_required=offer.relocation_required,
        **{c.key: getattr(offer, c.rating_field) for c in RATINGS},
    )


def ranking_prefs(prefs: Preferences) -> RankingPrefs:
    """Return the ranking's view of the user's preferences."""
    return RankingPrefs(
        weights=prefs.weights,
        required_remote_weeks=float(prefs.required_remote_weeks),
        min_first_year_total=float(prefs.min_first_year_total)
        if prefs.min_first_year_total is not None
        else None,
        relocation_ok=prefs.relocation_ok,
        currency=prefs.home_currency,
    )


@dataclasses.dataclass
class Board:
    """Every option evaluated and ranked, with the Monte Carlo bands behind the ranking."""

    prefs: Preferences
    evaluations: list[Evaluation]
    ranking: list[RankedOption]
    sensitivity: Sensitivity | None
    mc: MonteCarloResult | None
    mc_labels: dict[str, str]
    fx: FxTable | None = None

    def evaluation(self, key: str) -> Evaluation:
        return next(e for e in self.evaluations if e.key == key)

    @property
    def ranked(self) -> list[tuple[RankedOption, Evaluation]]:
        by_key = {e.key: e for e in self.evaluations}
        return [(r, by_key[r.key]) for r in self.ranking]

    @property
    def failed(self) -> list[Evaluation]:
        return [e for e in self.evaluations if e.error]


def _mc_basis(prefs: Preferences) -> str:
    return "net_home" if prefs.basis == Preferences.Basis.NET else "home"


def run_dashboard_mc(
    evs: list[Evaluation], prefs: Preferences, paths: int, seed: int
) -> MonteCarloResult | None:
    """Return a small seeded Monte Carlo over all evaluated options (None if none).

    The result depends only on the specs, paths, seed and basis, so it is cached by their hash:
    repeated page views of unchanged data skip the simulation.
    """
    specs = [e.spec for e in evs if e.spec is not None]
    if not specs or paths <= 0:
        return None
    basis = _mc_basis(prefs)
    key = (
        "mc:"
        + hashlib.sha256(
            repr((specs, paths, seed, prefs.horizon_years, basis)).encode()
        ).hexdigest()
    )
    cached = cache.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    result = simulate(
        specs,
        paths,
        np.random.default_rng(seed),
        years=prefs.horizon_years,
        basis=basis,  # type: ignore[arg-type]
    )
    cache.set(key, result, timeout=3600)
    return result


def board_build(
    *,
    user: AbstractBaseUser,
    offers: Sequence[Offer] | None = None,
    prefs: Preferences | None = None,
    today: dt.date | None = None,
    mc_paths: int = DASHBOARD_MC_PATHS,
    seed: int = DASHBOARD_MC_SEED,
    overrides: dict[str, Evaluation] | None = None,
    fx: FxTable | None = None,
) -> Board:
    """Evaluate, simulate and rank the user's options (overrides replace some evaluations)."""
    prefs = prefs or preferences_get(user=user)
    today = today or timezone.localdate()
    offers = list(offers) if offers is not None else list(offer_list(user=user))
    fx = fx or fx_table(user=user)
    overrides = overrides or {}
    evs = [overrides.get(str(o.pk)) or evaluate_offer(o, prefs, fx, today=today) for o in offers]
    ok = [e for e in evs if not e.error]
    mc = run_dashboard_mc(ok, prefs, mc_paths, seed) if ok else None
    labels: dict[str, str] = {}
    if mc is not None:
        final = mc.cumulative[mc.cumulative["year"] == mc.years].set_index("option")
        column = f"p{prefs.risk_percentile}"
        for e in ok:
            assert e.spec is not None
            labels[e.key] = e.spec.name
            if column in final.columns and e.spec.name in final.index:
                e.comp_value = float(final.loc[e.spec.name, column])
    facts = [option_facts(e) for e in ok]
    rprefs = ranking_prefs(prefs)
    ranking = rank_options(facts, rprefs) if facts else []
    sensitivity = weight_sensitivity(facts, rprefs) if len(facts) >= 2 else None
    return Board(prefs, evs, ranking, sensitivity, mc, labels, fx)


def tz_strip(offer: Offer, prefs: Preferences, day: dt.date) -> list[dict[str, Any]]:
    """Return the 24-hour strip of one option in the user's home time."""
    try:
        return hour_strip(
            offer.work_timezone,
            prefs.home_timezone,
            day,
            OFFICE_WINDOW,
            home_window(prefs),
            family_window(prefs),
        )
    except ValueError:
        return []


def money(value: float | Decimal) -> float:
    """Round a figure for display and JSON."""
    return round(float(value), 2)


def tz_strips_by_zone(
    evs: Sequence[Evaluation], prefs: Preferences, day: dt.date
) -> list[dict[str, Any]]:
    """Return one 24-hour strip per distinct work time zone, with the options that use it."""
    zones: dict[str, dict[str, Any]] = {}
    for ev in evs:
        tz = ev.offer.work_timezone
        if tz not in zones:
            zones[tz] = {
                "zone": tz,
                "overlap": ev.overlap,
                "strip": tz_strip(ev.offer, prefs, day),
                "offers": [],
            }
        zones[tz]["offers"].append(ev.offer)
    return list(zones.values())
