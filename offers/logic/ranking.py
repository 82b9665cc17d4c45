"""Weighted multi-criteria ranking of job options, with hard constraints and money flips.

Each option gets a 0..1 score per criterion; the total is the weighted mean of the scores
with the user's raw weights normalised to sum to 1. Options that break a hard constraint
stay in the result but rank after every option that does not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from offers.logic.criteria import CRITERIA as REGISTRY
from offers.logic.criteria import KEYS, RATINGS, Figures, ScoreContext, Scored, noun, rating_of
from offers.logic.criteria import OptionFacts as OptionFacts
from offers.logic.criteria import RankingPrefs as RankingPrefs
from offers.logic.criteria import money as _money
from offers.logic.errors import LogicInputError
from offers.logic.i18n import gettext as _

# The criterion keys in registry order (offers.logic.criteria is the one list).
CRITERIA = KEYS
OPTION_KINDS = ("external", "internal", "stay")
# A pay rise within reach of a negotiation: at most a quarter of the option's yearly pay, a
# year (over the valuation's window, a quarter of its value). A bigger money "flip" is not an
# ask anyone can make: what decides is something else (remote weeks, time zone, level).
PLAUSIBLE_RAISE_SHARE = 0.25
# Two options whose totals are within this much (two points of fit) are level: the one
# behind is a co-first choice, not one to walk away from.
CO_FIRST_TOLERANCE = 0.02


def within_reach(rise: float, value: float) -> bool:
    """Return whether a rise of the headline value (over the window) is a plausible ask."""
    return value > 0 and rise <= PLAUSIBLE_RAISE_SHARE * value


@dataclass(frozen=True)
class CriterionScore:
    """One criterion's score for one option, with its normalised weight and explanation."""

    score: float
    weight: float
    contribution: float
    explanation: str
    figures: Figures


@dataclass(frozen=True)
class RankedOption:
    """One option's place in the ranking."""

    key: str
    name: str
    rank: int
    total: float
    excluded: bool
    exclusion_reasons: tuple[str, ...]
    criteria: dict[str, CriterionScore]
    comp_value: float


@dataclass(frozen=True)
class MoneyValue:
    """What a full point on a criterion is worth in money under the user's weights."""

    criterion: str
    key: str
    amount: float | None
    currency: str
    explanation: str


@dataclass(frozen=True)
class _Exclusion:
    """A broken hard constraint; money ones can be fixed by a higher first-year total."""

    reason: str
    about_money: bool


def check_options(options: Sequence[OptionFacts]) -> None:
    """Raise LogicInputError unless the options are usable."""
    if not options:
        raise LogicInputError("options", "at least one option is needed")
    keys = [o.key for o in options]
    if len(set(keys)) != len(keys):
        raise LogicInputError("options", f"option keys must be unique, got {keys}")
    for option in options:
        _check_option(option)


def _check_option(option: OptionFacts) -> None:
    """Raise LogicInputError unless one option's facts are usable."""
    if option.kind not in OPTION_KINDS:
        raise LogicInputError(
            "kind", f"{option.key}: kind must be one of {OPTION_KINDS}, got {option.kind!r}"
        )
    if not option.office_hours > 0:
        raise LogicInputError("office_hours", f"{option.key}: office hours must be above 0")
    for rated in RATINGS:
        rating = rating_of(rated, option)
        if rating is not None and not 1 <= rating <= 5:
            raise LogicInputError(rated.key, f"{option.key}: rating must be 1-5, got {rating!r}")
    for name in ("comp_value", "first_year_total", "remote_weeks_allowed", "overlap_hours"):
        if not math.isfinite(getattr(option, name)):
            raise LogicInputError(name, f"{option.key}: {name} must be a finite number")


def raw_weights(prefs: RankingPrefs) -> dict[str, float]:
    """Return a raw weight for every criterion (0 when unset) after validating them."""
    unknown = sorted(set(prefs.weights) - set(CRITERIA))
    if unknown:
        raise LogicInputError("weights", f"unknown criteria {unknown}; known: {list(CRITERIA)}")
    weights = {c: float(prefs.weights.get(c, 0.0)) for c in CRITERIA}
    for criterion, weight in weights.items():
        if not math.isfinite(weight) or weight < 0:
            raise LogicInputError(
                "weights", f"weight for {criterion} must be a non-negative number, got {weight}"
            )
    return weights


def _normalised(weights: Mapping[str, float]) -> dict[str, float]:
    """Return weights scaled to sum to 1 (all 0 when every weight is 0)."""
    total = sum(weights.values())
    if total <= 0:
        return dict.fromkeys(CRITERIA, 0.0)
    return {c: weights[c] / total for c in CRITERIA}


def criterion_scores(
    option: OptionFacts, best_comp: float, prefs: RankingPrefs
) -> dict[str, Scored]:
    """Return each criterion's score, explanation and figures for one option."""
    context = ScoreContext(prefs=prefs, best_comp=best_comp)
    return {c.key: c.score(option, context) for c in REGISTRY}


def _exclusions(option: OptionFacts, prefs: RankingPrefs) -> list[_Exclusion]:
    """Return the hard constraints an option breaks."""
    found: list[_Exclusion] = []
    if option.remote_weeks_allowed < prefs.required_remote_weeks:
        found.append(
            _Exclusion(
                _("allows {allowed} remote weeks a year; you need {required}").format(
                    allowed=f"{option.remote_weeks_allowed:g}",
                    required=f"{prefs.required_remote_weeks:g}",
                ),
                about_money=False,
            )
        )
    if prefs.min_first_year_total is not None and option.first_year_total < (
        prefs.min_first_year_total
    ):
        found.append(
            _Exclusion(
                _("first-year total {total} is below your minimum of {minimum}").format(
                    total=_money(option.first_year_total, prefs.currency),
                    minimum=_money(prefs.min_first_year_total, prefs.currency),
                ),
                about_money=True,
            )
        )
    if option.relocation_required and not prefs.relocation_ok:
        found.append(
            _Exclusion(_("requires relocation; you said you cannot relocate"), about_money=False)
        )
    if prefs.in_hand_only and not option.in_hand:
        found.append(
            _Exclusion(_("not an offer in hand; you rank only offers in hand"), about_money=False)
        )
    return found


_Row = tuple[
    tuple[bool, float, float, str], OptionFacts, float, dict[str, "CriterionScore"], tuple[str, ...]
]


def rank_with_weights(
    options: Sequence[OptionFacts],
    prefs: RankingPrefs,
    raw: Mapping[str, float],
    scored: Mapping[str, Mapping[str, Scored]] | None = None,
) -> list[RankedOption]:
    """Return the ranking for already validated options and raw weights.

    ``scored`` holds each option's criterion scores when the caller has them already (they do
    not depend on the weights): re-ranking under other weights then scores nothing again.
    """
    weights = _normalised(raw)
    best = max(o.comp_value for o in options) if scored is None else 0.0
    unranked: list[_Row] = []
    for option in options:
        criteria: dict[str, CriterionScore] = {}
        total = 0.0
        own = scored[option.key] if scored is not None else criterion_scores(option, best, prefs)
        for criterion, (score, text, figures) in own.items():
            contribution = weights[criterion] * score
            total += contribution
            criteria[criterion] = CriterionScore(
                score=score,
                weight=weights[criterion],
                contribution=contribution,
                explanation=text,
                figures=figures,
            )
        reasons = tuple(e.reason for e in _exclusions(option, prefs))
        order = (bool(reasons), -total, -option.comp_value, option.key)
        unranked.append((order, option, total, criteria, reasons))
    unranked.sort(key=lambda row: row[0])
    return [
        RankedOption(
            key=option.key,
            name=option.name,
            rank=position,
            total=total,
            excluded=bool(reasons),
            exclusion_reasons=reasons,
            criteria=criteria,
            comp_value=option.comp_value,
        )
        for position, (_, option, total, criteria, reasons) in enumerate(unranked, start=1)
    ]


def rank_options(options: Sequence[OptionFacts], prefs: RankingPrefs) -> list[RankedOption]:
    """Rank options by weighted total, excluded ones last; ties by comp_value, then key."""
    check_options(options)
    return rank_with_weights(options, prefs, raw_weights(prefs))


class RankProbe:
    """The place of one option among fixed others as its own facts vary (a bisection's probe).

    ``probe.rank(trial)`` equals the rank of ``trial`` in ``rank_options([*others, trial],
    prefs)``: the same scores, weighted and summed in the same order, the same exclusions and
    tie-breaks. The trial is scored afresh every time; of the others, what does not move with
    the trial is computed once: their exclusions and the scores that do not read the best pay
    (``Criterion.reads_best_comp``); their totals once per best pay.
    """

    def __init__(self, others: Sequence[OptionFacts], prefs: RankingPrefs) -> None:
        self.others = list(others)
        if self.others:  # checked once: a trial is checked on its own
            check_options(self.others)
        self.prefs = prefs
        self.weights = _normalised(raw_weights(prefs))
        self.best_others = max((o.comp_value for o in self.others), default=-math.inf)
        context = ScoreContext(prefs=prefs, best_comp=self.best_others)
        self.fixed = {
            o.key: {c.key: c.score(o, context).score for c in REGISTRY if not c.reads_best_comp}
            for o in self.others
        }
        self.excluded = {o.key: bool(_exclusions(o, prefs)) for o in self.others}
        self._orders: tuple[float, dict[str, tuple[bool, float, float, str]]] | None = None

    def _others_orders(self, best: float) -> dict[str, tuple[bool, float, float, str]]:
        """Return each other option's sort key (as ``rank_with_weights`` builds it)."""
        if self._orders is None or self._orders[0] != best:
            context = ScoreContext(prefs=self.prefs, best_comp=best)
            orders = {}
            for o in self.others:
                fixed = self.fixed[o.key]
                total = 0.0
                for c in REGISTRY:
                    score = c.score(o, context).score if c.reads_best_comp else fixed[c.key]
                    total += self.weights[c.key] * score
                orders[o.key] = (self.excluded[o.key], -total, -o.comp_value, o.key)
            self._orders = (best, orders)
        return self._orders[1]

    def _trial(
        self, trial: OptionFacts
    ) -> tuple[tuple[bool, float, float, str], dict[str, tuple[bool, float, float, str]]]:
        """Return the trial's sort key and the others' at the trial's best pay."""
        if trial.key in self.fixed:
            keys = [*self.fixed, trial.key]
            raise LogicInputError("options", f"option keys must be unique, got {keys}")
        _check_option(trial)
        best = max(self.best_others, trial.comp_value)
        total = 0.0
        for criterion, (score, _text, _figures) in criterion_scores(
            trial, best, self.prefs
        ).items():
            total += self.weights[criterion] * score
        excluded = bool(_exclusions(trial, self.prefs))
        return (excluded, -total, -trial.comp_value, trial.key), self._others_orders(best)

    def rank(self, trial: OptionFacts) -> int:
        """Return the rank (1 = first) of ``trial`` among the others."""
        mine, others = self._trial(trial)
        return 1 + sum(1 for order in others.values() if order < mine)

    def ahead_of(self, trial: OptionFacts, rival_key: str) -> bool:
        """Return whether ``trial`` ranks before the other option ``rival_key``."""
        mine, others = self._trial(trial)
        return mine < others[rival_key]

    def level_with_first(self, trial: OptionFacts, tolerance: float) -> bool:
        """Return whether ``trial`` ranks first, or within ``tolerance`` of every option ahead.

        An option ahead that meets the hard constraints the trial breaks is never level.
        """
        mine, others = self._trial(trial)
        ahead = [order for order in others.values() if order < mine]
        return all(order[0] == mine[0] and mine[1] - order[1] <= tolerance for order in ahead)


def _with_gain(
    options: Sequence[OptionFacts], target_key: str, comp_gain: float, first_year_gain: float
) -> list[OptionFacts]:
    """Return the options with the target's comp_value and first-year total raised."""
    return [
        replace(
            o,
            comp_value=o.comp_value + comp_gain,
            first_year_total=o.first_year_total + first_year_gain,
        )
        if o.key == target_key
        else o
        for o in options
    ]


def _key_of(options: Sequence[OptionFacts], key: str, field: str) -> OptionFacts:
    """Return the option with a key or raise LogicInputError."""
    for option in options:
        if option.key == key:
            return option
    raise LogicInputError(field, f"no option with key {key!r}")


def flip_ask(
    options: Sequence[OptionFacts],
    prefs: RankingPrefs,
    target_key: str,
    gain_per_unit: float,
    rival_key: str | None = None,
    max_ask: float = 10_000_000,
    resolution: float = 100.0,
    first_year_gain_per_unit: float = 0.0,
) -> float | None:
    """Return the smallest ask (a multiple of resolution) that puts the target first.

    Raising the target's comp_value by ``ask * gain_per_unit`` (and its first-year total by
    ``ask * first_year_gain_per_unit``) only raises its total and lowers the others', so the
    target's rank is monotone in the ask and bisection finds the smallest one. With
    ``rival_key`` the goal is only to rank above that rival. Returns None when no ask up to
    ``max_ask`` is enough; ``flip_blocker`` says when no money can be.
    """
    check_options(options)
    target = _key_of(options, target_key, "target_key")
    if rival_key is not None:
        _key_of(options, rival_key, "rival_key")
        if rival_key == target_key:
            raise LogicInputError("rival_key", "rival must differ from the target")
    if not gain_per_unit > 0 or first_year_gain_per_unit < 0:
        raise LogicInputError("gain_per_unit", "gain per unit must be above 0")
    if not resolution > 0 or max_ask < 0:
        raise LogicInputError("resolution", "resolution must be above 0 and max_ask at least 0")

    probe = RankProbe([o for o in options if o.key != target_key], prefs)

    def succeeds(steps: int) -> bool:
        ask = steps * resolution
        [trial] = _with_gain(
            [target], target_key, ask * gain_per_unit, ask * first_year_gain_per_unit
        )
        if rival_key is None:
            return probe.rank(trial) == 1
        return probe.ahead_of(trial, rival_key)

    low, high = 0, math.floor(max_ask / resolution + 1e-9)
    if not succeeds(high):
        return None
    if succeeds(low):
        high = low
    while high - low > 1:
        middle = (low + high) // 2
        if succeeds(middle):
            high = middle
        else:
            low = middle
    return high * resolution


def flip_blocker(
    options: Sequence[OptionFacts],
    prefs: RankingPrefs,
    target_key: str,
    rival_key: str | None = None,
) -> str | None:
    """Return why no money ask can lift the target, or None when money could."""
    check_options(options)
    target = _key_of(options, target_key, "target_key")
    blocking = [e.reason for e in _exclusions(target, prefs) if not e.about_money]
    if not blocking:
        return None
    rivals = [o for o in options if o.key != target_key]
    if rival_key is not None:
        rivals = [_key_of(options, rival_key, "rival_key")]
    if all(any(not e.about_money for e in _exclusions(r, prefs)) for r in rivals):
        return None
    return _("{name} stays excluded whatever the pay: {reasons}").format(
        name=target.name, reasons=_("; ").join(blocking)
    )


def money_value_of_weight(
    options: Sequence[OptionFacts], prefs: RankingPrefs, criterion: str, key: str
) -> MoneyValue:
    """Return the comp_value change worth as much total score as a full point on a criterion.

    A full point (0 -> 1) on the criterion adds its normalised weight w_c to the option's
    total; a comp_value change of x adds w_comp * x / best_comp_value (for an option below
    the best, at today's scale). So the money value is w_c / w_comp * best_comp_value.
    """
    check_options(options)
    raw = raw_weights(prefs)
    option = _key_of(options, key, "key")
    if criterion not in CRITERIA:
        raise LogicInputError("criterion", f"unknown criterion {criterion!r}")
    best = max(o.comp_value for o in options)
    if raw["comp"] <= 0 or best <= 0:
        return MoneyValue(
            criterion=criterion,
            key=key,
            amount=None,
            currency=prefs.currency,
            explanation=_(
                "pay has no weight (or no option has positive pay), so weights give no "
                "money equivalent"
            ),
        )
    amount = raw[criterion] / raw["comp"] * best
    return MoneyValue(
        criterion=criterion,
        key=key,
        amount=amount,
        currency=prefs.currency,
        explanation=_(
            "your weights ({criterion} {weight} vs pay {pay_weight}) make a full point of "
            "{criterion} for {name} worth {amount} of pay over the horizon (best option pays "
            "{best})"
        ).format(
            criterion=noun(criterion),
            weight=f"{raw[criterion]:g}",
            pay_weight=f"{raw['comp']:g}",
            name=option.name,
            amount=_money(amount, prefs.currency),
            best=_money(best, prefs.currency),
        ),
    )


def ranking_inputs(
    options: Sequence[OptionFacts], prefs: RankingPrefs
) -> tuple[dict[str, float], list[bool]]:
    """Return the validated raw weights and whether each option breaks a hard constraint.

    What ``rank_options`` sorts on besides the weighted total: for a caller that ranks the
    same options many times (``offers.logic.choice``, over simulated futures).
    """
    check_options(options)
    return raw_weights(prefs), [bool(_exclusions(o, prefs)) for o in options]


def fixed_exclusions(options: Sequence[OptionFacts], prefs: RankingPrefs) -> list[bool]:
    """Return whether each option breaks a hard constraint no money figure can mend."""
    return [any(not e.about_money for e in _exclusions(o, prefs)) for o in options]
