"""Negotiation points for one offer, each produced by a small rule over plain facts.

Money asks are in the offer's currency (what you say to the recruiter); home-currency gaps
are converted with ``fx_offer_to_home`` (home amount = offer amount x fx).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta

from offers.logic.errors import LogicInputError
from offers.logic.i18n import gettext as _

EVIDENCE_STRENGTH = {"offer_in_hand": 3, "active_process": 2, "band_median": 1}
EVIDENCE_PRIORITY = {"offer_in_hand": 1, "active_process": 2, "band_median": 3}
SIGNAL_LABELS = {
    "strong_hire": "Strong Hire",
    "hire": "Hire",
    "lean_hire": "Lean Hire",
    "lean_no_hire": "Lean No Hire",
    "no_hire": "No Hire",
    "strong_no_hire": "Strong No Hire",
}
POSITIVE_SIGNALS = ("strong_hire", "hire")
EXPLODING_DAYS = 7
START_AFTER_VEST_WINDOW_DAYS = 90
HIGH_VOLATILITY_PCT = 40.0
PRIVATE_LIQUIDITY_HAIRCUT = 0.30
BACK_LOADED_TOLERANCE = 0.02
VERDICT_BAND = 0.05
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True)
class BandFacts:
    """The pay band of the offered level (yearly figures, offer currency)."""

    level_code: str
    base_min: float
    base_mid: float
    base_max: float
    stock_min: float
    stock_mid: float
    stock_max: float
    next_level_code: str | None = None
    next_level_stock_mid: float | None = None
    next_level_stock_max: float | None = None


@dataclass(frozen=True, kw_only=True)
class OfferFacts:
    """One offer as plain figures: offer-currency pay, home-currency yearly totals."""

    key: str
    name: str
    company: str
    currency: str
    yearly_totals: tuple[float, ...]
    yearly_home: tuple[float, ...]
    base: float
    stock_per_year: float
    sign_on_total: float = 0.0
    level_code: str | None = None
    level_order: int | None = None
    target_level_code: str | None = None
    target_level_order: int | None = None
    band: BandFacts | None = None
    remote_weeks_allowed: float = 0.0
    relocation_required: bool = False
    relocation_amount: float | None = None
    overlap_hours: float = 8.0
    start_date: date | None = None
    deadline: date | None = None
    vesting_year_weights: tuple[float, ...] = ()
    is_private: bool = False
    volatility_pct: float | None = None
    p10_cumulative: float | None = None
    p50_cumulative: float | None = None
    signals: tuple[str, ...] = ()
    shareable: bool = True


@dataclass(frozen=True, kw_only=True)
class CurrentJobFacts:
    """The current job (home currency): pay if staying and what leaving forfeits."""

    yearly_totals_if_stay: tuple[float, ...]
    unvested_forfeited_by_year: tuple[tuple[int, float], ...] = ()
    unvested_total: float = 0.0
    sign_on_clawback: float = 0.0
    next_vest_date: date | None = None
    next_vest_value: float = 0.0


@dataclass(frozen=True, kw_only=True)
class AlternativeFacts:
    """Another option the user can point to (home currency)."""

    name: str
    company: str
    value: float
    first_year: float
    evidence_kind: str
    shareable: bool = True
    next_round_date: date | None = None
    stage: str = ""


@dataclass(frozen=True, kw_only=True)
class NegotiationPrefs:
    """The user's needs and the conversion between offer and home currency."""

    required_remote_weeks: float = 0.0
    money_per_remote_week: float | None = None
    min_overlap_hours: float = 0.0
    home_currency: str = "USD"
    horizon_years: int = 4
    fx_offer_to_home: float = 1.0


@dataclass(frozen=True, kw_only=True)
class NegotiationContext:
    """Everything the rules look at for one offer."""

    offer: OfferFacts
    current: CurrentJobFacts | None
    alternatives: tuple[AlternativeFacts, ...] = ()
    prefs: NegotiationPrefs = field(default_factory=NegotiationPrefs)
    today: date


@dataclass(frozen=True)
class NegotiationPoint:
    """One thing to ask for, why, and what to say."""

    rule: str
    title: str
    trigger: str
    ask_amount: float | None
    ask_currency: str | None
    ask_term: str | None
    priority: int
    evidence: str
    figures: dict[str, float | str]


def _money(amount: float, currency: str) -> str:
    """Return an amount formatted like 'USD 120,000'."""
    return f"{currency} {amount:,.0f}"


def _count(n: int) -> str:
    """Return a small count as a word."""
    words = (
        _("zero"),
        _("one"),
        _("two"),
        _("three"),
        _("four"),
        _("five"),
        _("six"),
        _("seven"),
        _("eight"),
        _("nine"),
    )
    return words[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def _to_offer(ctx: NegotiationContext, home_amount: float) -> float:
    """Return a home-currency amount in the offer's currency."""
    return home_amount / ctx.prefs.fx_offer_to_home


def _horizon(values: tuple[float, ...], years: int) -> float:
    """Return the sum of the first years of a yearly series."""
    return float(sum(values[:years]))


def _offer_value_home(ctx: NegotiationContext) -> float:
    """Return the offer's value over the horizon in home currency."""
    return _horizon(ctx.offer.yearly_home, ctx.prefs.horizon_years)


def _check_context(ctx: NegotiationContext) -> None:
    """Raise LogicInputError unless the context is usable."""
    prefs = ctx.prefs
    if not prefs.fx_offer_to_home > 0:
        raise LogicInputError("fx_offer_to_home", "exchange rate must be above 0")
    if prefs.horizon_years < 1:
        raise LogicInputError("horizon_years", "horizon must be at least one year")
    if not ctx.offer.yearly_totals or not ctx.offer.yearly_home:
        raise LogicInputError("yearly_totals", "offer needs at least one year of totals")
    for alternative in ctx.alternatives:
        if alternative.evidence_kind not in EVIDENCE_STRENGTH:
            raise LogicInputError(
                "evidence_kind",
                f"{alternative.name}: evidence kind must be one of {list(EVIDENCE_STRENGTH)}",
            )


def rule_below_stay(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for the gap when the offer is worth less than staying over the horizon."""
    if ctx.current is None or not ctx.current.yearly_totals_if_stay:
        return None
    years = ctx.prefs.horizon_years
    offer_value = _offer_value_home(ctx)
    stay_value = _horizon(ctx.current.yearly_totals_if_stay, years)
    if offer_value >= stay_value:
        return None
    home = ctx.prefs.home_currency
    gap_home = stay_value - offer_value
    ask = _to_offer(ctx, gap_home)
    return NegotiationPoint(
        rule="below_stay",
        title=_("Offer is worth less than staying"),
        trigger=_("{years}-year value {offer_value} vs staying {stay_value}").format(
            years=years, offer_value=_money(offer_value, home), stay_value=_money(stay_value, home)
        ),
        ask_amount=ask,
        ask_currency=ctx.offer.currency,
        ask_term=_("as a sign-on bonus or additional stock"),
        priority=1,
        evidence=_(
            "Over {years} years, staying pays me {stay_value} with the stock still to vest; "
            "this offer is {gap} short. I'd need about {ask} more, as sign-on or stock, to make "
            "the move."
        ).format(
            years=years,
            stay_value=_money(stay_value, home),
            gap=_money(gap_home, home),
            ask=_money(ask, ctx.offer.currency),
        ),
        figures={
            "offer_value_home": offer_value,
            "stay_value_home": stay_value,
            "gap_home": gap_home,
            "horizon_years": float(years),
        },
    )


def rule_make_whole(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for a make-whole grant covering unvested equity forfeited by leaving."""
    if ctx.current is None:
        return None
    by_year = [(year, value) for year, value in ctx.current.unvested_forfeited_by_year if value > 0]
    total = ctx.current.unvested_total or sum(value for _, value in by_year)
    if total <= 0:
        return None
    home = ctx.prefs.home_currency
    ask = _to_offer(ctx, total)
    start = ctx.offer.start_date.isoformat() if ctx.offer.start_date else _("the start date")
    schedule = ", ".join(f"{year}: {_money(value, home)}" for year, value in by_year)
    figures: dict[str, float | str] = {"unvested_total_home": total}
    figures.update({f"forfeited_{year}": value for year, value in by_year})
    return NegotiationPoint(
        rule="make_whole",
        title=_("Make-whole for forfeited stock"),
        trigger=_("leaving on {start} forfeits {total} of unvested stock").format(
            start=start, total=_money(total, home)
        ),
        ask_amount=ask,
        ask_currency=ctx.offer.currency,
        ask_term=_("make-whole sign-on or equity grant"),
        priority=1,
        evidence=_(
            "Starting on {start} I walk away from {total} of unvested stock ({schedule}). I'm "
            "asking for a make-whole grant or sign-on of {ask} to cover it."
        ).format(
            start=start,
            total=_money(total, home),
            schedule=schedule or _("by year not given"),
            ask=_money(ask, ctx.offer.currency),
        ),
        figures=figures,
    )


def rule_clawback(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask the new employer to cover a sign-on the current employer would claw back."""
    if ctx.current is None or ctx.current.sign_on_clawback <= 0:
        return None
    home = ctx.prefs.home_currency
    clawback = ctx.current.sign_on_clawback
    ask = _to_offer(ctx, clawback)
    return NegotiationPoint(
        rule="clawback",
        title=_("Cover the sign-on clawback"),
        trigger=_("current sign-on repayable if leaving now: {amount}").format(
            amount=_money(clawback, home)
        ),
        ask_amount=ask,
        ask_currency=ctx.offer.currency,
        ask_term=_("sign-on covering the repayment (gross)"),
        priority=1,
        evidence=_(
            "Leaving now means repaying {amount} of my current sign-on (gross). I'm asking you "
            "to cover it with a sign-on of {ask}."
        ).format(amount=_money(clawback, home), ask=_money(ask, ctx.offer.currency)),
        figures={"clawback_home": clawback},
    )


def rule_top_of_band(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Move the ask to stock or sign-on when base is at the top of its band."""
    offer, band = ctx.offer, ctx.offer.band
    if band is None or offer.base < band.base_max:
        return None
    cur = offer.currency
    next_stock = band.next_level_stock_mid or band.next_level_stock_max
    figures: dict[str, float | str] = {
        "base": offer.base,
        "band_base_max": band.base_max,
        "stock_per_year": offer.stock_per_year,
        "band_stock_max": band.stock_max,
    }
    if next_stock is not None and next_stock > offer.stock_per_year:
        ask = next_stock - offer.stock_per_year
        figures["next_level_stock_per_year"] = next_stock
        if band.next_level_stock_max is not None:
            figures["stretch_ask_per_year"] = band.next_level_stock_max - offer.stock_per_year
        level = band.next_level_code or _("the next level")
        term = _(
            "stock at {level} level, per year of the grant (an exception needing approval)"
        ).format(level=level)
        say = _(
            "I understand base is capped at {base_max} for {band_level}. Could we move the "
            "difference into stock at the {level} level: {next_stock} a year instead of "
            "{stock}, {ask} a year more?"
        ).format(
            base_max=_money(band.base_max, cur),
            band_level=band.level_code,
            level=level,
            next_stock=_money(next_stock, cur),
            stock=_money(offer.stock_per_year, cur),
            ask=_money(ask, cur),
        )
    elif band.stock_max > offer.stock_per_year:
        ask = band.stock_max - offer.stock_per_year
        term = _("stock to the top of the band, per year of the grant")
        say = _(
            "Base is at the top of the band, so could the stock move to the top of its band: "
            "{stock_max} a year, {ask} more?"
        ).format(stock_max=_money(band.stock_max, cur), ask=_money(ask, cur))
    else:
        return NegotiationPoint(
            rule="top_of_band",
            title=_("Base and stock at the top of the band"),
            trigger=_("base {base} >= band max {base_max}").format(
                base=_money(offer.base, cur), base_max=_money(band.base_max, cur)
            ),
            ask_amount=None,
            ask_currency=None,
            ask_term=_("a sign-on bonus, the only lever left in the band"),
            priority=2,
            evidence=_(
                "Base and stock are already at the top of the band, so I'd like to talk "
                "about a sign-on bonus."
            ),
            figures=figures,
        )
    return NegotiationPoint(
        rule="top_of_band",
        title=_("Base capped: move the ask to stock"),
        trigger=_("base {base} >= band max {base_max}").format(
            base=_money(offer.base, cur), base_max=_money(band.base_max, cur)
        ),
        ask_amount=ask,
        ask_currency=cur,
        ask_term=term,
        priority=2,
        evidence=say,
        figures=figures,
    )


def _signal_label(signal: str) -> str:
    """Return an interview signal's label in the active language."""
    labels = {
        "strong_hire": _("Strong Hire"),
        "hire": _("Hire"),
        "lean_hire": _("Lean Hire"),
        "lean_no_hire": _("Lean No Hire"),
        "no_hire": _("No Hire"),
        "strong_no_hire": _("Strong No Hire"),
    }
    return labels.get(signal, SIGNAL_LABELS.get(signal, signal))


def _signal_summary(signals: tuple[str, ...]) -> str:
    """Return rounds as text like 'four Strong Hire and one Hire out of five rounds'."""
    counts = [(s, signals.count(s)) for s in SIGNAL_LABELS if signals.count(s)]
    parts = [
        _("{count} {signal}").format(count=_count(n), signal=_signal_label(s)) for s, n in counts
    ]
    listed = (
        parts[0]
        if len(parts) == 1
        else _("{items} and {last}").format(items=_(", ").join(parts[:-1]), last=parts[-1])
    )
    return _("{listed} out of {rounds} rounds").format(listed=listed, rounds=_count(len(signals)))


def rule_down_level(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for re-levelling, citing the interview signals, when offered below target."""
    offer = ctx.offer
    if (
        offer.level_order is None
        or offer.target_level_order is None
        or offer.level_order >= offer.target_level_order
    ):
        return None
    target = offer.target_level_code or _("the target level")
    level = offer.level_code or _("the offered level")
    known = tuple(s for s in offer.signals if s in SIGNAL_LABELS)
    positive = sum(1 for s in known if s in POSITIVE_SIGNALS)
    strong = bool(known) and positive * 2 > len(known)
    band = offer.band
    next_stock = band.next_level_stock_mid if band is not None else None
    ask = next_stock - offer.stock_per_year if next_stock is not None else None
    figures: dict[str, float | str] = {
        "level": level,
        "target_level": target,
        "positive_rounds": float(positive),
        "rounds": float(len(known)),
    }
    if next_stock is not None:
        figures["next_level_stock_per_year"] = next_stock
    rounds = _signal_summary(known) if known else _("no round signals recorded")
    if ask is not None and ask > 0:
        say = _(
            "I interviewed for {target} and the feedback was {rounds}. I'd like the level "
            "reviewed, or, if the level can't move, {target} pay: {ask} a year more stock."
        ).format(target=target, rounds=rounds, ask=_money(ask, offer.currency))
    else:
        say = _(
            "I interviewed for {target} and the feedback was {rounds}. I'd like the level reviewed."
        ).format(target=target, rounds=rounds)
    return NegotiationPoint(
        rule="down_level",
        title=_("Down-levelled: {level} instead of {target}").format(level=level, target=target),
        trigger=_("offered {level}, targeted {target}; {rounds}").format(
            level=level, target=target, rounds=rounds
        ),
        ask_amount=ask if ask is not None and ask > 0 else None,
        ask_currency=offer.currency if ask is not None and ask > 0 else None,
        ask_term=_("re-level to {target}, or {target} pay").format(target=target),
        priority=1 if strong else 2,
        evidence=say,
        figures=figures,
    )


def _by_strength(alternatives: tuple[AlternativeFacts, ...]) -> list[AlternativeFacts]:
    """Return alternatives strongest evidence first, then highest value, then name."""
    return sorted(
        alternatives, key=lambda a: (-EVIDENCE_STRENGTH[a.evidence_kind], -a.value, a.name)
    )


def _evidence_kind_label(kind: str) -> str:
    """Return an evidence kind as words in the active language."""
    labels = {
        "offer_in_hand": _("offer in hand"),
        "active_process": _("active process"),
        "band_median": _("band median"),
    }
    return labels.get(kind, kind.replace("_", " "))


def rule_competing_offer(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Cite the strongest alternative worth more than this offer."""
    offer_value = _offer_value_home(ctx)
    better = _by_strength(tuple(a for a in ctx.alternatives if a.value > offer_value))
    if not better:
        return None
    lead = better[0]
    home = ctx.prefs.home_currency
    gap_home = lead.value - offer_value
    ask = _to_offer(ctx, gap_home)
    kind = _evidence_kind_label(lead.evidence_kind)
    if lead.shareable:
        say = (
            _("I have an offer with {company} worth {value} over {years} years")
            if lead.evidence_kind == "offer_in_hand"
            else _("I have a process with {company} worth {value} over {years} years")
        ).format(
            company=lead.company, value=_money(lead.value, home), years=ctx.prefs.horizon_years
        )
    else:
        say = _("I have a competing option that is worth more over the same period")
    if lead.evidence_kind == "band_median":
        say = (
            _("Market data for comparable roles ({company}) puts the value at {value}").format(
                company=lead.company, value=_money(lead.value, home)
            )
            if lead.shareable
            else _("Market data for comparable roles puts the value higher")
        )
    figures: dict[str, float | str] = {
        "offer_value_home": offer_value,
        "alternative_value_home": lead.value,
        "gap_home": gap_home,
        "alternative": lead.name,
        "evidence_kind": lead.evidence_kind,
    }
    for position, other in enumerate(better[1:], start=2):
        figures[f"alternative_{position}"] = f"{other.name} ({other.evidence_kind})"
    return NegotiationPoint(
        rule="competing_offer",
        title=_("Competing {kind}: {name}").format(kind=kind, name=lead.name),
        trigger=_("{name} ({kind}) worth {value} vs this offer {offer_value}").format(
            name=lead.name,
            kind=kind,
            value=_money(lead.value, home),
            offer_value=_money(offer_value, home),
        ),
        ask_amount=ask,
        ask_currency=ctx.offer.currency,
        ask_term=_("match in stock or sign-on"),
        priority=EVIDENCE_PRIORITY[lead.evidence_kind],
        evidence=_("{say}. Closing the {ask} gap would make this an easy yes.").format(
            say=say, ask=_money(ask, ctx.offer.currency)
        ),
        figures=figures,
    )


def rule_remote_gap(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for a written remote arrangement when remote weeks fall short."""
    allowed = ctx.offer.remote_weeks_allowed
    required = ctx.prefs.required_remote_weeks
    if allowed >= required:
        return None
    gap = required - allowed
    figures: dict[str, float | str] = {
        "remote_weeks_allowed": allowed,
        "required_remote_weeks": required,
        "gap_weeks": gap,
    }
    worth = ""
    if ctx.prefs.money_per_remote_week is not None:
        worth_home = gap * ctx.prefs.money_per_remote_week
        figures["gap_worth_home"] = worth_home
        figures["gap_worth_offer_currency"] = _to_offer(ctx, worth_home)
        worth = _(
            " By your own weights the missing {gap} weeks are worth about {worth} to you."
        ).format(gap=f"{gap:g}", worth=_money(worth_home, ctx.prefs.home_currency))
    return NegotiationPoint(
        rule="remote_gap",
        title=_("Remote work short of what you need"),
        trigger=_("{allowed} remote weeks a year allowed, {required} needed").format(
            allowed=f"{allowed:g}", required=f"{required:g}"
        ),
        ask_amount=None,
        ask_currency=None,
        ask_term=_("written remote arrangement for {required} weeks a year").format(
            required=f"{required:g}"
        ),
        priority=1,
        evidence=_(
            "I need to work remotely {required} weeks a year; the policy allows {allowed}. Can "
            "we put a remote arrangement in writing in the offer?"
        ).format(required=f"{required:g}", allowed=f"{allowed:g}")
        + worth,
        figures=figures,
    )


def rule_low_overlap(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for adjusted core hours or a home-region office when overlap is low."""
    overlap = ctx.offer.overlap_hours
    needed = ctx.prefs.min_overlap_hours
    if overlap >= needed:
        return None
    return NegotiationPoint(
        rule="low_overlap",
        title=_("Little working-hours overlap with home"),
        trigger=_("{overlap} h a day of overlap, {needed} h needed").format(
            overlap=f"{overlap:.1f}", needed=f"{needed:g}"
        ),
        ask_amount=None,
        ask_currency=None,
        ask_term=_("adjusted core hours, or a base in an office in the home region"),
        priority=2,
        evidence=_(
            "Working from home the team's day overlaps mine by {overlap} hours. Could we agree "
            "core hours that give at least {needed} hours, or base me in the region's office?"
        ).format(overlap=f"{overlap:.1f}", needed=f"{needed:g}"),
        figures={"overlap_hours": overlap, "min_overlap_hours": needed},
    )


def rule_back_loaded(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for a sign-on levelling years 1-2 when back-loaded vesting leaves them low."""
    offer = ctx.offer
    weights = offer.vesting_year_weights
    if weights and weights[0] >= sum(weights) / len(weights) - 1e-12:
        return None
    totals = offer.yearly_totals[: ctx.prefs.horizon_years]
    average = sum(totals) / len(totals)
    gaps = {
        year: average - totals[year - 1]
        for year in (1, 2)
        if year <= len(totals) and average - totals[year - 1] > BACK_LOADED_TOLERANCE * average
    }
    if not gaps:
        return None
    cur = offer.currency
    ask = sum(gaps.values())
    schedule = "/".join(f"{w:.0%}" for w in weights) if weights else _("back-loaded")
    by_year = _(" and ").join(
        _("{amount} in year {year}").format(amount=_money(gap, cur), year=year)
        for year, gap in gaps.items()
    )
    figures: dict[str, float | str] = {"average_year": average}
    figures.update({f"year_{year}_total": totals[year - 1] for year in gaps})
    figures.update({f"year_{year}_gap": gap for year, gap in gaps.items()})
    return NegotiationPoint(
        rule="back_loaded",
        title=_("Back-loaded vesting: level the first years"),
        trigger=_("vesting {schedule}; {years} vs average {average}").format(
            schedule=schedule,
            years=_(", ").join(
                _("year {year} {amount}").format(year=y, amount=_money(totals[y - 1], cur))
                for y in gaps
            ),
            average=_money(average, cur),
        ),
        ask_amount=ask,
        ask_currency=cur,
        ask_term=_("sign-on of {by_year}").format(by_year=by_year),
        priority=2,
        evidence=_(
            "With {schedule} vesting my first years are below the {average} average. A sign-on "
            "of {by_year} would even them out."
        ).format(schedule=schedule, average=_money(average, cur), by_year=by_year),
        figures=figures,
    )


def rule_exploding_deadline(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for an extension when the deadline comes before other processes finish."""
    deadline = ctx.offer.deadline
    if deadline is None:
        return None
    days_left = (deadline - ctx.today).days
    pending = sorted(
        (
            a
            for a in ctx.alternatives
            if a.evidence_kind == "active_process"
            and a.next_round_date is not None
            and a.next_round_date >= deadline
        ),
        key=lambda a: (a.next_round_date or deadline, a.name),
    )
    if days_left >= EXPLODING_DAYS and not pending:
        return None
    latest = max((a.next_round_date for a in pending if a.next_round_date), default=None)
    extend_to = max(latest + timedelta(days=EXPLODING_DAYS) if latest else deadline, ctx.today)
    if extend_to <= deadline:
        extend_to = deadline + timedelta(days=EXPLODING_DAYS)
    listed = _("; ").join(
        _("{company} ({stage}, next round {date})").format(
            company=a.company, stage=a.stage or _("in process"), date=a.next_round_date
        )
        for a in pending
    )
    figures: dict[str, float | str] = {
        "deadline": deadline.isoformat(),
        "days_left": float(days_left),
        "extend_to": extend_to.isoformat(),
    }
    figures.update({f"process_{a.company}": str(a.next_round_date) for a in pending})
    trigger = _("deadline {deadline} is {days} days away").format(deadline=deadline, days=days_left)
    if pending:
        trigger += _("; still in process: {listed}").format(listed=listed)
    return NegotiationPoint(
        rule="exploding_deadline",
        title=_("Deadline too early"),
        trigger=trigger,
        ask_amount=None,
        ask_currency=None,
        ask_term=_("extend the deadline to {date}").format(date=extend_to.isoformat()),
        priority=1 if days_left < EXPLODING_DAYS else 2,
        evidence=_("I'm excited about this offer and want to decide well. ")
        + (
            _("I have processes finishing soon ({listed}). ").format(listed=listed)
            if pending
            else ""
        )
        + _("Could we move the deadline to {date}?").format(date=extend_to.isoformat()),
        figures=figures,
    )


def rule_stock_risk(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for more cash, or price the risk, when the stock is private or volatile."""
    offer = ctx.offer
    volatile = offer.volatility_pct is not None and offer.volatility_pct >= HIGH_VOLATILITY_PCT
    if not offer.is_private and not volatile:
        return None
    cur = offer.currency
    years = ctx.prefs.horizon_years
    kind = (
        _("private")
        if offer.is_private
        else _("volatile ({pct}% a year)").format(pct=f"{offer.volatility_pct:g}")
    )
    figures: dict[str, float | str] = {"stock_per_year": offer.stock_per_year}
    if offer.volatility_pct is not None:
        figures["volatility_pct"] = offer.volatility_pct
    ask: float | None
    if offer.p10_cumulative is not None and offer.p50_cumulative is not None:
        ask = max(0.0, offer.p50_cumulative - offer.p10_cumulative)
        figures.update(
            {"p10_cumulative": offer.p10_cumulative, "p50_cumulative": offer.p50_cumulative}
        )
        how = _(
            "in a bad case (1 in 10) the package is worth {ask} less over {years} years than in "
            "the median case"
        ).format(ask=_money(ask, cur), years=years)
    elif offer.is_private:
        ask = PRIVATE_LIQUIDITY_HAIRCUT * offer.stock_per_year * years
        figures["liquidity_haircut"] = PRIVATE_LIQUIDITY_HAIRCUT
        how = _(
            "private shares only sell in buybacks; a {haircut} liquidity discount on {years} "
            "years of stock is {ask}"
        ).format(haircut=f"{PRIVATE_LIQUIDITY_HAIRCUT:.0%}", years=years, ask=_money(ask, cur))
    else:
        ask = None
        how = _("the share price swings a lot, so the stock part is far from certain")
    if ask is not None:
        figures["risk_ask"] = ask
    return NegotiationPoint(
        rule="stock_risk",
        title=_("Stock is {kind}: ask for cash").format(kind=kind),
        trigger=_("stock is {kind}").format(kind=kind),
        ask_amount=ask,
        ask_currency=cur if ask is not None else None,
        ask_term=_("more of the package as cash (base, bonus or sign-on)"),
        priority=2,
        evidence=_("The stock is {kind}: {how}. I'd value moving part of it into cash.").format(
            kind=kind, how=how
        ),
        figures=figures,
    )


def rule_relocation(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Ask for a relocation package when the offer requires moving."""
    offer = ctx.offer
    if not offer.relocation_required:
        return None
    offered = offer.relocation_amount or 0.0
    term = _("relocation package: moving, temporary housing, flights home, tax gross-up")
    if offered > 0:
        say = _(
            "The relocation offer of {amount}: can it be grossed up and cover temporary housing "
            "and flights home?"
        ).format(amount=_money(offered, offer.currency))
    else:
        say = _("The role needs me to move. Could the offer include a relocation package?")
    return NegotiationPoint(
        rule="relocation",
        title=_("Relocation required"),
        trigger=(
            _("offer requires relocation; {amount} offered").format(
                amount=_money(offered, offer.currency)
            )
            if offered > 0
            else _("offer requires relocation; none offered")
        ),
        ask_amount=None,
        ask_currency=None,
        ask_term=term,
        priority=3 if offered > 0 else 2,
        evidence=say,
        figures={"relocation_offered": offered},
    )


def rule_start_date(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Propose starting after the current job's next vest when it is soon after the start."""
    current, start = ctx.current, ctx.offer.start_date
    if current is None or start is None or current.next_vest_date is None:
        return None
    vest = current.next_vest_date
    days_after = (vest - start).days
    if not 0 <= days_after <= START_AFTER_VEST_WINDOW_DAYS or current.next_vest_value <= 0:
        return None
    proposed = vest + timedelta(days=1)
    home = ctx.prefs.home_currency
    return NegotiationPoint(
        rule="start_date",
        title=_("Start after the next vest"),
        trigger=_(
            "next vest {vest} ({value}) is {days} days after the planned start {start}"
        ).format(
            vest=vest, value=_money(current.next_vest_value, home), days=days_after, start=start
        ),
        ask_amount=None,
        ask_currency=None,
        ask_term=_("start on {date}").format(date=proposed.isoformat()),
        priority=2,
        evidence=_(
            "Could we set the start date to {date}? Starting after my {vest} vest keeps {value} "
            "I would otherwise lose."
        ).format(date=proposed.isoformat(), vest=vest, value=_money(current.next_vest_value, home)),
        figures={
            "next_vest_value_home": current.next_vest_value,
            "days_after_start": float(days_after),
            "proposed_start": proposed.isoformat(),
        },
    )


def rule_verdict(ctx: NegotiationContext) -> NegotiationPoint | None:
    """Judge the offer low, fair or high against its band and the best alternative."""
    offer = ctx.offer
    band = offer.band
    offer_value = _offer_value_home(ctx)
    figures: dict[str, float | str] = {"offer_value_home": offer_value}
    reasons: list[str] = []
    band_ratio: float | None = None
    if band is not None and band.base_mid + band.stock_mid > 0:
        band_ratio = (offer.base + offer.stock_per_year) / (band.base_mid + band.stock_mid)
        figures["band_ratio"] = band_ratio
        reasons.append(
            _("base plus stock is {ratio} of the {level} band midpoint").format(
                ratio=f"{band_ratio:.0%}", level=band.level_code
            )
        )
    serious = [a for a in ctx.alternatives if a.evidence_kind != "band_median"]
    best = max(serious, key=lambda a: a.value, default=None)
    alt_ratio: float | None = None
    if best is not None and offer_value > 0:
        alt_ratio = best.value / offer_value
        figures["best_alternative_ratio"] = alt_ratio
        figures["best_alternative"] = best.name
        reasons.append(
            _("the best alternative ({name}) is worth {ratio} of it").format(
                name=best.name, ratio=f"{alt_ratio:.0%}"
            )
        )
    if (band_ratio is not None and band_ratio < 1 - VERDICT_BAND) or (
        alt_ratio is not None and alt_ratio > 1 + VERDICT_BAND
    ):
        verdict = "low"
    elif (
        band_ratio is not None
        and band_ratio > 1 + VERDICT_BAND
        and (alt_ratio is None or alt_ratio <= 1)
    ):
        verdict = "high"
    else:
        verdict = "fair"
    figures["verdict"] = verdict
    explanation = (
        _("; ").join(reasons) if reasons else _("no band or alternative to compare against")
    )
    verdict_label = {"low": _("low"), "fair": _("fair"), "high": _("high")}[verdict]
    return NegotiationPoint(
        rule="verdict",
        title=_("Verdict: {verdict}").format(verdict=verdict_label),
        trigger=explanation,
        ask_amount=None,
        ask_currency=None,
        ask_term=None,
        priority=3,
        evidence=_("{name} looks {verdict}: {explanation}.").format(
            name=offer.name, verdict=verdict_label, explanation=explanation
        ),
        figures=figures,
    )


Rule = Callable[[NegotiationContext], "NegotiationPoint | None"]

RULES: tuple[Rule, ...] = (
    rule_below_stay,
    rule_make_whole,
    rule_clawback,
    rule_top_of_band,
    rule_down_level,
    rule_competing_offer,
    rule_remote_gap,
    rule_low_overlap,
    rule_back_loaded,
    rule_exploding_deadline,
    rule_stock_risk,
    rule_relocation,
    rule_start_date,
    rule_verdict,
)


def negotiation_points(ctx: NegotiationContext) -> list[NegotiationPoint]:
    """Return the points every rule raises, by priority, then largest money ask first."""
    _check_context(ctx)
    points = [(order, point) for order, rule in enumerate(RULES) if (point := rule(ctx))]
    points.sort(
        key=lambda row: (
            row[1].priority,
            row[1].ask_amount is None,
            -(row[1].ask_amount or 0.0),
            row[0],
        )
    )
    return [point for _, point in points]
