"""The chance each option is the right choice (offers.logic.choice), on constructed futures."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from offers.logic.choice import (
    NO_OPTION,
    Futures,
    certainty_equivalent,
    choice_chances,
    estimate_mean,
    weight_factors,
    winners,
)
from offers.logic.criteria import CRITERIA as REGISTRY
from offers.logic.criteria import comp_shares
from offers.logic.errors import LogicInputError
from offers.logic.ranking import OptionFacts, RankingPrefs, rank_options

PREFS = RankingPrefs(
    weights={c.key: float(c.default_weight) for c in REGISTRY}, required_remote_weeks=8
)
MONEY_ONLY = RankingPrefs(weights={"comp": 1.0})


def option(key: str, **kw: object) -> OptionFacts:
    """Return an option with middling facts; ``kw`` overrides them."""
    facts: dict[str, object] = {
        "key": key,
        "name": key.title(),
        "kind": "external",
        "comp_value": 1_000_000.0,
        "first_year_total": 250_000.0,
        "remote_weeks_allowed": 4.0,
        "remote_policy": "hybrid",
        "overlap_hours": 4.0,
        "scope": 3,
        "growth": 3,
        "team": 3,
        "learning": 3,
    }
    facts.update(kw)
    return OptionFacts(**facts)  # type: ignore[arg-type]


def lognormal_money(rng: np.random.Generator, n: int, centres: list[float]) -> np.ndarray:
    """Return (n, options) money values spread around each centre (30 % volatility)."""
    z = rng.standard_normal((n, len(centres)))
    return np.asarray(centres) * np.exp(0.3 * z - 0.045)


def test_dominating_option_is_always_best() -> None:
    rng = np.random.default_rng(1)
    good = option("good", remote_weeks_allowed=20, overlap_hours=8, scope=5, growth=5, team=5)
    poor = option("poor", remote_weeks_allowed=2, overlap_hours=1, scope=1, growth=1, team=1)
    money = lognormal_money(rng, 4000, [1.0e6, 0.9e6])
    # The dominating option pays more in every future too.
    money[:, 0] = np.maximum(money[:, 0], money[:, 1] * 1.01)
    result = choice_chances([poor, good], PREFS, Futures(money=money))
    assert result.chances["good"].value == 1.0
    assert result.chances["poor"].value == 0.0
    assert result.regret is not None and result.regret.other_better.value == 0.0


def test_options_identical_up_to_a_swap_have_equal_chances() -> None:
    rng = np.random.default_rng(2)
    a = option("a", remote_weeks_allowed=12, scope=4, growth=2)
    b = option("b", remote_weeks_allowed=12, scope=2, growth=4)  # growth and scope swapped
    money = lognormal_money(rng, 20_000, [1.0e6, 1.0e6])
    result = choice_chances([a, b], PREFS, Futures(money=money))
    ca, cb = result.chances["a"], result.chances["b"]
    assert ca.value + cb.value == pytest.approx(1.0)
    assert abs(ca.value - cb.value) <= 3 * (ca.se + cb.se)
    assert 0.45 < ca.value < 0.55  # not trivially equal: each wins about half the futures


def test_money_only_weights_give_the_simulated_chance_of_beating() -> None:
    rng = np.random.default_rng(3)
    money = lognormal_money(rng, 10_000, [1.1e6, 1.0e6])
    a, b = option("a", scope=1), option("b", scope=5)  # other criteria carry no weight
    result = choice_chances([a, b], MONEY_ONLY, Futures(money=money))
    # P(A beats B) as the window Monte Carlo counts it (summarise_paths: a > b, path by path).
    assert result.chances["a"].value == pytest.approx(float((money[:, 0] > money[:, 1]).mean()))
    assert 0.55 < result.chances["a"].value < 0.75


def test_option_with_probability_zero_is_never_best() -> None:
    rng = np.random.default_rng(4)
    star = option("star", remote_weeks_allowed=30, overlap_hours=8, scope=5)
    money = lognormal_money(rng, 4000, [2.0e6, 1.0e6, 1.0e6])
    exists = np.ones(money.shape, dtype=bool)
    exists[:, 0] = rng.random(len(money)) < 0.0  # in process, offer probability 0
    result = choice_chances(
        [star, option("x"), option("y", scope=4)], PREFS, Futures(money=money, exists=exists)
    )
    assert result.chances["star"].value == 0.0
    assert result.chances["x"].value + result.chances["y"].value == pytest.approx(1.0)
    # At probability 0.5 the star wins exactly the futures in which it is an offer.
    exists[:, 0] = rng.random(len(money)) < 0.5
    again = winners([star, option("x"), option("y")], PREFS, Futures(money=money, exists=exists))
    assert ((again == 0) == exists[:, 0]).all()


def test_no_option_on_the_table() -> None:
    money = np.ones((4, 1)) * 1e6
    exists = np.array([[True], [False], [True], [False]])
    result = choice_chances([option("a")], PREFS, Futures(money=money, exists=exists))
    assert result.chances["a"].value == 0.5
    assert (
        winners([option("a")], PREFS, Futures(money=money, exists=exists)) == [0, -1, 0, -1]
    ).all()
    assert NO_OPTION == -1


def test_each_future_ranks_as_the_ranking_does() -> None:
    """The winner of a future is rank_options' first with that future's pay."""
    rng = np.random.default_rng(5)
    options = [
        option("meta", remote_weeks_allowed=4, overlap_hours=1.5, scope=4),
        option("stay", kind="stay", remote_weeks_allowed=12, overlap_hours=3, growth=2),
        option("tiktok", remote_weeks_allowed=10, overlap_hours=8, relocation_required=True),
        option("far", remote_weeks_allowed=2, overlap_hours=0, first_year_total=90_000),
    ]
    prefs = replace(PREFS, min_first_year_total=100_000)  # "far" breaks it: ranked last
    money = lognormal_money(rng, 300, [1.6e6, 1.3e6, 1.2e6, 3.0e6])
    exists = rng.random(money.shape) < 0.8
    got = winners(options, prefs, Futures(money=money, exists=exists))
    for f in range(len(money)):
        table = [
            replace(o, comp_value=float(money[f, i])) for i, o in enumerate(options) if exists[f, i]
        ]
        want = rank_options(table, prefs)[0].key if table else None
        assert (options[got[f]].key if got[f] >= 0 else None) == want


def test_comp_shares_is_the_comp_scorer_on_arrays() -> None:
    comp = REGISTRY[0]
    values = np.array([-5.0, 0.0, 3.0, 10.0])
    for best in (-1.0, 0.0, 10.0, 20.0):
        from offers.logic.criteria import ScoreContext

        context = ScoreContext(prefs=MONEY_ONLY, best_comp=best)
        want = [comp.score(option("a", comp_value=v), context).score for v in values]
        assert comp_shares(values, np.full(4, best)).tolist() == pytest.approx(want)


def test_regret_between_the_top_two() -> None:
    # Four futures, money only: A pays more in three, B by 10 % in the fourth.
    money = np.array([[1.2e6, 1.0e6], [1.5e6, 1.0e6], [1.1e6, 1.0e6], [1.0e6, 1.1e6]])
    result = choice_chances([option("a"), option("b")], MONEY_ONLY, Futures(money=money))
    regret = result.regret
    assert regret is not None and (regret.top_key, regret.other_key) == ("a", "b")
    assert regret.other_better.value == 0.25
    # Future 4: B scores 1.0, A 1.0/1.1 = 0.9091: a gap of 9.09 points; the pay A needed to
    # draw level is the gap over the weight of pay (1) times the best pay: 0.0909 x 1.1e6
    # = 100,000 (exactly B's extra pay, as with money-only weights it must be).
    assert regret.points_median == pytest.approx(100 * (1 - 1.0 / 1.1))
    assert regret.money_median == pytest.approx(100_000)


def test_weight_uncertainty_can_change_the_winner() -> None:
    rng = np.random.default_rng(6)
    # Close call on weights alone: same money, A better on scope, B on time zone.
    a = option("a", scope=5, overlap_hours=4.4)
    b = option("b", scope=3, overlap_hours=6.2)
    money = np.full((2000, 2), 1e6)
    fixed = choice_chances([a, b], PREFS, Futures(money=money))
    unsure = choice_chances(
        [a, b],
        PREFS,
        Futures(money=money, weight_factors=weight_factors(2000, 0.5, rng, pairs=True), pairs=True),
    )
    # Scope: A ahead by (1.0 - 0.5) x 1 = 0.5; time zone: B by (6.2 - 4.4) / 8 x 2 = 0.45.
    assert fixed.chances["a"].value == 1.0
    assert 0.05 < unsure.chances["a"].value < 0.95


def test_antithetic_and_control_variate_agree_with_plain_and_cut_the_error() -> None:
    """The estimator: same mean within the errors, at most a quarter of the variance."""
    rng = np.random.default_rng(7)
    n = 20_000
    z = rng.standard_normal(n)
    price = np.exp(0.3 * z - 0.045)  # E = 1 exactly
    value = 400_000 + 600_000 * price  # a package: fixed pay plus shares at the price
    plain, plain_se = estimate_mean(value)
    half = rng.standard_normal(n // 2)
    zz = np.concatenate([half, -half])
    pp = np.exp(0.3 * zz - 0.045)
    vv = 400_000 + 600_000 * pp
    anti, anti_se = estimate_mean(vv, pairs=True, controls=pp[:, None], control_means=np.ones(1))
    assert abs(plain - anti) <= 3 * np.hypot(plain_se, anti_se)
    assert abs(anti - 1_000_000) <= 3 * anti_se + 1e-6
    # The same standard error needs (se ratio)^2 of the paths: at most a quarter.
    assert (anti_se / plain_se) ** 2 <= 0.25
    anti_only, anti_only_se = estimate_mean(vv, pairs=True)
    assert abs(anti_only - 1_000_000) <= 3 * anti_only_se
    assert anti_only_se < plain_se


def test_certainty_equivalent() -> None:
    values = np.array([100_000.0, 300_000.0] * 50)
    # Risk aversion 2: the harmonic mean, 2 / (1/100k + 1/300k) = 150,000.
    assert certainty_equivalent(values, 2.0).value == pytest.approx(150_000)  # type: ignore[union-attr]
    # Risk aversion 1: the geometric mean, sqrt(100k x 300k) = 173,205.
    assert certainty_equivalent(values, 1.0).value == pytest.approx(173_205.08, rel=1e-6)  # type: ignore[union-attr]
    assert certainty_equivalent(values, 0.0).value == pytest.approx(200_000)  # type: ignore[union-attr]
    assert certainty_equivalent(np.array([-1.0, 5.0]), 2.0) is None
    with pytest.raises(LogicInputError):
        certainty_equivalent(values, -1.0)


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(LogicInputError):
        choice_chances([option("a")], PREFS, Futures(money=np.ones((5, 2))))
    with pytest.raises(LogicInputError):
        choice_chances([option("a")], PREFS, Futures(money=np.full((5, 1), np.nan)))
    with pytest.raises(LogicInputError):
        estimate_mean(np.ones(5), pairs=True)


def test_regret_in_money_under_uncertain_weights() -> None:
    # Money only, every weight factor 2: the normalised weight of pay is still 1, so the
    # money shortfall is B's extra pay, 100,000, as with fixed weights.
    money = np.array([[1.2e6, 1.0e6], [1.0e6, 1.1e6]])
    factors = np.full((2, len(REGISTRY)), 2.0)
    result = choice_chances(
        [option("a"), option("b")], MONEY_ONLY, Futures(money=money, weight_factors=factors)
    )
    assert result.regret is not None and result.regret.money_median == pytest.approx(100_000)


def test_the_first_year_floor_is_read_in_each_future_at_the_terms_drawn() -> None:
    """An option in process drawn at factor f has its value and its first-year total x f.

    In hand: A, 1,000 and a first year of 210,000. In process: B, 1,100 and 205,000, drawn at
    f = 1 + 0.1 u, u even on [-1, 1] (twins mirrored). Floor 200,000: B breaks it when
    205,000 f < 200,000, f < 0.97561, a share (0.97561 - 0.9) / 0.2 = 37.8 % of the futures,
    and then A ranks first. Elsewhere B wins on pay (1,100 f > 1,000 for every f > 0.909):
    62.2 %. Read once, from B's own first year, the floor never broke and B won every future
    with f > 0.90909: (1.1 - 0.90909) / 0.2 = 95.5 %.
    """
    half = np.linspace(-1.0, 1.0, 2000)
    factor = 1.0 + 0.1 * np.concatenate([half, -half])
    money = np.column_stack([np.full(factor.size, 1_000.0), 1_100.0 * factor])
    first_year = np.column_stack([np.full(factor.size, 210_000.0), 205_000.0 * factor])
    options = [
        option("a", comp_value=1_000.0, first_year_total=210_000.0),
        option("b", comp_value=1_100.0, first_year_total=205_000.0),
    ]
    prefs = replace(MONEY_ONLY, min_first_year_total=200_000.0)
    drawn = choice_chances(options, prefs, Futures(money=money, first_year=first_year, pairs=True))
    assert drawn.chances["b"].value == pytest.approx(0.622, abs=0.002)
    assert drawn.chances["a"].value == pytest.approx(0.378, abs=0.002)
    fixed = choice_chances(options, prefs, Futures(money=money, pairs=True))
    assert fixed.chances["b"].value == pytest.approx(0.955, abs=0.002)
    with pytest.raises(LogicInputError, match="first_year"):
        choice_chances(options, prefs, Futures(money=money, first_year=first_year[:, :1]))
