"""Why the top option is first, in one sentence a person would say.

Pure (no Django): the ranking, the facts it was computed from and the board's basis in; the
parts of the answer and the sentence out. Three parts: what puts the winner first (the
criteria that carry its lead over the runner-up, or the hard constraint that rules out a
higher-scoring option), what it costs against the best-paid option and against staying (on
the board's basis), and the smallest change that would put the runner-up first (lifting the
hard constraint that excludes it, else the smaller of a weight change and a pay rise). A pay
rise no negotiation reaches (more than a quarter of the option's yearly pay, a year:
``within_reach``) is not offered: the sentence names the criteria that decide instead.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from offers.logic.criteria import money as _money
from offers.logic.i18n import and_words
from offers.logic.i18n import gettext as _
from offers.logic.ranking import (
    OptionFacts,
    RankedOption,
    RankingPrefs,
    flip_ask,
    rank_options,
    within_reach,
)
from offers.logic.sensitivity import Sensitivity, weight_sensitivity

WEIGHT_MAX = 10.0  # the largest weight the preferences form accepts: a flip beyond it is moot
MONEY_RESOLUTION = 1000.0  # pay rises are stated to the thousand
MAX_ASK = 10_000_000.0
MAX_DECISIVE = 5

FlipKind = Literal["constraint", "weight", "money", "none"]
ConstraintKind = Literal["remote", "first_year", "relocation", "in_hand"]


@dataclass(frozen=True)
class VerdictBasis:
    """The board's basis in the words a money figure needs: currency, window, gross or net."""

    currency: str
    years: int
    tax_words: str


@dataclass(frozen=True)
class Decisive:
    """A criterion on which the winner gains score over the runner-up."""

    criterion: str
    label: str
    margin: float


@dataclass(frozen=True)
class MoneyGap:
    """The winner's headline value minus another option's (rounded figures, as shown)."""

    key: str
    name: str
    difference: float


@dataclass(frozen=True)
class Broken:
    """A hard constraint an option breaks, and what would lift it."""

    kind: ConstraintKind
    why: str
    lift: str


@dataclass(frozen=True)
class Flip:
    """The smallest change found that puts another option first."""

    kind: FlipKind
    key: str
    name: str
    lifts: tuple[Broken, ...] = ()
    criterion: str | None = None
    from_weight: float | None = None
    to_weight: float | None = None
    ask: float | None = None
    # A pay rise would do it, but more than a negotiation can reach: not offered.
    beyond_reach: bool = False
    # What decides instead (criterion labels), when no change within reach puts it first.
    decides: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """Why the winner wins: the structured parts and the sentence."""

    winner_key: str
    winner_name: str
    decisive: tuple[Decisive, ...]
    blocked_key: str | None
    blocked_by: tuple[Broken, ...]
    only_one_allowed: bool
    all_excluded: bool
    best_paid: MoneyGap | None
    stay: MoneyGap | None
    flip: Flip
    # Why a hard constraint, not a weight, decides the ranking ("" when none does).
    constraint_note: str
    sentence: str


def _weight(value: float) -> str:
    """Return a weight as the preferences form shows it (at most two decimals)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _over(basis: VerdictBasis) -> str:
    """Return the basis words that follow a sum of money, e.g. 'over 4 years, after tax'."""
    return _("over {years} years, {tax}").format(years=basis.years, tax=basis.tax_words)


def broken_constraints(option: OptionFacts, prefs: RankingPrefs) -> tuple[Broken, ...]:
    """Return the hard constraints an option breaks, each with what would lift it."""
    cur = prefs.currency
    found: list[Broken] = []
    if option.remote_weeks_allowed < prefs.required_remote_weeks:
        found.append(
            Broken(
                "remote",
                _("allows {allowed} remote weeks a year and you need {required}").format(
                    allowed=f"{option.remote_weeks_allowed:g}",
                    required=f"{prefs.required_remote_weeks:g}",
                ),
                _("allowed {required} remote weeks a year").format(
                    required=f"{prefs.required_remote_weeks:g}"
                ),
            )
        )
    minimum = prefs.min_first_year_total
    if minimum is not None and option.first_year_total < minimum:
        found.append(
            Broken(
                "first_year",
                _("pays {total} in its first year, under your minimum of {minimum}").format(
                    total=_money(option.first_year_total, cur), minimum=_money(minimum, cur)
                ),
                _("paid at least {minimum} in its first year").format(minimum=_money(minimum, cur)),
            )
        )
    if option.relocation_required and not prefs.relocation_ok:
        found.append(
            Broken(
                "relocation",
                _("requires relocating and you said you cannot"),
                _("did not require relocating"),
            )
        )
    if prefs.in_hand_only and not option.in_hand:
        found.append(
            Broken(
                "in_hand",
                _("is not an offer in hand and you rank only offers in hand"),
                _("came in as an offer"),
            )
        )
    return tuple(found)


def _lifted(option: OptionFacts, prefs: RankingPrefs) -> OptionFacts:
    """Return the option as it would be with every broken hard constraint lifted."""
    first_year = option.first_year_total
    if prefs.min_first_year_total is not None:
        first_year = max(first_year, prefs.min_first_year_total)
    return replace(
        option,
        remote_weeks_allowed=max(option.remote_weeks_allowed, prefs.required_remote_weeks),
        first_year_total=first_year,
        relocation_required=option.relocation_required and prefs.relocation_ok,
        in_hand=option.in_hand or not prefs.in_hand_only,
    )


def decisive_criteria(
    winner: RankedOption, runner_up: RankedOption, labels: Mapping[str, str]
) -> tuple[Decisive, ...]:
    """Return the fewest criteria whose gains over the runner-up carry the whole lead.

    The lead is the sum of the per-criterion contribution differences, so the positive ones,
    largest first, always reach it; criteria the runner-up wins on are never listed.
    """
    lead = winner.total - runner_up.total
    gains = sorted(
        (
            (winner.criteria[c].contribution - runner_up.criteria[c].contribution, order, c)
            for order, c in enumerate(winner.criteria)
            if c in runner_up.criteria
        ),
        key=lambda row: (-row[0], row[1]),
    )
    picked: list[Decisive] = []
    carried = 0.0
    for gain, _order, criterion in gains:
        if gain <= 1e-12 or (picked and carried >= lead - 1e-12):
            break
        picked.append(Decisive(criterion, labels.get(criterion, criterion), gain))
        carried += gain
    return tuple(picked) if lead > 1e-12 else ()


def _first(options: Sequence[OptionFacts], prefs: RankingPrefs) -> str:
    """Return the key of the option ranked first."""
    return rank_options(options, prefs)[0].key


def _weight_flip(
    options: Sequence[OptionFacts],
    prefs: RankingPrefs,
    sensitivity: Sensitivity,
    target: OptionFacts,
) -> tuple[float, Flip] | None:
    """Return the smallest settable single-weight change that puts the target first.

    Past a bound of a weight's range the target takes the top; the weight said is the first
    value past it with the form's two decimals (at the bound itself the two tie), checked by
    ranking again with it.
    """
    best: tuple[float, Flip] | None = None
    for criterion, rng in sensitivity.ranges.items():
        below = math.floor(rng.low * 100 + 1e-9) / 100
        below = below - 0.01 if below >= rng.low - 1e-9 else below
        above = math.ceil(rng.high * 100 - 1e-9) / 100
        above = above + 0.01 if above <= rng.high + 1e-9 else above
        for weight, new_top, is_limit in (
            (round(below, 2), rng.top_below_low, rng.low_is_limit),
            (round(above, 2), rng.top_above_high, rng.high_is_limit),
        ):
            if is_limit or new_top != target.key or not 0 <= weight <= WEIGHT_MAX:
                continue
            size = abs(weight - rng.current) / max(rng.current, 1.0)
            if best is not None and size >= best[0]:
                continue
            trial = replace(prefs, weights={**prefs.weights, criterion: weight})
            if _first(options, trial) == target.key:
                flip = Flip("weight", target.key, target.name, (), criterion, rng.current, weight)
                best = (size, flip)
    return best


def _money_flip(
    options: Sequence[OptionFacts], prefs: RankingPrefs, target: OptionFacts, years: int
) -> tuple[float, Flip] | None:
    """Return the smallest pay rise over the window that puts the target first."""
    ask = flip_ask(
        options,
        prefs,
        target.key,
        gain_per_unit=1.0,
        max_ask=MAX_ASK,
        resolution=MONEY_RESOLUTION,
        first_year_gain_per_unit=1.0 / max(years, 1),
    )
    if ask is None or ask <= 0:
        return None
    size = ask / target.comp_value if target.comp_value > 0 else math.inf
    flip = Flip("money", target.key, target.name, ask=ask)
    if not within_reach(ask, target.comp_value):
        return math.inf, replace(flip, beyond_reach=True)
    return size, flip


def smallest_flip(
    facts: Sequence[OptionFacts],
    prefs: RankingPrefs,
    target_key: str,
    sensitivity: Sensitivity | None,
    basis: VerdictBasis,
) -> Flip:
    """Return the smallest change that puts the target first, hard constraints included.

    A broken hard constraint decides first: it is lifted (what the option would have to
    allow). If that is not enough, the smaller of a settable weight change and a pay rise is
    added, each measured against what it changes (the weight, the option's value).
    """
    by_key = {f.key: f for f in facts}
    target = by_key[target_key]
    lifts = broken_constraints(target, prefs)
    options = [_lifted(f, prefs) if f.key == target_key else f for f in facts]
    if lifts:
        lifted_rank = {r.key: r for r in rank_options(options, prefs)}
        if lifted_rank[target_key].excluded:  # a constraint this module does not know about
            return Flip("none", target_key, target.name)
        if _first(options, prefs) == target_key:
            return Flip("constraint", target_key, target.name, lifts)
        sensitivity = None
    if sensitivity is None or sensitivity.top_key == target_key:
        sensitivity = weight_sensitivity(options, prefs)
    money = _money_flip(options, prefs, by_key[target_key], basis.years)
    beyond = money is not None and money[1].beyond_reach
    candidates = [
        c
        for c in (_weight_flip(options, prefs, sensitivity, target), money)
        if c is not None and not c[1].beyond_reach
    ]
    if not candidates:
        return Flip("none", target_key, target.name, lifts, beyond_reach=beyond)
    _size, flip = min(candidates, key=lambda c: (c[0], c[1].kind != "money"))
    return replace(flip, lifts=lifts)


def _gap(winner: RankedOption, other: RankedOption) -> MoneyGap:
    return MoneyGap(
        other.key, other.name, float(round(winner.comp_value) - round(other.comp_value))
    )


def _why(
    winner: RankedOption,
    runner_up: RankedOption,
    decisive: Sequence[Decisive],
    blocked: RankedOption | None,
    blocked_by: Sequence[Broken],
    only_one_allowed: bool,
) -> str:
    """Return what puts the winner first."""
    if blocked is not None and blocked_by:
        return _("{winner} ranks first because {rival}, which scores higher, {why}").format(
            winner=winner.name, rival=blocked.name, why=and_words([b.why for b in blocked_by])
        )
    if only_one_allowed:
        return _("{winner} ranks first as the only option that meets your hard constraints").format(
            winner=winner.name
        )
    if not decisive:
        text = _("{winner} ranks first, level on score with {runner}").format(
            winner=winner.name, runner=runner_up.name
        )
    else:
        names = [d.label for d in decisive]
        if len(names) > MAX_DECISIVE:
            names = [*names[: MAX_DECISIVE - 1], _("other criteria")]
        text = _("{winner} ranks first, ahead of {runner} on {criteria}").format(
            winner=winner.name, runner=runner_up.name, criteria=and_words(names)
        )
    if winner.excluded:
        text = _("{clause}, though no option meets all your hard constraints").format(clause=text)
    return text


def _cost(
    winner: RankedOption, best: RankedOption, stay: RankedOption | None, basis: VerdictBasis
) -> tuple[str, bool]:
    """Return what the winner costs against the best-paid option and against staying.

    The flag says whether the clause named the basis (a later sum of money need not).
    """
    cur, over = basis.currency, _over(basis)
    best_gap = _gap(winner, best).difference
    if best_gap >= 0:
        stay_gap = _gap(winner, stay).difference if stay is not None else 0.0
        if stay is None or stay.key == winner.key or stay_gap <= 0:
            return _("it is also the best-paid option"), False
        text = _("it is also the best-paid option, {amount} more than staying {over}")
        return text.format(amount=_money(stay_gap, cur), over=over), True
    less = _money(-best_gap, cur)
    if stay is not None and stay.key == best.key:
        text = _("it pays {amount} less than staying, the best-paid option, {over}")
        return text.format(amount=less, over=over), True
    if stay is None or stay.key == winner.key:
        text = _("it pays {amount} less than {best}, the best-paid option, {over}")
        return text.format(amount=less, best=best.name, over=over), True
    stay_gap = _gap(winner, stay).difference
    if stay_gap > 0:
        text = _(
            "it pays {amount} less than {best}, the best-paid option, and {other} more than "
            "staying, {over}"
        )
    elif stay_gap < 0:
        text = _(
            "it pays {amount} less than {best}, the best-paid option, and {other} less than "
            "staying, {over}"
        )
    else:
        text = _(
            "it pays {amount} less than {best}, the best-paid option, and as much as "
            "staying, {over}"
        )
    other = _money(abs(stay_gap), cur)
    return text.format(amount=less, best=best.name, other=other, over=over), True


def _flip_text(flip: Flip, basis: VerdictBasis, basis_said: bool, labels: Mapping[str, str]) -> str:
    """Return the smallest change that would put the runner-up first, as a clause.

    A pay rise is on the board's basis; its words are repeated only if no earlier clause
    already said them.
    """
    conditions = [b.lift for b in flip.lifts]
    if flip.kind == "money" and flip.ask is not None:
        amount = _money(flip.ask, basis.currency)
        conditions.append(
            _("paid {amount} more").format(amount=amount)
            if basis_said
            else _("paid {amount} more {over}").format(amount=amount, over=_over(basis))
        )
    if flip.kind == "none":
        if flip.beyond_reach:
            decides = (
                _("what decides is {criteria}").format(criteria=and_words(list(flip.decides)))
                if flip.decides
                else ""
            )
            if conditions:
                text = _(
                    "{name} would still not rank first if it {conditions}, nor for any pay rise "
                    "within reach of a negotiation"
                ).format(name=flip.name, conditions=and_words(conditions))
            else:
                text = _(
                    "no pay rise within reach of a negotiation or single weight change would "
                    "put {name} first"
                ).format(name=flip.name)
            return _("{text}: {decides}").format(text=text, decides=decides) if decides else text
        if conditions:
            return _("{name} would still not rank first if it {conditions}").format(
                name=flip.name, conditions=and_words(conditions)
            )
        return _("no pay rise or single weight change would put {name} first").format(
            name=flip.name
        )
    if flip.kind == "weight" and flip.criterion is not None and flip.to_weight is not None:
        assert flip.from_weight is not None
        change = (
            _("you raised the weight of {criterion} from {current} to {to}")
            if flip.to_weight > flip.from_weight
            else _("you lowered the weight of {criterion} from {current} to {to}")
        )
        weight = change.format(
            criterion=labels.get(flip.criterion, flip.criterion),
            to=_weight(flip.to_weight),
            current=_weight(flip.from_weight),
        )
        if conditions:
            return _("{name} would rank first if it {conditions} and {weight}").format(
                name=flip.name, conditions=and_words(conditions), weight=weight
            )
        return _("{name} would rank first if {weight}").format(name=flip.name, weight=weight)
    return _("{name} would rank first if it {conditions}").format(
        name=flip.name, conditions=and_words(conditions)
    )


def _constraint_note(
    winner: RankedOption, excluded: int, count: int, blocked: RankedOption | None
) -> str:
    """Return why a hard constraint, not a weight, decides the ranking ("" when none does)."""
    if not winner.excluded and excluded * 2 > count:
        return _(
            "{excluded} of your {count} options break a hard constraint, so a constraint, not a "
            "weight, decides the ranking: weights only reorder the options that meet your "
            "constraints."
        ).format(excluded=excluded, count=count)
    if winner.excluded:
        return _(
            "No option meets all your hard constraints: a constraint, not a weight, decides "
            "what you can accept."
        )
    if blocked is not None:
        return _(
            "{rival} scores higher but breaks a hard constraint, so the constraint, not a "
            "weight, decides the top of the ranking."
        ).format(rival=blocked.name)
    return ""


def winner_verdict(
    ranking: Sequence[RankedOption],
    facts: Sequence[OptionFacts],
    prefs: RankingPrefs,
    basis: VerdictBasis,
    sensitivity: Sensitivity | None = None,
    labels: Mapping[str, str] | None = None,
) -> Verdict | None:
    """Return why the top option wins, or None when there is nothing to compare."""
    if len(ranking) < 2:
        return None
    labels = labels or {}
    by_key = {f.key: f for f in facts}
    winner, runner_up = ranking[0], ranking[1]
    excluded = [r for r in ranking if r.excluded]
    blocked = None
    if not winner.excluded:
        higher = [r for r in excluded if r.total > winner.total]
        blocked = max(higher, key=lambda r: r.total) if higher else None
    blocked_by = broken_constraints(by_key[blocked.key], prefs) if blocked else ()
    only_one_allowed = not winner.excluded and runner_up.excluded
    decisive = decisive_criteria(winner, runner_up, labels)

    best = max(ranking, key=lambda r: round(r.comp_value))
    stay = next((r for r in ranking if by_key[r.key].kind == "stay"), None)

    target = blocked if blocked is not None and blocked_by else runner_up
    flip = smallest_flip(facts, prefs, target.key, sensitivity, basis)
    if flip.kind == "none" and flip.beyond_reach:
        # What keeps the target behind the winner, when no change within reach moves it.
        flip = replace(
            flip, decides=tuple(d.label for d in decisive_criteria(winner, target, labels))
        )

    cost, basis_said = _cost(winner, best, stay, basis)
    why = _why(winner, runner_up, decisive, blocked, blocked_by, only_one_allowed)
    if not by_key[winner.key].in_hand:
        # Its figures are the terms expected, not offered: the ranking holds only if they come.
        why = _("{why}, if the offer comes in as expected").format(why=why)
    clauses = [why, cost, _flip_text(flip, basis, basis_said, labels)]
    sentence = _("{clauses}.").format(clauses=_("; ").join(clauses))
    return Verdict(
        winner_key=winner.key,
        winner_name=winner.name,
        decisive=decisive,
        blocked_key=blocked.key if blocked else None,
        blocked_by=blocked_by,
        only_one_allowed=only_one_allowed,
        all_excluded=winner.excluded,
        best_paid=_gap(winner, best) if best.key != winner.key else None,
        stay=_gap(winner, stay) if stay is not None and stay.key != winner.key else None,
        flip=flip,
        constraint_note=_constraint_note(winner, len(excluded), len(ranking), blocked),
        sentence=sentence,
    )
