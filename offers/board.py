"""The valuation: every option valued once, on one basis, over one window, and ranked.

Every page and export reads the figures of an option from the :class:`Board` built here, so the
same option shows the same value everywhere. What the figures mean is the board's
`offers.valuation_basis.ValuationBasis` (window, currency, tax, share price). A leaving option
counts the current job until its start date; staying counts the current job for the whole window.
Its Monte Carlo band is `offers.board_paths`; its working hours, `offers.board_hours`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import itertools
from collections.abc import Sequence
from types import EllipsisType
from typing import Any

import pandas as pd
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from compensation.engine import EngineInputError, PackageSpec
from compensation.engine.components import COMPONENTS
from compensation.engine.ledger import Ledger, window_ledger
from compensation.engine.segments import Segment
from compensation.engine.segments import stock_fx_to_home as window_stock_fx
from compensation.engine.transfer import keep_held_grants
from compensation.engine.window import WindowSimulation, window_yearly
from compensation.models import Level, Package
from compensation.selectors import FxTable, fx_table, package_to_spec, tax_rule_words
from interviews.levels import level_check, rung, target_level_of
from interviews.models import Process
from offers.board_hours import overlap_of
from offers.board_paths import DASHBOARD_MC_PATHS, DASHBOARD_MC_SEED, window_mc
from offers.logic.criteria import RATINGS
from offers.logic.ranking import OptionFacts, RankedOption, RankingPrefs, rank_options
from offers.logic.sensitivity import Sensitivity, weight_sensitivity
from offers.logic.timezones import OverlapSummary
from offers.models import Offer, Preferences
from offers.selectors import offer_list, preferences_get
from offers.valuation_basis import ValuationBasis, home_today

YEARLY_COLUMNS = (*COMPONENTS, "total", "tax", "contributions", "net")


def basis_of(prefs: Preferences, today: dt.date) -> ValuationBasis:
    """Return the valuation basis the user chose (decision date defaults to today)."""
    return ValuationBasis(
        start=prefs.decision_date or today,
        years=int(prefs.horizon_years),
        currency=prefs.home_currency,
        after_tax=prefs.basis == Preferences.Basis.NET,
        percentile=int(prefs.risk_percentile),
        discount_pct=float(prefs.discount_rate_pct),
    )


@dataclasses.dataclass
class Evaluation:
    """One option valued on the board's basis: yearly home-currency figures and ranking facts.

    ``yearly`` is indexed by window year 1..years with the gross components, ``total``
    (gross), ``tax``, ``contributions`` (employee contributions such as Hong Kong's MPF) and
    ``net`` (``total - tax - contributions``); ``value`` is the sum of the basis column (the
    headline).
    ``spec`` is the option's own package from its start date, in its own currency (for the
    package's terms, not for comparing).
    """

    offer: Offer
    basis: ValuationBasis
    spec: PackageSpec | None
    segments: tuple[Segment, ...]
    yearly: pd.DataFrame | None
    fx_to_home: float
    overlap: OverlapSummary | None
    remote_weeks: float
    bridge: float = 0.0
    error: str = ""
    # An internal transfer: how many of the current job's grants it keeps (`keep_held_grants`).
    held: int = 0

    @property
    def key(self) -> str:
        return str(self.offer.pk)

    @property
    def moves_on(self) -> str:
        """Return the day the option's terms start, in words (a transfer's move day)."""
        return self.basis.day(self.offer.package.start_date)

    @functools.cached_property
    def values(self) -> list[float]:
        """Return the headline figure of each window year (basis column; read once)."""
        if self.yearly is None:
            return []
        return [float(v) for v in self.yearly[self.basis.column]]

    @property
    def value(self) -> float:
        """Return the headline: the whole window's value on the basis."""
        return float(sum(self.values))

    @property
    def first_year(self) -> float:
        """Return the first window year's value on the basis, as paid: not discounted (a
        first-year floor is a need for cash in that year)."""
        values = self.values
        return values[0] / float(self.basis.year_factors[0]) if values else 0.0

    @property
    def tax_words(self) -> str:
        """Return the tax rule of each segment in words, e.g. 'California + US federal 2025 tax'.

        Each segment's words name the tables of the tax years it counts in the window.
        """
        day = dt.timedelta(days=1)
        rules = [
            tax_rule_words(
                s.spec, (max(s.start, self.basis.start), (s.end or self.basis.end) - day)
            )
            for s in self.segments
        ]
        if len(rules) > 1 and rules[0] != rules[-1]:
            words = _("%(a)s until %(d)s, then %(b)s") % {
                "a": rules[0],
                "d": self.bridge_until,
                "b": rules[-1],
            }
            if self.segments[-1].transfer:  # `sourced_segments`: the first place taxes on too
                words = _(
                    "%(words)s; the kept stock taxed in each place by the days worked there"
                ) % {"words": words}
            return words
        return rules[-1] if rules else ""

    @property
    def tax_unknown(self) -> bool:
        """Return whether a job counted has no tax rule and no tax location (taxed at 0 %)."""
        return any(s.spec.tax_unknown for s in self.segments)

    @property
    def stock_currency(self) -> str:
        """Return the currency the option's share price is in ('' without stock)."""
        spec = self.spec
        if spec is None or not (spec.grants or spec.refreshers):
            return ""
        return spec.stock_currency

    @property
    def stock_fx_to_home(self) -> float:
        """Return the rate the option's vests are converted at into home currency (one unit of
        the stock's currency in home currency; 0.0 without stock)."""
        if not self.stock_currency or not self.segments:
            return 0.0
        return window_stock_fx(self.segments[-1])  # the rate the engine converts the vests at

    @property
    def bridge_until(self) -> str:
        """Return the day the current job stops counting for this option, in words."""
        return self.basis.day(self.segments[1].start) if len(self.segments) > 1 else ""

    @property
    def has_contributions(self) -> bool:
        """Return whether the option pays employee contributions in any window year."""
        return self.yearly is not None and bool((self.yearly["contributions"] != 0).any())

    @property
    def shown_columns(self) -> tuple[str, ...]:
        """Return the yearly columns this option's table shows (`ValuationBasis.columns`)."""
        return shown_columns(self.basis, (self,))

    def rows(self) -> list[dict[str, Any]]:
        """Return one row per window year: the shown columns and the running headline."""
        columns = [self.component(c) for c in self.shown_columns]
        return [
            {"year": i + 1, "cells": [c[i] for c in columns], "running": running}
            for i, running in enumerate(itertools.accumulate(self.values))
        ]

    def component(self, name: str) -> list[float]:
        """Return one yearly column in home currency."""
        if self.yearly is None:
            return []
        return [float(v) for v in self.yearly[name]]


def shown_columns(basis: ValuationBasis, evaluations: Sequence[Evaluation]) -> tuple[str, ...]:
    """Return the yearly columns a table or chart of these options shows: a Contributions
    column next to Tax (after tax) when any of them pays employee contributions."""
    return basis.columns(any(ev.has_contributions for ev in evaluations))


def remote_weeks_allowed(offer: Offer, remote_weeks: int | None = None) -> float:
    """Return remote weeks a year; a fully remote job allows all 52."""
    if offer.remote_policy == Offer.RemotePolicy.FULLY_REMOTE:
        return 52.0
    return float(offer.remote_weeks_per_year if remote_weeks is None else remote_weeks)


def offer_start(offer: Offer, basis: ValuationBasis) -> dt.date:
    """Return the day an option starts to count: staying counts from the window start."""
    if offer.kind == Offer.Kind.STAY:
        return basis.start
    return offer.package.start_date


def package_spec(package: Package, name: str, basis: ValuationBasis, fx: FxTable) -> PackageSpec:
    """Return the engine spec of a package (an option's own, or the current job's).

    The package owns the start date; a new job's grants moved with it when it was set
    (`compensation.terms.apply_change`), so they are valued as stored. Its terms are stated
    on the decision date (``as_of``): a job already held then (staying, a transfer's current
    job) is paid the base entered, raised from the next anniversary after it.
    """
    rate = fx.rate(package.currency, basis.currency)
    spec = package_to_spec(package, horizon_years=basis.years, fx_to_home=rate, fx=fx)
    return dataclasses.replace(spec, name=name, as_of=basis.start)


def current_job_spec(
    offers: Sequence[Offer], user: User, basis: ValuationBasis, fx: FxTable
) -> PackageSpec | None:
    """Return the current job's spec (the stay option's package, else the current-job package)."""
    stay = next((o for o in offers if o.kind == Offer.Kind.STAY), None)
    package: Package | None
    if stay is not None:
        package = stay.package
    else:
        package = (
            Package.objects.filter(owner=user, is_current_job=True)
            .select_related("company", "location", "level")
            .prefetch_related("sign_ons", "grants", "refreshers")
            .order_by("id")
            .first()
        )
    if package is None:
        return None
    try:
        return package_spec(package, "current", basis, fx)
    except (EngineInputError, LookupError, ValueError):
        return None


def _segments(
    offer: Offer, spec: PackageSpec, current: PackageSpec | None, basis: ValuationBasis
) -> tuple[Segment, ...]:
    start = max(offer_start(offer, basis), basis.start)
    if offer.kind == Offer.Kind.STAY:
        return (Segment(spec, start, current=True),)
    if current is None:
        return (Segment(spec, start),)
    # An internal transfer's held grants vesting after the move are taxed by the days worked
    # in each place (`sourced_segments`); a new employer's grants start with it. An option
    # starting on the decision date keeps the current job as a segment of no window months:
    # its first tax year's pay still sets that year's brackets, and a transfer's vests are
    # still split by the days worked before the move.
    moved = offer.kind == Offer.Kind.INTERNAL
    return (
        Segment(current, basis.start, start, current=True),
        Segment(spec, start, transfer=moved),
    )


def own_spec(ev: Evaluation, fx: FxTable) -> PackageSpec:
    """Return the option's own spec to value again: a transfer's, before it keeps held grants."""
    if ev.spec is not None and not ev.held:
        return ev.spec
    return package_spec(ev.offer.package, ev.key, ev.basis, fx)


def evaluate_offer(
    offer: Offer,
    prefs: Preferences,
    fx: FxTable,
    *,
    basis: ValuationBasis,
    current: PackageSpec | None = None,
    spec: PackageSpec | None = None,
    remote_weeks: int | None = None,
) -> Evaluation:
    """Value one option on the basis (``spec`` replaces its package, e.g. for a scenario)."""
    empty = Evaluation(offer, basis, None, (), None, 1.0, None, 0.0)
    try:
        rate = fx.rate(offer.package.currency, basis.currency)
        if spec is None:
            spec = package_spec(offer.package, f"o{offer.pk}", basis, fx)
        else:
            spec = dataclasses.replace(
                spec, fx_to_home=rate, name=f"o{offer.pk}", as_of=basis.start
            )
        own_grants = len(spec.grants)
        if offer.kind == Offer.Kind.INTERNAL and current is not None:
            # Every grant held on the move date keeps vesting after an internal transfer.
            spec = keep_held_grants(
                spec,
                current,
                offer_start(offer, basis),
                window_start=basis.start,
                prices=basis.prices(current.stock),
            )
        segments = _segments(offer, spec, current, basis)
        values = window_yearly(
            segments,
            window_start=basis.start,
            years=basis.years,
            prices=basis.segment_prices(segments),
        )
        bridge = 0.0
        if len(segments) == 2:
            alone = window_yearly(
                segments[:1],
                window_start=basis.start,
                years=basis.years,
                prices=basis.segment_prices(segments[:1]),
            )
            bridge = float(basis.present(alone[basis.column]).sum())
    except (EngineInputError, LookupError, ValueError) as exc:
        return dataclasses.replace(empty, error=str(exc))
    yearly = pd.DataFrame(
        {c: basis.present(values[c]) for c in YEARLY_COLUMNS},
        index=pd.RangeIndex(1, basis.years + 1, name="year"),
    )
    return Evaluation(
        offer=offer,
        basis=basis,
        spec=spec,
        segments=segments,
        yearly=yearly,
        fx_to_home=rate,
        overlap=overlap_of(offer, prefs, basis.start.year),
        remote_weeks=remote_weeks_allowed(offer, remote_weeks),
        bridge=bridge,
        held=len(spec.grants) - own_grants,
    )


def evaluation_ledger(ev: Evaluation) -> Ledger | None:
    """Return the ledger of an evaluated option: every dated event of its window, from the
    segments and prices its figures were valued with, so its lines add up to its headline.

    None when the option could not be valued.
    """
    if ev.yearly is None or not ev.segments:
        return None
    return window_ledger(
        ev.segments,
        window_start=ev.basis.start,
        years=ev.basis.years,
        prices=ev.basis.segment_prices(ev.segments),
        currency=ev.basis.currency,
    )


def _own_company_target(offer: Offer) -> Level | None:
    """Return the target of the user's latest process at the offer's company, if any.

    Staying has no interview of its own: its target is the one the user set at their own
    company (an internal move), so staying at E5 is scored like any other E5 option with that
    target. Cached on the offer, as scenario searches rebuild the board many times.
    """
    if "_own_company_target" not in offer.__dict__:
        company_id = offer.package.company_id
        process = (
            Process.objects.filter(
                owner_id=offer.owner_id, company_id=company_id, target_level__isnull=False
            )
            .select_related("target_level")
            .order_by("-first_contact", "-id")
            .first()
            if company_id
            else None
        )
        offer.__dict__["_own_company_target"] = process.target_level if process else None
    target: Level | None = offer.__dict__["_own_company_target"]
    return target


def option_facts(ev: Evaluation) -> OptionFacts:
    """Return what the ranking needs to know about one evaluated option."""
    offer = ev.offer
    target = target_level_of(
        offer.target_level if offer.target_level_id else None,
        offer.process.target_level if offer.process is not None else None,
        _own_company_target(offer)
        if offer.kind == Offer.Kind.STAY and not (offer.target_level_id or offer.process_id)
        else None,
    )
    # The same check decides the interviews analytics' "target E6 came back E5".
    check = level_check(rung(offer.level), rung(target))
    return OptionFacts(
        key=ev.key,
        name=offer.name,
        kind=offer.kind,
        comp_value=ev.value,
        first_year_total=ev.first_year,
        remote_weeks_allowed=ev.remote_weeks,
        remote_policy=offer.remote_policy,
        overlap_hours=ev.overlap.average_hours if ev.overlap else 0.0,
        office_hours=8.0,
        level_order=check.position if check else None,
        target_level_order=check.target_position if check else None,
        relocation_required=offer.relocation_required,
        in_hand=offer.in_hand,
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
        in_hand_only=prefs.rank_in_hand_only,
    )


@dataclasses.dataclass
class Board:
    """Every option valued on one basis and ranked, with the Monte Carlo spread behind it.

    The spread (`mc`, ``mc_paths`` seeded paths) is simulated the first time a page reads it
    and kept with the board: the pages, services and exports that show only the valued
    figures never run it.
    """

    prefs: Preferences
    basis: ValuationBasis
    evaluations: list[Evaluation]
    ranking: list[RankedOption]
    sensitivity: Sensitivity | None
    fx: FxTable | None = None
    current: PackageSpec | None = None
    mc_paths: int = DASHBOARD_MC_PATHS

    @functools.cached_property
    def mc(self) -> WindowSimulation | None:
        """Return the seeded Monte Carlo of the valued options (None without one)."""
        options = {e.key: e.segments for e in self.evaluations if not e.error and e.segments}
        return window_mc(options, self.basis, self.mc_paths, DASHBOARD_MC_SEED)

    def evaluation(self, key: str) -> Evaluation:
        return next(e for e in self.evaluations if e.key == key)

    def ledger(self, key: str) -> Ledger | None:
        """Return the ledger of one option (`evaluation_ledger`): it adds up to its headline."""
        return evaluation_ledger(self.evaluation(key))

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the figures, not what this process derived from them (``board_derived``)."""
        state = dict(self.__dict__)
        state.pop("_derived", None)
        return state

    @property
    def ranked(self) -> list[tuple[RankedOption, Evaluation]]:
        by_key = {e.key: e for e in self.evaluations}
        return [(r, by_key[r.key]) for r in self.ranking]

    @property
    def failed(self) -> list[Evaluation]:
        return [e for e in self.evaluations if e.error]

    def spread(self, key: str) -> tuple[list[float], list[float]] | None:
        """Return the P10 and P90 of an option's running value per year, if simulated."""
        if self.mc is None or key not in self.mc.cumulative:
            return None
        band = self.mc.cumulative[key]
        qs = list(self.mc.percentiles)
        if 10.0 not in qs or 90.0 not in qs:
            return None
        return ([float(v) for v in band[qs.index(10.0)]], [float(v) for v in band[qs.index(90.0)]])


def board_build(
    *,
    user: User,
    offers: Sequence[Offer] | None = None,
    prefs: Preferences | None = None,
    today: dt.date | None = None,
    mc_paths: int = DASHBOARD_MC_PATHS,
    overrides: dict[str, Evaluation] | None = None,
    fx: FxTable | None = None,
    current: PackageSpec | None | EllipsisType = ...,
) -> Board:
    """Value and rank the user's options (overrides replace some evaluations); the Monte
    Carlo of ``mc_paths`` paths runs when the board's ``mc`` is first read."""
    prefs = prefs or preferences_get(user=user)
    basis = basis_of(prefs, today or home_today(prefs))
    offers = list(offers) if offers is not None else list(offer_list(user=user))
    fx = fx or fx_table(user=user)
    overrides = overrides or {}
    if current is ...:  # not given: read the current job (a caller that has it passes it)
        current = current_job_spec(offers, user, basis, fx)
    evs = [
        overrides.get(str(o.pk)) or evaluate_offer(o, prefs, fx, basis=basis, current=current)
        for o in offers
    ]
    ok = [e for e in evs if not e.error]
    facts = [option_facts(e) for e in ok]
    rprefs = ranking_prefs(prefs)
    ranking = rank_options(facts, rprefs) if facts else []
    sensitivity = weight_sensitivity(facts, rprefs) if len(facts) >= 2 else None
    return Board(prefs, basis, evs, ranking, sensitivity, fx, current, mc_paths)
