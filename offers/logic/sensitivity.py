"""How far each raw weight can move, alone, before another option takes the top.

The board's sensitivity table and the verdict's weight flips read it; the ranking is
``offers.logic.ranking``'s, re-run under each weight it tries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from offers.logic.criteria import OptionFacts, RankingPrefs, Scored
from offers.logic.ranking import (
    CRITERIA,
    check_options,
    criterion_scores,
    rank_with_weights,
    raw_weights,
)

SEARCH_MAX_FACTOR = 10.0
# Two raw weights closer than this (relative to the weight, at least 1) are one weight: the
# same crossing of two options' totals, reached from two pairs, differs only by float noise.
WEIGHT_NOISE = 1e-9


@dataclass(frozen=True)
class WeightRange:
    """The range of one raw weight over which the current top option stays on top.

    Strictly beyond ``low`` (below it) or ``high`` (above it) another option takes the top;
    a bound flagged ``*_is_limit`` is only the edge of the searched range (0 or the search
    maximum), not a change of top.
    """

    criterion: str
    current: float
    low: float
    high: float
    low_is_limit: bool
    high_is_limit: bool
    top_below_low: str | None
    top_above_high: str | None

    @property
    def any_weight(self) -> bool:
        """Return whether no value of this weight alone changes the top option."""
        return self.low_is_limit and self.high_is_limit


@dataclass(frozen=True)
class Sensitivity:
    """How far each raw weight can move before the top option changes."""

    top_key: str
    ranges: dict[str, WeightRange]

    @property
    def unmoved(self) -> bool:
        """Return whether no single weight, at any value, puts another option on top."""
        return all(r.any_weight for r in self.ranges.values())


class _WeightSweep:
    """The ranking of the options that compete for the top as one raw weight moves alone.

    With every other raw weight fixed, option a's weighted sum is rest_a + w * s_a (s_a its
    score on the criterion, rest_a the weighted sum of the others) and every total divides it
    by the same weight sum: the order of the totals is the order of these lines, and two
    options swap places only where their lines cross. Each crossing is computed once, from
    the pair's score differences, so the top's own bounds are among the crossings exactly.
    """

    def __init__(
        self,
        options: Sequence[OptionFacts],
        prefs: RankingPrefs,
        raw: Mapping[str, float],
        scored: Mapping[str, Mapping[str, Scored]],
        pool: Sequence[str],
        search_max: float,
    ) -> None:
        self.options, self.prefs, self.raw, self.scored = options, prefs, raw, scored
        self.search_max = search_max
        matrix = np.array([[scored[k][c].score for c in CRITERIA] for k in pool], dtype=np.float64)
        # differences[a, b, j] = s_aj - s_bj: exactly antisymmetric, so is every crossing.
        self.differences = matrix[:, None, :] - matrix[None, :, :]
        self.weights = np.array([raw[c] for c in CRITERIA], dtype=np.float64)

    def crossings(self, criterion: str) -> tuple[np.ndarray, np.ndarray]:
        """Return the weight at which each two options cross (nan: parallel) and the slopes.

        a beats b exactly when c + w * d > 0, with d = s_ai - s_bi and c the weighted sum of
        the other differences: they cross at -c / d.
        """
        i = CRITERIA.index(criterion)
        others = self.weights.copy()
        others[i] = 0.0
        c = self.differences @ others
        d = self.differences[:, :, i]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(d != 0, -c / np.where(d != 0, d, 1.0), np.nan), d

    def top_at(self, criterion: str, weight: float) -> str:
        """Return the top option with one raw weight set to ``weight``."""
        trial = {**self.raw, criterion: weight}
        return rank_with_weights(self.options, self.prefs, trial, self.scored)[0].key

    def weight_range(self, criterion: str) -> WeightRange:
        """Return the range of the criterion's raw weight that keeps the top on top."""
        points, slopes = self.crossings(criterion)
        # Row 0 is the top: it loses to a rival below the crossing when it gains with the
        # weight (d > 0), above it when it loses with the weight (d < 0).
        rising = points[0, 1:][slopes[0, 1:] > 0]
        falling = points[0, 1:][slopes[0, 1:] < 0]
        rising = rising[rising > _weight_noise(0.0)]
        falling = falling[falling < self.search_max]
        current = self.raw[criterion]
        # Float noise can put a bound a hair on the wrong side of the current weight.
        low = min(float(rising.max()), current) if rising.size else 0.0
        high = max(float(falling.min()), current) if falling.size else self.search_max
        # At a current weight of 0 there is no weight below to move to.
        low_is_limit = low <= _weight_noise(0.0)
        high_is_limit = not falling.size
        pairs = points[np.triu_indices(points.shape[0], k=1)]
        pairs = np.unique(pairs[(pairs >= 0) & (pairs <= self.search_max)])
        top_below = top_above = None
        if not low_is_limit:
            top_below = self.top_at(criterion, _halfway_to_next(low, pairs, 0.0))
        if not high_is_limit:
            top_above = self.top_at(criterion, _halfway_to_next(high, pairs, self.search_max))
        return WeightRange(
            criterion=criterion,
            current=current,
            low=low,
            high=high,
            low_is_limit=low_is_limit,
            high_is_limit=high_is_limit,
            top_below_low=top_below,
            top_above_high=top_above,
        )


def _weight_noise(weight: float) -> float:
    """Return how far apart two raw weights near ``weight`` can be and still be one."""
    return WEIGHT_NOISE * max(1.0, abs(weight))


def _halfway_to_next(bound: float, points: np.ndarray, edge: float) -> float:
    """Return the weight halfway from ``bound`` to the next crossing away from it, or the edge.

    Away from the bound means towards ``edge`` (0 below, the search maximum above); a
    crossing within float noise of the bound is the bound itself, so the probe never lands
    in the noise around a crossing, where the totals' rounding decides the order.
    """
    noise = _weight_noise(bound)
    if edge > bound:
        further = points[points > bound + noise]
        nxt = float(further.min()) if further.size else edge
    else:
        further = points[points < bound - noise]
        nxt = float(further.max()) if further.size else edge
    return (bound + nxt) / 2


def weight_sensitivity(options: Sequence[OptionFacts], prefs: RankingPrefs) -> Sensitivity:
    """Return, per criterion, the raw-weight range keeping the top option on top.

    The total of option a is sum_j w_j s_aj / sum_j w_j, so a beats b exactly when
    c + w_i * d > 0 with d = s_ai - s_bi and c = sum over j != i of w_j (s_aj - s_bj):
    linear in the single raw weight w_i, which gives each bound in closed form. The option on
    top just past a bound is the ranking's own, halfway to the next crossing.
    """
    check_options(options)
    raw = raw_weights(prefs)
    best = max(o.comp_value for o in options)
    scored = {o.key: criterion_scores(o, best, prefs) for o in options}
    ranking = rank_with_weights(options, prefs, raw, scored)
    # Only the options meeting the constraints the top meets compete for the top.
    pool = [r.key for r in ranking if r.excluded == ranking[0].excluded]
    search_max = SEARCH_MAX_FACTOR * (sum(raw.values()) or 1.0)
    sweep = _WeightSweep(options, prefs, raw, scored, pool, search_max)
    return Sensitivity(
        top_key=pool[0],
        ranges={criterion: sweep.weight_range(criterion) for criterion in CRITERIA},
    )
