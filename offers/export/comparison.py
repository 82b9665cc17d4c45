"""The comparison as plain data: ranking, year-by-year figures, assumptions, interviews.

One `Comparison` feeds every format (CSV, XLSX, JSON, HTML), so they all show the same figures.
Money is kept as floats straight from the engine; nothing is rounded here.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from compensation.engine import PackageSpec, assumption_terms
from compensation.engine.components import COMPONENTS
from compensation.vesting_labels import schedule_description
from interviews.selectors import comparison_processes, comparison_rounds
from offers.board import Board, Evaluation, board_build
from offers.export.columns import TERMS, iso
from offers.export.readable import readable_build
from offers.export.rows import (
    AssumptionRow,
    ComparisonMeta,
    CriterionRow,
    FxRateRow,
    NegotiationRow,
    OptionRow,
    PlanRow,
    ProcessRow,
    RoundRow,
    ScenarioRow,
    VestingRow,
    YearlyRow,
)
from offers.letter import letter_value
from offers.models import Scenario
from offers.negotiation import negotiation_for_offer, negotiation_plan_of, plan_rows
from offers.scenarios.adjustments import ADJUSTMENTS
from offers.selectors import scenario_list_by_option

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 2
# The gross rows of each year: the components, the total, the tax and, for an option that
# pays any (Singapore's CPF, Hong Kong's MPF...), the employee contributions.
YEARLY_COMPONENTS = (*COMPONENTS, "total", "tax", "contributions")
# Negotiation points are worked out for the top of the ranking only: a person negotiates with
# a handful of companies, and each option's points compare it with every other option.
NEGOTIATION_TOP = 10
Progress = Callable[[int], None]


@dataclasses.dataclass
class Comparison:
    """Everything an export shows, as JSON-ready lists of typed rows (`offers.export.rows`)."""

    meta: ComparisonMeta
    options: list[OptionRow]
    yearly: list[YearlyRow]
    assumptions: list[AssumptionRow]
    vesting: list[VestingRow]
    fx_rates: list[FxRateRow]
    negotiation: list[NegotiationRow]
    scenarios: list[ScenarioRow]
    processes: list[ProcessRow]
    rounds: list[RoundRow]
    # For the formats a person reads (XLSX, report): summary sentences, home zone, scenario
    # outcomes (see offers.export.readable). Not part of the JSON document's schema.
    people: dict[str, Any] = dataclasses.field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """Return the versioned JSON document (see docs/export.md)."""
        doc = dataclasses.asdict(self)
        doc.pop("people")
        return {"schema_version": SCHEMA_VERSION, **doc}

    def yearly_totals(self, basis: str = "gross") -> dict[str, list[float]]:
        """Return each option's yearly totals in home currency, keyed by option name."""
        wanted = ("total", basis, self.meta["home_currency"], True)
        out: dict[str, list[float]] = {}
        names = {o["key"]: o["name"] for o in self.options}
        for row in self.yearly:
            if (row["component"], row["basis"], row["currency"], row["in_home_currency"]) == wanted:
                out.setdefault(names[row["option_key"]], []).append(row["amount"])
        return out

    def deadline_rows(self) -> list[dict[str, str]]:
        """Return the offer and process deadlines from today on, soonest first."""
        today = self.people.get("today") or ""
        found = [(o["deadline"], o["name"], _("offer deadline")) for o in self.options]
        found += [
            (p["deadline"], f"{p['company']} {p['role']}".strip(), _("process deadline"))
            for p in self.processes
        ]
        ahead = [(day, name, what) for day, name, what in found if day and day >= today]
        ahead.sort(key=lambda f: f[:2])  # by day, then name (stable)
        return [{"day": day, "name": name, "what": what} for day, name, what in ahead]


def _yearly_rows(ev: Evaluation, home: str) -> list[YearlyRow]:
    """Return the tidy rows of one option: the board's own figures, in home currency.

    Per year: the gross components, ``total`` (gross), ``tax`` and, when the option pays any,
    ``contributions`` with basis ``gross``, and the after-tax ``total`` with basis ``net``
    (``total - tax - contributions``); (option_key, year, component, basis) is a key.
    """
    assert ev.yearly is not None
    frame = ev.yearly
    rows: list[YearlyRow] = []

    def row(year: int, component: str, basis: str, amount: float) -> YearlyRow:
        return {
            "option_key": ev.key,
            "option": ev.offer.name,
            "year": year,
            "component": component,
            "basis": basis,
            "currency": home,
            "in_home_currency": True,
            "amount": amount,
        }

    # Plain lists: a thousand options make 32,000 rows, and pandas' scalar access is slow.
    components = [c for c in YEARLY_COMPONENTS if c != "contributions" or ev.has_contributions]
    columns = {c: frame[c].tolist() for c in (*components, "net")}
    for i, year in enumerate(frame.index.tolist()):
        for component in components:
            rows.append(row(int(year), component, "gross", float(columns[component][i])))
        rows.append(row(int(year), "total", "net", float(columns["net"][i])))
    return rows


def _criteria(ranked: Any) -> dict[str, CriterionRow]:
    return {
        name: {
            "score": float(c.score),
            "weight": float(c.weight),
            "contribution": float(c.contribution),
            "explanation": c.explanation,
        }
        for name, c in ranked.criteria.items()
    }


def _option_row(ev: Evaluation, ranked: Any, letter: float | None) -> OptionRow:
    offer, spec = ev.offer, ev.spec
    valued = ev.yearly is not None
    cumulative = ev.value if valued else None
    return {
        "key": ev.key,
        "name": offer.name,
        "company": offer.company.name if offer.company else "",
        "kind": offer.kind,
        "status": offer.status,
        "level": offer.level.code if offer.level else "",
        "location": offer.location,
        "remote_policy": offer.remote_policy,
        "remote_weeks_per_year": ev.remote_weeks,
        "overlap_hours": ev.overlap.average_hours if ev.overlap else None,
        "start_date": iso(offer.start_date),
        "deadline": iso(offer.deadline),
        "currency": offer.package.currency,
        "fx_to_home": ev.fx_to_home,
        "tax_rate_pct": spec.tax_rate_pct if spec else None,
        "tax_rule": ev.tax_words if spec else "",
        "rank": ranked.rank if ranked else None,
        "score": float(ranked.total) if ranked else None,
        "comp_value_home": cumulative,
        "bridge_home": ev.bridge,
        "first_year_home": ev.first_year if valued else None,
        "letter_value_home": letter if valued else None,
        "horizon_total_home": cumulative,
        "excluded": bool(ranked.excluded) if ranked else False,
        "exclusion_reasons": list(ranked.exclusion_reasons) if ranked else [],
        "error": ev.error,
        "notes": offer.notes,
        "criteria": _criteria(ranked) if ranked else {},
        "tax_unknown": ev.tax_unknown,
        "not_an_offer_yet": offer.expected,
    }


def option_warnings(row: OptionRow) -> list[str]:
    """Return what an option's figures are not yet, in words (every export says the same)."""
    found = []
    if row["tax_unknown"]:
        found.append(_("tax unknown: no tax rule or tax location, after tax counts no tax"))
    if row["not_an_offer_yet"]:
        found.append(_("not an offer yet: the terms expected"))
    return found


def _terms(ev: Evaluation, spec: PackageSpec, home: str, facts: dict[str, Any]) -> AssumptionRow:
    """Return the terms an option is valued with, key for key `TERMS`, in its order: the
    spec's field of the same name unless given here."""
    stock = facts["stock"]
    terms = {
        "option_key": ev.key,
        "option": ev.offer.name,
        "home_currency": home,
        "tax_rule": ev.tax_words,
        "location": ev.offer.package.location.name if ev.offer.package.location else "",
        "start": facts["start"],
        "sign_on_total": float(sum(s.amount for s in spec.sign_on)),
        "ticker": stock["ticker"] or "",
        "share_price": stock["price"],
        "stock_currency": ev.stock_currency,
        "stock_fx_to_home": ev.stock_fx_to_home,
        "growth_pct": stock["growth_pct"],
        "volatility_pct": stock["volatility_pct"],
        "liquidity_discount_pct": stock["liquidity_discount_pct"],
        # The price path the board values stock at: a percentile's when that is the basis.
        "projected_price_by_year": ev.basis.prices_by_year(spec.stock),
        "grant_value_total": float(facts["grant_value_total"]),
    }
    return {t.key: terms[t.key] if t.key in terms else getattr(spec, t.key) for t in TERMS}


def _vesting_rows(
    ev: Evaluation, spec: PackageSpec, home: str, facts: dict[str, Any]
) -> list[VestingRow]:
    """Return an option's grants and refreshers, each amount with its currency."""
    stock = facts["stock"]
    # One unit of the price's currency in home currency: into the pay currency, then home.
    price_to_home = float(stock["fx_to_package"]) * spec.fx_to_home
    return [
        {
            "option_key": ev.key,
            "option": ev.offer.name,
            "kind": "grant",
            "label": _("Grant %(n)s") % {"n": i + 1},
            "value": float(g["value_at_grant"]),
            "shares": float(g["shares"]),
            "price": float(g["grant_price"]),
            "first_year": None,
            "start": g["vest_start"],
            "end": g["vest_end"],
            "schedule": schedule_description(grant.schedule),
            "price_currency": g["price_currency"],
            "price_value": float(g["value_at_grant_stock_currency"]),
            "home_currency": home,
            "fx_price_to_home": price_to_home,
            "home_value": float(g["value_at_grant"]) * spec.fx_to_home,
        }
        for i, (g, grant) in enumerate(zip(facts["grants"], spec.grants, strict=True))
    ] + [
        {
            "option_key": ev.key,
            "option": ev.offer.name,
            "kind": "refresher",
            "label": _("Refresher %(n)s") % {"n": i + 1},
            "value": float(r.yearly_value),
            "shares": None,
            "price": None,
            "first_year": r.first_year,
            "start": None,
            "end": None,
            "schedule": schedule_description(r.schedule),
            "price_currency": spec.stock_currency,
            "price_value": float(r.yearly_value),
            "home_currency": home,
            "fx_price_to_home": price_to_home,
            "home_value": float(r.yearly_value) * price_to_home,
        }
        for i, r in enumerate(spec.refreshers)
    ]


def _negotiation_rows(
    user: AbstractBaseUser, board: Board
) -> tuple[list[NegotiationRow], list[PlanRow]]:
    """Return the negotiation points of the top options, and their plans as a person reads
    them (the XLSX and the report); an option whose points fail has neither."""
    rows: list[NegotiationRow] = []
    plans: list[PlanRow] = []
    top = [ev for _ranked, ev in board.ranked[:NEGOTIATION_TOP]]
    if len(board.evaluations) > NEGOTIATION_TOP:
        # Each option's points weigh it against the others: against the top of the ranking
        # only, or a thousand options would take minutes.
        board = board_build(
            user=user, offers=[ev.offer for ev in top], prefs=board.prefs, fx=board.fx, mc_paths=0
        )
        top = [ev for _ranked, ev in board.ranked]
    for ev in top:
        try:
            points = negotiation_for_offer(user=user, offer=ev.offer, board=board)
        except Exception:  # an optional section must never break the export
            logger.exception("negotiation points failed for offer %s", ev.offer.pk)
            continue
        rows.extend(
            {
                "option_key": ev.key,
                "option": ev.offer.name,
                "priority": point.priority,
                "title": point.title,
                # As the page says it: a stock ask in the grant's price currency.
                "ask_amount": point.said_amount,
                "ask_currency": point.said_in or "",
                "ask_term": point.ask_term or "",
                "trigger": point.trigger,
                "evidence": point.evidence,
                "rule": point.rule,
                "figures": dict(point.figures),
            }
            for point in points
        )
        try:
            plan = negotiation_plan_of(user=user, offer=ev.offer, board=board, points=points)
        except Exception:  # the plan is a reading of the points: never break the export
            logger.exception("negotiation plan failed for offer %s", ev.offer.pk)
            continue
        if plan is not None:
            plans.extend(plan_rows(plan, option_key=ev.key, option=ev.offer.name))
    return rows, plans


def _scenario_rows(scenarios: list[Scenario]) -> list[ScenarioRow]:
    """Return each scenario with one key per adjustment of the registry, in its order, valued
    as its unit says (`Unit.to_json`)."""
    rows = [
        {
            "option_key": str(s.offer_id),
            "option": s.offer.name,
            "name": s.name,
            **{a.key: a.unit.to_json(getattr(s, a.key)) for a in ADJUSTMENTS},
            "stock_currency": s.stock_currency,
            "mc_status": s.mc_status,
            "mc_result": s.mc_result if isinstance(s.mc_result, dict) else {},
            "notes": s.notes,
        }
        for s in scenarios
    ]
    return cast(list[ScenarioRow], rows)


def _interview_rows(user: AbstractBaseUser) -> tuple[list[ProcessRow], list[RoundRow]]:
    processes: list[ProcessRow] = [
        {
            "process_key": str(p.pk),
            "company": p.company.name,
            "role": p.role,
            "team": p.team,
            "stage": p.stage,
            "priority": p.priority,
            "source": p.source,
            "first_contact": iso(p.first_contact),
            "deadline": iso(p.deadline),
            "target_level": p.target_level.code if p.target_level else "",
            "offered_level": p.offered_level.code if p.offered_level else "",
            "rounds": p.n_rounds,
            "debrief_decision": getattr(getattr(p, "debrief", None), "decision", ""),
            "next_step": p.next_step,
        }
        for p in comparison_processes(user=user)
    ]
    rounds: list[RoundRow] = [
        {
            "process_key": str(r.process_id),
            "company": r.process.company.name,
            "role": r.process.role,
            "order": r.order,
            "kind": r.kind,
            "scheduled_at": iso(r.scheduled_at),
            "timezone": r.timezone,
            "duration_minutes": r.duration_minutes,
            "mode": r.mode,
            "interviewer": r.interviewer_name,
            "signal": r.signal,
            "self_assessment": r.self_assessment,
            "questions": [q.text for q in r.questions.all()],
        }
        for r in comparison_rounds(user=user)
    ]
    return processes, rounds


def _fx_rates(evaluations: list[Evaluation], home: str) -> list[FxRateRow]:
    """Return the rates of the pay, then of the stock where it is in another currency: the
    first an option gives for each currency, by currency (home currency's left out)."""
    pairs = [(ev.offer.package.currency, ev.fx_to_home) for ev in evaluations]
    pairs += [(ev.stock_currency, ev.stock_fx_to_home) for ev in evaluations if ev.stock_currency]
    rates = dict(reversed(pairs))  # the first of each currency: a later one is not listed
    return [
        {"currency": c, "to_currency": home, "rate": r}
        for c, r in sorted(rates.items())
        if c != home
    ]


def comparison_build(
    *,
    user: AbstractBaseUser,
    board: Board | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Return the user's comparison: the dashboard's board turned into plain rows."""
    report = progress or (lambda _pct: None)
    # The comparison shows no Monte Carlo band: without one the values and ranking are the same.
    board = board or board_build(user=user, mc_paths=0)
    report(40)
    prefs = board.prefs
    home = prefs.home_currency
    by_key = {r.key: r for r in board.ranking}
    ordered = [ev for _r, ev in board.ranked] + board.failed
    options: list[OptionRow] = []
    yearly: list[YearlyRow] = []
    assumption_rows: list[AssumptionRow] = []
    vesting: list[VestingRow] = []
    for ev in ordered:
        options.append(_option_row(ev, by_key.get(ev.key), letter_value(board, ev)))
        if ev.error:
            continue
        yearly.extend(_yearly_rows(ev, home))
        assert ev.spec is not None
        facts = assumption_terms(ev.spec)  # the terms it is valued with, and its grants' vesting
        assumption_rows.append(_terms(ev, ev.spec, home, facts))
        vesting.extend(_vesting_rows(ev, ev.spec, home, facts))
    report(60)
    negotiation, plans = _negotiation_rows(user, board)
    # Rows and outcomes share the export's order of scenarios.
    scenario_list = list(scenario_list_by_option(user=user))
    scenarios = _scenario_rows(scenario_list)
    processes, rounds = _interview_rows(user)
    report(75)
    meta: ComparisonMeta = {
        "generated_at": timezone.now().isoformat(timespec="seconds"),
        "user": user.get_username(),
        "home_currency": home,
        "basis": prefs.basis,
        "basis_label": board.basis.label,
        "window_start": board.basis.start.isoformat(),
        "window_end": board.basis.end.isoformat(),
        "horizon_years": prefs.horizon_years,
        "risk_percentile": prefs.risk_percentile,
        "weights": prefs.weights,
    }
    return Comparison(
        meta=meta,
        options=options,
        yearly=yearly,
        assumptions=assumption_rows,
        vesting=vesting,
        fx_rates=_fx_rates([ev for ev in ordered if not ev.error], home),
        negotiation=negotiation,
        scenarios=scenarios,
        processes=processes,
        rounds=rounds,
        people={
            **readable_build(user=user, board=board, scenarios=scenario_list),
            # The plan of each option the points are for: the XLSX and the report show it.
            "negotiation_plan": plans,
        },
    )
