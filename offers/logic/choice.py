"""The chance that each option is the right choice, over simulated futures.

A future is one draw of everything not known yet: the share prices (so each option's money
value), whether each option still in process becomes an offer, and, optionally, the user's
weights within a stated uncertainty. In each future the options on the table are ranked as
:func:`offers.logic.ranking.rank_options` ranks them (the same scores, weights, hard
constraints and tie-breaks); the chance of an option is the share of futures in which it
ranks first. Arrays are shaped (futures, options); nothing loops over futures.

Estimates come with their standard error. Futures may come in antithetic pairs (future i
and future i + F/2 drawn from opposite normals) and with control variates (figures whose
exact mean is known, such as a simulated share price against ``P0 (1 + g)^t``):
:func:`estimate_mean` averages each pair first and removes the part of the estimate that the
controls explain, so its standard error is the one of the variance-reduced estimator.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from offers.logic.criteria import CRITERIA as REGISTRY
from offers.logic.criteria import OptionFacts, RankingPrefs, ScoreContext
from offers.logic.errors import LogicInputError
from offers.logic.ranking import fixed_exclusions, ranking_inputs

NO_OPTION = -1  # the winner of a future in which no option is on the table


@dataclass(frozen=True)
class Estimate:
    """A simulated figure and its standard error."""

    value: float
    se: float


@dataclass(frozen=True)
class Futures:
    """The simulated futures the options are ranked in.

    ``money`` is each option's comp value (the ranking's money figure) in each future, shaped
    (futures, options) in the order of the options; ``exists`` whether the option is on the
    table in that future (None: always); ``weight_factors`` multiplies each raw weight, shaped
    (futures, criteria) in registry order (None: the weights as set). With ``pairs`` futures
    i and i + F/2 are antithetic twins. ``controls`` (futures, k) are figures with exactly
    known means ``control_means`` (k,), used as control variates by the estimates; the
    share-price ``features`` (futures, j) and their ``feature_sample`` (a whole number of
    rows per future, j) give the chances one more (:func:`surrogate_control`).
    """

    money: np.ndarray
    exists: np.ndarray | None = None
    weight_factors: np.ndarray | None = None
    pairs: bool = False
    controls: np.ndarray | None = None
    control_means: np.ndarray | None = None
    features: np.ndarray | None = None
    feature_sample: np.ndarray | None = None
    first_year: np.ndarray | None = None

    @property
    def count(self) -> int:
        """Return the number of futures."""
        return int(self.money.shape[0])


@dataclass(frozen=True)
class Regret:
    """How often, and by how much, the runner-up would have been better than the top option.

    Counted over the futures in which both are on the table. The shortfalls are read in the
    futures where the runner-up ranks ahead: in ranking points (the weighted total's gap,
    0..100) and in money (the pay the top option would have needed to draw level under the
    weights; None when pay has no weight).
    """

    top_key: str
    other_key: str
    other_better: Estimate
    points_median: float | None
    points_p90: float | None
    money_median: float | None
    money_p90: float | None


@dataclass(frozen=True)
class ChoiceResult:
    """Each option's chance of ranking first, and the regret between the top two."""

    chances: dict[str, Estimate]
    regret: Regret | None


def _pair_mean(values: np.ndarray, pairs: bool) -> np.ndarray:
    """Return the values with each antithetic pair averaged (rows unchanged without pairs)."""
    if not pairs:
        return values
    half = values.shape[0] // 2
    return np.asarray((values[:half] + values[half:]) / 2.0)


def estimate_mean(
    values: np.ndarray,
    *,
    pairs: bool = False,
    controls: np.ndarray | None = None,
    control_means: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return the mean of each column of ``values`` (futures, k) and its standard error.

    Antithetic pairs are averaged into one sample each; with controls (whose means must be
    known exactly), the estimate is the regression-adjusted mean ``mean(y) - beta (mean(c) -
    E[c])``, ``beta`` fitted by least squares: the intercept of ``y`` on ``c - E[c]``. Its
    standard error is the intercept's sandwich (HC2): each sample's residual times its weight
    in the intercept, over ``sqrt(1 - leverage)``, so a few extreme futures the fit bends to
    (a rare win) do not make the error look smaller than it is. Without controls it is the
    usual ``s / sqrt(n)``.
    """
    y = np.asarray(values, dtype=np.float64)
    squeeze = y.ndim == 1
    if squeeze:
        y = y[:, None]
    if pairs and y.shape[0] % 2:
        raise LogicInputError("futures", "antithetic futures come in pairs: an even count")
    y = _pair_mean(y, pairs)
    n = y.shape[0]
    if n < 2:
        raise LogicInputError("futures", "at least two futures are needed")
    mean = y.mean(axis=0)
    resid, weight, leverage = y - mean, np.full(n, 1.0 / n), np.full(n, 1.0 / n)
    if controls is not None and controls.size:
        if control_means is None:
            raise LogicInputError("control_means", "controls need their known means")
        c = _pair_mean(np.asarray(controls, dtype=np.float64), pairs) - np.asarray(control_means)
        centred = c - c.mean(axis=0)
        solve = centred @ np.linalg.pinv(centred.T @ centred)  # beta = solve.T @ resid
        beta = solve.T @ resid
        resid = resid - centred @ beta
        mean = mean - c.mean(axis=0) @ beta
        weight -= solve @ c.mean(axis=0)  # each sample's weight in the adjusted mean
        leverage += (solve * centred).sum(axis=1)
    share = weight[:, None] * resid / np.sqrt(np.maximum(1.0 - leverage, 1e-12))[:, None]
    se = np.sqrt((share**2).sum(axis=0))
    return (mean[0], se[0]) if squeeze else (mean, se)


def weight_factors(
    futures: int, uncertainty: float, rng: np.random.Generator, *, pairs: bool = False
) -> np.ndarray:
    """Return raw-weight multipliers drawn uniformly within ±``uncertainty`` (0.2: ±20 %).

    Shaped (futures, criteria). With ``pairs`` the second half mirrors the first
    (1 + e and 1 - e), like the antithetic price paths.
    """
    if not 0.0 <= uncertainty < 1.0 or not math.isfinite(uncertainty):
        raise LogicInputError("uncertainty", "weight uncertainty must be from 0 up to 1 (100 %)")
    if pairs and futures % 2:
        raise LogicInputError("futures", "antithetic futures come in pairs: an even count")
    n = futures // 2 if pairs else futures
    e = rng.uniform(-uncertainty, uncertainty, size=(n, len(REGISTRY)))
    if pairs:
        e = np.concatenate([e, -e])
    return np.asarray(1.0 + e)


def _checked(options: Sequence[OptionFacts], futures: Futures) -> np.ndarray:
    """Return the futures' existence mask after checking the shapes."""
    money = futures.money
    if money.ndim != 2 or money.shape[1] != len(options):
        raise LogicInputError("money", f"money must be (futures, {len(options)} options)")
    if money.shape[0] < 2:
        raise LogicInputError("money", "at least two futures are needed")
    if not np.isfinite(money).all():
        raise LogicInputError("money", "money values must be finite")
    exists = np.ones(money.shape, dtype=bool) if futures.exists is None else futures.exists
    if exists.shape != money.shape:
        raise LogicInputError("exists", "exists must have the shape of money")
    if futures.first_year is not None and futures.first_year.shape != money.shape:
        raise LogicInputError("first_year", "first_year must have the shape of money")
    factors = futures.weight_factors
    if factors is not None and (
        factors.shape != (money.shape[0], len(REGISTRY)) or (factors < 0).any()
    ):
        raise LogicInputError("weight_factors", "one non-negative factor per future and criterion")
    return np.asarray(exists, dtype=bool)


def ranking_totals(
    options: Sequence[OptionFacts], prefs: RankingPrefs, futures: Futures
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the weighted totals (futures, options), the exclusions and the existence mask.

    The totals are the ranking's: each criterion's score times its normalised weight. Scores
    that do not read the best pay come from the registry once per option; pay is scored
    against the best pay among the options on the table in each future.
    """
    exists = _checked(options, futures)
    raw, static = ranking_inputs(options, prefs)
    excluded = np.array(static, dtype=bool)
    floor = prefs.min_first_year_total
    if futures.first_year is not None and floor is not None:
        # The first-year floor is read in each future; the other constraints hold in all.
        fixed = np.array(fixed_exclusions(options, prefs), dtype=bool)
        excluded = fixed[None, :] | (futures.first_year < floor)
    raw_row = np.array([raw[c.key] for c in REGISTRY])
    if futures.weight_factors is None:
        weights = np.broadcast_to(raw_row, (futures.count, len(REGISTRY)))
    else:
        weights = futures.weight_factors * raw_row
    sums = weights.sum(axis=1, keepdims=True)
    weights = np.divide(weights, sums, out=np.zeros(weights.shape), where=sums > 0)
    money = futures.money.astype(np.float64)
    best = np.where(exists, money, -np.inf).max(axis=1, keepdims=True)
    context = ScoreContext(prefs=prefs, best_comp=0.0)
    totals = np.zeros(money.shape)
    for j, criterion in enumerate(REGISTRY):
        if criterion.reads_best_comp:
            if criterion.scores_of_pay is None:
                raise LogicInputError(criterion.key, "no array scorer for a best-pay criterion")
            totals += weights[:, j, None] * criterion.scores_of_pay(money, best)
        else:
            scores = np.array([criterion.score(o, context).score for o in options])
            totals += weights[:, j, None] * scores[None, :]
    return totals, excluded, exists


def _ordering(totals: np.ndarray, excluded: np.ndarray, exists: np.ndarray) -> np.ndarray:
    """Return the sort value of each option in each future: higher ranks first.

    Totals are 0..1, so lowering an excluded option by 2 puts it after every option that
    meets the constraints, as the ranking does; an option off the table is -inf.
    """
    return np.where(exists, totals - 2.0 * excluded, -np.inf)


def winners(options: Sequence[OptionFacts], prefs: RankingPrefs, futures: Futures) -> np.ndarray:
    """Return the index of the option ranking first in each future (``NO_OPTION``: none)."""
    totals, excluded, exists = ranking_totals(options, prefs, futures)
    return _first(_ordering(totals, excluded, exists), futures.money, options, exists)


def _first(
    order: np.ndarray, money: np.ndarray, options: Sequence[OptionFacts], exists: np.ndarray
) -> np.ndarray:
    """Return the first of each row by the ranking's order: total, then pay, then key."""
    top = order.max(axis=1, keepdims=True)
    tied = exists & (order == top)
    paid = np.where(tied, money, -np.inf)
    tied &= paid == paid.max(axis=1, keepdims=True)
    by_key = np.argsort([o.key for o in options], kind="stable")
    key_rank = np.empty(len(options), dtype=np.intp)
    key_rank[by_key] = np.arange(len(options))
    first_rank = np.where(tied, key_rank[None, :], len(options)).min(axis=1)
    found = first_rank < len(options)
    out = np.full(order.shape[0], NO_OPTION, dtype=np.intp)
    out[found] = by_key[first_rank[found]]
    return out


def _one_hot(first: np.ndarray, options: int) -> np.ndarray:
    """Return (futures, options + 1) indicators of each future's winner (last: none)."""
    out = np.zeros((first.shape[0], options + 1))
    out[np.arange(first.shape[0]), np.where(first == NO_OPTION, options, first)] = 1.0
    return out


def surrogate_control(
    options: Sequence[OptionFacts], prefs: RankingPrefs, futures: Futures
) -> np.ndarray:
    """Return a control for the chances: (futures, options), each of mean exactly 0.

    A surrogate values each option's money by a least-squares fit on the features (the share
    prices at a few dates); ranked like the real money, its winners follow the real ones
    closely. Sample row r draws the features afresh but keeps future ``r % F``'s offers and
    weight factors, so each future's surrogate winner, less its share among that future's
    sample rows, has mean 0 whatever the offers and weights: an exact control of the price
    risk, whose sampling error is in the futures' spread.
    """
    features, sample = futures.features, futures.feature_sample
    if features is None or sample is None:
        raise LogicInputError("features", "the surrogate needs features and their sample")
    n = futures.count
    if features.shape[0] != n or sample.shape[1] != features.shape[1] or sample.shape[0] % n:
        raise LogicInputError("features", "one row of features per future, whole samples of them")
    design = np.column_stack([np.ones(n), features])
    # Least squares by the normal equations: the Gram matrix is small (columns x columns).
    coef = np.linalg.lstsq(design.T @ design, design.T @ futures.money, rcond=None)[0]
    rows = np.arange(sample.shape[0]) % n
    there = np.column_stack([np.ones(sample.shape[0]), sample]) @ coef

    def taken(values: np.ndarray | None) -> np.ndarray | None:
        return None if values is None else values[rows]

    near = dataclasses.replace(futures, money=design @ coef, features=None, feature_sample=None)
    far = Futures(
        money=there,
        exists=taken(futures.exists),
        weight_factors=taken(futures.weight_factors),
        first_year=taken(futures.first_year),
    )
    here = _one_hot(winners(options, prefs, near), len(options))[:, :-1]
    shares = _one_hot(winners(options, prefs, far), len(options))[:, :-1]
    return np.asarray(here - shares.reshape(-1, n, len(options)).mean(axis=0))


def choice_chances(
    options: Sequence[OptionFacts], prefs: RankingPrefs, futures: Futures
) -> ChoiceResult:
    """Return each option's chance of ranking first and the regret between the top two."""
    totals, excluded, exists = ranking_totals(options, prefs, futures)
    order = _ordering(totals, excluded, exists)
    first = _first(order, futures.money, options, exists)
    keys = tuple(o.key for o in options)
    controls, control_means = futures.controls, futures.control_means
    if futures.features is not None and futures.feature_sample is not None:
        surrogate = surrogate_control(options, prefs, futures)
        controls = surrogate if controls is None else np.hstack([controls, surrogate])
        control_means = np.append(
            np.zeros(0) if control_means is None else control_means, np.zeros(len(options))
        )
    means, ses = estimate_mean(
        _one_hot(first, len(options)),
        pairs=futures.pairs,
        controls=controls,
        control_means=control_means,
    )
    chances = {
        k: Estimate(float(np.clip(means[i], 0.0, 1.0)), float(ses[i])) for i, k in enumerate(keys)
    }
    regret = None
    if len(options) >= 2:
        top, other = np.argsort(-means[:-1], kind="stable")[:2]
        regret = _regret(options, prefs, futures, totals, order, int(top), int(other))
    return ChoiceResult(chances, regret)


def _regret(
    options: Sequence[OptionFacts],
    prefs: RankingPrefs,
    futures: Futures,
    totals: np.ndarray,
    order: np.ndarray,
    top: int,
    other: int,
) -> Regret:
    """Return how often and by how much option ``other`` ranks ahead of ``top``."""
    both = np.isfinite(order[:, top]) & np.isfinite(order[:, other])
    # Ahead in the ranking's order: a higher sort value, or level with more pay.
    ahead = both & (
        (order[:, other] > order[:, top])
        | ((order[:, other] == order[:, top]) & (futures.money[:, other] > futures.money[:, top]))
    )
    kw = {"pairs": futures.pairs}
    # The share among futures with both on the table: a ratio of two means.
    share = float(ahead.sum() / both.sum()) if both.any() else 0.0
    ratio_se = 0.0
    if both.any():
        _, ahead_se = estimate_mean(
            (ahead.astype(np.float64) - share * both) / max(both.mean(), 1e-12),
            **kw,  # type: ignore[arg-type]
        )
        ratio_se = float(ahead_se)
    gap = (totals[:, other] - totals[:, top])[ahead]
    points = 100.0 * gap
    raw, _excluded = ranking_inputs(options, prefs)
    money_gap: np.ndarray | None = None
    comp_weight = np.array([raw.get(c.key, 0.0) if c.reads_best_comp else 0.0 for c in REGISTRY])
    all_weights = np.array([raw[c.key] for c in REGISTRY])
    if futures.weight_factors is not None:
        comp_share = (futures.weight_factors * comp_weight).sum(1) / np.maximum(
            (futures.weight_factors * all_weights).sum(1), 1e-300
        )
    else:
        comp_share = np.full(futures.count, comp_weight.sum() / max(all_weights.sum(), 1e-300))
    if comp_weight.sum() > 0 and points.size:
        # A point of total is worth best_pay / w_comp of pay (ranking.money_value_of_weight).
        best = np.where(np.isfinite(order), futures.money, -np.inf).max(axis=1)[ahead]
        money_gap = gap / comp_share[ahead] * np.maximum(best, 0.0)

    def pct(values: np.ndarray | None, q: float) -> float | None:
        return float(np.percentile(values, q)) if values is not None and values.size else None

    return Regret(
        top_key=options[top].key,
        other_key=options[other].key,
        other_better=Estimate(share, ratio_se),
        points_median=pct(points, 50),
        points_p90=pct(points, 90),
        money_median=pct(money_gap, 50),
        money_p90=pct(money_gap, 90),
    )


def certainty_equivalent(
    values: np.ndarray, risk_aversion: float, *, pairs: bool = False
) -> Estimate | None:
    """Return the sure amount worth as much as the uncertain ``values`` to a risk-averse person.

    Constant relative risk aversion ``g``: the amount whose utility equals the mean utility,
    ``(mean W^(1-g))^(1/(1-g))`` (``exp(mean ln W)`` at g = 1); at g = 0 it is the mean.
    None when a value is not positive (the utility is not defined there). The standard error
    follows from the mean utility's by the delta method.
    """
    if not math.isfinite(risk_aversion) or risk_aversion < 0:
        raise LogicInputError("risk_aversion", "risk aversion must be 0 or more")
    w = np.asarray(values, dtype=np.float64)
    if w.ndim != 1 or w.size < 2:
        raise LogicInputError("values", "one value per future, at least two")
    if risk_aversion == 0:
        mean, se = estimate_mean(w, pairs=pairs)
        return Estimate(float(mean), float(se))
    if (w <= 0).any():
        return None
    scale = float(np.exp(np.log(w).mean()))  # keeps powers of large amounts in range
    x = w / scale
    if risk_aversion == 1:
        m, m_se = estimate_mean(np.log(x), pairs=pairs)
        ce = math.exp(float(m))
        return Estimate(scale * ce, scale * ce * float(m_se))
    power = 1.0 - risk_aversion
    m, m_se = estimate_mean(x**power, pairs=pairs)
    ce = float(m) ** (1.0 / power)
    slope = abs(ce / (power * float(m)))
    return Estimate(scale * ce, scale * slope * float(m_se))


def job_loss_values(
    yearly: np.ndarray,
    chances: np.ndarray,
    severance: np.ndarray,
    groups: np.ndarray,
    rng: np.random.Generator,
    *,
    pairs: bool,
) -> np.ndarray:
    """Return each future's window value when a job can end in it, shaped (futures, options).

    ``yearly`` (futures, options, years) are the values by window year, ``chances`` (options,)
    each job's yearly chance of ending, ``severance`` (options, years) what ending in a window
    year pays. A job ends at a time drawn at a constant rate (it lasts a year with
    probability 1 - chance): the year it ends counts the share of it worked and its severance,
    the years after nothing (pay stops, unvested stock is lost). Options of one ``groups``
    entry (one employer: staying and a transfer) end at the same moment. With ``pairs`` the
    draws are antithetic twins (u, 1 - u) as the futures are.
    """
    futures, n, years = yearly.shape
    u = rng.random((futures // 2 if pairs else futures, int(groups.max()) + 1))
    u = np.concatenate([u, 1.0 - u]) if pairs else u
    rate = -np.log1p(-np.clip(chances, 0.0, 0.999))
    with np.errstate(divide="ignore"):
        ends = np.where(rate > 0, -np.log(u[:, groups]) / np.where(rate > 0, rate, 1.0), np.inf)
    worked = np.clip(ends[..., None] - np.arange(years), 0.0, 1.0)
    year = np.minimum(np.floor(ends), years).astype(np.intp)  # `years`: not within the window
    paid = np.concatenate([severance, np.zeros((n, 1))], axis=1)[np.arange(n), year]
    return np.asarray((yearly * worked).sum(axis=-1) + paid)


def largest_stock_share(stock_values: dict[str, float], total: float) -> tuple[str, float] | None:
    """Return the stock holding the largest share of an option's value, and that share."""
    if total <= 0 or not stock_values:
        return None
    name, value = max(stock_values.items(), key=lambda item: item[1])
    return name, max(0.0, value) / total
