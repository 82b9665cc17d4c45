from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from offers.logic.criteria import CRITERIA as REGISTRY
from offers.logic.criteria import ScoreContext
from offers.logic.errors import LogicInputError
from offers.logic.ranking import (
    CRITERIA,
    OptionFacts,
    RankingPrefs,
    RankProbe,
    flip_ask,
    flip_blocker,
    money_value_of_weight,
    rank_options,
)
from offers.logic.sensitivity import weight_sensitivity

# Illustrative figures for the first user (home currency USD, 4-year horizon).
META = OptionFacts(
    key="meta",
    name="Meta E5",
    kind="external",
    comp_value=1_600_000,
    first_year_total=420_000,
    remote_weeks_allowed=0,
    remote_policy="3 days a week in office",
    overlap_hours=0.5,
    level_order=5,
    target_level_order=6,
    relocation_required=True,
    scope=4,
    growth=4,
    team=3,
    learning=4,
)
GOOGLE = OptionFacts(
    key="google",
    name="Google L5",
    kind="external",
    comp_value=1_500_000,
    first_year_total=400_000,
    remote_weeks_allowed=4,
    remote_policy="hybrid, 4 work-from-anywhere weeks",
    overlap_hours=0.5,
    level_order=5,
    target_level_order=5,
    relocation_required=True,
    scope=3,
    growth=3,
    team=4,
    learning=3,
)
TIKTOK = OptionFacts(
    key="tiktok",
    name="TikTok (Asia hours)",
    kind="external",
    comp_value=1_300_000,
    first_year_total=380_000,
    remote_weeks_allowed=52,
    remote_policy="remote from Asia",
    overlap_hours=8,
    level_order=5,
    target_level_order=5,
    scope=4,
    growth=4,
    team=3,
    learning=4,
)
TRANSFER = OptionFacts(
    key="transfer",
    name="Internal transfer",
    kind="internal",
    comp_value=1_400_000,
    first_year_total=390_000,
    remote_weeks_allowed=52,
    remote_policy="remote",
    overlap_hours=3,
    level_order=5,
    target_level_order=5,
    scope=3,
    growth=3,
    team=4,
    learning=3,
)
STAY = OptionFacts(
    key="stay",
    name="Stay",
    kind="stay",
    comp_value=1_350_000,
    first_year_total=370_000,
    remote_weeks_allowed=10,
    remote_policy="hybrid",
    overlap_hours=0.5,
    scope=2,
    growth=2,
    team=4,
    learning=2,
)
OPTIONS = [META, GOOGLE, TIKTOK, TRANSFER, STAY]
WEIGHTS = {
    "comp": 3,
    "remote": 5,
    "timezone": 4,
    "level": 1,
    "scope": 1,
    "growth": 1,
    "team": 1,
    "learning": 1,
}
PREFS = RankingPrefs(weights=WEIGHTS, required_remote_weeks=26, relocation_ok=False)
OPEN_PREFS = RankingPrefs(weights=WEIGHTS, required_remote_weeks=0, relocation_ok=True)


def by_key(ranking):
    return {r.key: r for r in ranking}


def test_scores_by_hand():
    ranked = by_key(rank_options(OPTIONS, PREFS))
    meta, tiktok, stay = ranked["meta"], ranked["tiktok"], ranked["stay"]
    assert meta.criteria["comp"].score == 1.0
    assert tiktok.criteria["comp"].score == pytest.approx(1_300_000 / 1_600_000)
    assert meta.criteria["remote"].score == 0.0
    assert stay.criteria["remote"].score == pytest.approx(10 / 26)
    assert tiktok.criteria["remote"].score == 1.0
    assert tiktok.criteria["timezone"].score == 1.0
    assert meta.criteria["timezone"].score == pytest.approx(0.5 / 8)
    assert meta.criteria["level"].score == 0.75
    assert "1 level below" in meta.criteria["level"].explanation
    assert stay.criteria["level"].score == 1.0
    assert "unknown" in stay.criteria["level"].explanation
    assert meta.criteria["scope"].score == 0.75
    assert stay.criteria["scope"].score == 0.25
    assert (
        "10 remote weeks a year allowed (hybrid); you need 26"
        in stay.criteria["remote"].explanation
    )
    assert meta.criteria["comp"].figures["best_comp_value"] == 1_600_000


def test_weights_are_normalised_and_contributions_sum_to_total():
    for ranked in rank_options(OPTIONS, PREFS):
        weights = [c.weight for c in ranked.criteria.values()]
        assert sum(weights) == pytest.approx(1.0)
        assert ranked.criteria["remote"].weight == pytest.approx(5 / 17)
        assert sum(c.contribution for c in ranked.criteria.values()) == pytest.approx(ranked.total)
        assert 0.0 <= ranked.total <= 1.0
    doubled = RankingPrefs(weights={k: 2 * v for k, v in WEIGHTS.items()}, required_remote_weeks=26)
    same = RankingPrefs(weights=WEIGHTS, required_remote_weeks=26)
    assert [r.total for r in rank_options(OPTIONS, doubled)] == pytest.approx(
        [r.total for r in rank_options(OPTIONS, same)]
    )


def test_missing_rating_is_neutral_and_explained():
    ranked = by_key(rank_options([replace(STAY, team=None), TIKTOK], PREFS))
    assert ranked["stay"].criteria["team"].score == 0.5
    assert "neutral" in ranked["stay"].criteria["team"].explanation


def test_level_penalty_floors_at_zero():
    far_below = replace(TIKTOK, level_order=1, target_level_order=6)
    two_below = replace(TIKTOK, key="two", level_order=4, target_level_order=6)
    above = replace(TIKTOK, key="above", level_order=7, target_level_order=6)
    ranked = by_key(rank_options([far_below, two_below, above], PREFS))
    assert ranked["tiktok"].criteria["level"].score == 0.0
    assert ranked["two"].criteria["level"].score == 0.5
    assert ranked["above"].criteria["level"].score == 1.0


def test_remote_is_full_when_nothing_required_and_comp_zero_when_not_positive():
    broke = replace(STAY, comp_value=-5)
    ranked = by_key(rank_options([META, broke], OPEN_PREFS))
    assert ranked["meta"].criteria["remote"].score == 1.0
    assert ranked["stay"].criteria["comp"].score == 0.0


def test_hard_constraints_exclude_but_keep_options_ranked_last():
    prefs = replace(PREFS, min_first_year_total=375_000)
    ranking = rank_options(OPTIONS, prefs)
    assert [r.key for r in ranking[:2]] == ["tiktok", "transfer"]
    assert all(r.excluded for r in ranking[2:])
    assert [r.rank for r in ranking] == [1, 2, 3, 4, 5]
    ranked = by_key(ranking)
    assert ranked["meta"].exclusion_reasons == (
        "allows 0 remote weeks a year; you need 26",
        "requires relocation; you said you cannot relocate",
    )
    assert "first-year total USD 370,000 is below your minimum of USD 375,000" in (
        ranked["stay"].exclusion_reasons
    )
    # Excluded options rank last even when their total is higher.
    assert max(r.total for r in ranking[2:]) > 0 and not ranked["transfer"].excluded


def test_excluded_with_higher_total_still_ranks_after():
    rich = replace(META, remote_weeks_allowed=25, overlap_hours=8, relocation_required=False)
    ranking = rank_options([rich, TRANSFER], PREFS)
    assert ranking[0].key == "transfer"
    assert ranking[1].total > ranking[0].total and ranking[1].excluded


def test_ranking_is_stable_under_reordering():
    expected = [(r.key, r.rank, r.total) for r in rank_options(OPTIONS, PREFS)]
    for order in itertools.permutations(OPTIONS):
        assert [(r.key, r.rank, r.total) for r in rank_options(list(order), PREFS)] == expected


def test_ties_break_by_comp_value_then_key():
    prefs = RankingPrefs(weights={"remote": 1})
    a = replace(TIKTOK, key="b", comp_value=100)
    b = replace(TIKTOK, key="a", comp_value=100)
    c = replace(TIKTOK, key="c", comp_value=200)
    assert [r.key for r in rank_options([a, b, c], prefs)] == ["c", "a", "b"]


def test_zero_weights_rank_by_comp_value():
    prefs = RankingPrefs(weights={})
    ranking = rank_options(OPTIONS, prefs)
    assert all(r.total == 0 for r in ranking)
    assert ranking[0].key == "meta"


@pytest.mark.parametrize(
    ("weights", "field"),
    [({"comp": -1}, "weights"), ({"salary": 1}, "weights"), ({"comp": float("nan")}, "weights")],
)
def test_bad_weights_raise(weights, field):
    with pytest.raises(LogicInputError) as info:
        rank_options(OPTIONS, RankingPrefs(weights=weights))
    assert info.value.field == field


def test_bad_options_raise():
    with pytest.raises(LogicInputError):
        rank_options([META, META], PREFS)
    with pytest.raises(LogicInputError):
        rank_options([], PREFS)
    with pytest.raises(LogicInputError) as info:
        rank_options([replace(META, scope=6)], PREFS)
    assert info.value.field == "scope"
    with pytest.raises(LogicInputError) as info:
        rank_options([replace(META, kind="dream")], PREFS)
    assert info.value.field == "kind"


def with_weight(prefs, criterion, weight):
    return replace(prefs, weights={**prefs.weights, criterion: weight})


def top(options, prefs):
    return rank_options(options, prefs)[0].key


def clear_top(options, prefs, noise=1e-9):
    """Return False when the top two totals tie up to float noise (no top to speak of)."""
    ranked = [r for r in rank_options(options, prefs) if not r.excluded]
    return len(ranked) < 2 or ranked[0].total - ranked[1].total > noise


def first_or_tied(options, prefs, key, noise=1e-13):
    """Return whether `key` ranks first, or ties the first option's total up to float noise.

    Totals equal in exact arithmetic can differ in their last bit, and then the rounding, not
    the tie-break by pay, decides which of the two ranks first, one weight to the next.
    Past a bound by eps, two options the weight separates differ by more than 1e-12 in this
    file's figures (scores step by 1/2000 at least, weights sum to under 100): noise is 1e-16.
    """
    ranked = rank_options(options, prefs)
    mine = next(r for r in ranked if r.key == key)
    return mine.excluded == ranked[0].excluded and ranked[0].total - mine.total <= noise


def assert_ranges_hold(options, prefs, eps=1e-6):
    sens = weight_sensitivity(options, prefs)
    assert sens.top_key == top(options, prefs)
    for criterion, weight_range in sens.ranges.items():
        assert weight_range.low <= weight_range.current <= weight_range.high
        if not weight_range.high_is_limit:
            high = weight_range.high
            past = with_weight(prefs, criterion, high + eps * max(1.0, high))
            assert weight_range.top_above_high != sens.top_key
            assert first_or_tied(options, past, weight_range.top_above_high)
            if high - eps * max(1.0, high) > weight_range.current:
                short = with_weight(prefs, criterion, high - eps * max(1.0, high))
                assert top(options, short) == sens.top_key or not clear_top(options, short)
        if not weight_range.low_is_limit:
            low = weight_range.low
            past = with_weight(prefs, criterion, low - eps * max(1.0, low))
            assert weight_range.top_below_low != sens.top_key
            assert first_or_tied(options, past, weight_range.top_below_low)
            if low + eps * max(1.0, low) < weight_range.current:
                short = with_weight(prefs, criterion, low + eps * max(1.0, low))
                assert top(options, short) == sens.top_key or not clear_top(options, short)
    return sens


def test_sensitivity_for_the_first_user():
    sens = assert_ranges_hold(OPTIONS, PREFS)
    assert sens.top_key == "tiktok"
    # Remote: both non-excluded options score 1, so no remote weight changes the top.
    assert sens.ranges["remote"].high_is_limit and sens.ranges["remote"].low_is_limit
    # Team by hand: TikTok minus transfer on the other criteria is
    # 3*(13/16 - 14/16) + 4*(1 - 3/8) + (0.75-0.5)*3 = 3.0625; team differs by -0.25,
    # so the top changes once the team weight passes 3.0625 / 0.25 = 12.25.
    assert sens.ranges["team"].high == pytest.approx(12.25)
    assert sens.ranges["team"].top_above_high == "transfer"


def test_sensitivity_with_a_lower_bound():
    prefs = RankingPrefs(weights={"comp": 1, "timezone": 1})
    sens = assert_ranges_hold([META, TIKTOK], prefs)
    # TikTok - Meta = -3/16 * w_comp + 15/16 * w_timezone: TikTok leads while the
    # timezone weight is above 0.2 (comp weight 1) or the comp weight below 5.
    assert sens.top_key == "tiktok"
    assert sens.ranges["timezone"].low == pytest.approx(0.2)
    assert sens.ranges["timezone"].top_below_low == "meta"
    assert sens.ranges["comp"].high == pytest.approx(5.0)


def test_sensitivity_with_a_single_option():
    sens = weight_sensitivity([META], PREFS)
    assert sens.top_key == "meta" and sens.unmoved


def test_sensitivity_bounds_on_three_criteria():
    near = replace(TIKTOK, key="near", overlap_hours=2, scope=4, team=5)
    far = replace(TIKTOK, key="far", overlap_hours=8, scope=3, team=2)
    prefs = RankingPrefs(weights={"timezone": 1, "scope": 2})
    sens = assert_ranges_hold([near, far], prefs)
    # far - near = 0.75 w_timezone - 0.25 w_scope - 0.75 w_team = 0.75 - 0.5 - 0 > 0 now.
    # It turns at w_timezone = 0.5 / 0.75 = 2/3, w_scope = 0.75 / 0.25 = 3 and
    # w_team = 0.25 / 0.75 = 1/3.
    assert sens.top_key == "far"
    assert sens.ranges["timezone"].low == pytest.approx(2 / 3)
    assert sens.ranges["timezone"].top_below_low == "near"
    assert sens.ranges["scope"].high == pytest.approx(3)
    assert sens.ranges["team"].high == pytest.approx(1 / 3)


option_strategy = st.builds(
    OptionFacts,
    key=st.just("x"),
    name=st.just("x"),
    kind=st.just("external"),
    comp_value=st.integers(min_value=100, max_value=2_000).map(float),
    first_year_total=st.just(100.0),
    remote_weeks_allowed=st.integers(min_value=0, max_value=52).map(float),
    remote_policy=st.just(""),
    overlap_hours=st.integers(min_value=0, max_value=8).map(float),
    scope=st.integers(min_value=1, max_value=5),
    team=st.integers(min_value=1, max_value=5),
)


def _facts(comp_value, overlap_hours, team, scope=1, remote_weeks=0.0):
    """An option as option_strategy draws it (key and name are renamed by the test)."""
    return OptionFacts(
        key="x",
        name="x",
        kind="external",
        comp_value=comp_value,
        first_year_total=100.0,
        remote_weeks_allowed=remote_weeks,
        remote_policy="",
        overlap_hours=overlap_hours,
        scope=scope,
        team=team,
    )


@settings(max_examples=60, deadline=None)
@given(
    options=st.lists(option_strategy, min_size=2, max_size=4),
    weights=st.lists(
        st.integers(min_value=0, max_value=10), min_size=len(CRITERIA), max_size=len(CRITERIA)
    ),
)
# Found by hypothesis: o1 tops o2 until the pay weight passes 0.375 / (3/941) = 117.625 (o1 is
# 3/8 ahead on time zone, 3/941 behind on pay). The same crossing computed a second way came
# out 3e-12 above the bound, so the probe past the bound landed in the crossing's float noise,
# where o1 still ranked first, and the range named the top its own successor.
@example(
    options=[_facts(100.0, 0.0, 1), _facts(938.0, 3.0, 5), _facts(941.0, 0.0, 5)],
    weights=[3, 9, 1, 0, 6, 10, 10, 10],
)
# o1, o2, o3 tie exactly (5.25 / 7) at these weights and o1, o2 at every team weight below;
# the totals' last bit, not the tie-break by pay, decides which of the two ranks first.
@example(
    options=[
        _facts(637.0, 2.0, 2, scope=3, remote_weeks=32.0),
        _facts(817.0, 6.0, 2, scope=4, remote_weeks=50.0),
        _facts(1149.0, 4.0, 2, scope=5, remote_weeks=40.0),
        _facts(1007.0, 7.0, 3, scope=3, remote_weeks=36.0),
    ],
    weights=[0, 0, 2, 2, 2, 0, 1, 0],
)
def test_sensitivity_thresholds_really_flip(options, weights):
    options = [replace(o, key=f"o{i}", name=f"o{i}") for i, o in enumerate(options)]
    assume(sum(weights) > 0)
    prefs = RankingPrefs(weights=dict(zip(CRITERIA, map(float, weights))))
    assert_ranges_hold(options, prefs)


def test_flip_ask_smallest_ask_flips_and_one_step_less_does_not():
    prefs = RankingPrefs(weights={"comp": 3, "timezone": 1, "remote": 1}, required_remote_weeks=0)
    options = [META, TRANSFER]
    assert top(options, prefs) == "meta"
    ask = flip_ask(options, prefs, "transfer", gain_per_unit=4.0, resolution=100.0)
    assert ask is not None
    assert ask % 100 == 0
    after = [replace(TRANSFER, comp_value=TRANSFER.comp_value + ask * 4.0), META]
    assert top(after, prefs) == "transfer"
    before = [replace(TRANSFER, comp_value=TRANSFER.comp_value + (ask - 100) * 4.0), META]
    assert top(before, prefs) == "meta"


def test_flip_ask_against_a_rival_and_when_already_first():
    prefs = RankingPrefs(weights={"comp": 1})
    options = [META, GOOGLE, STAY]
    ask = flip_ask(options, prefs, "stay", 1.0, rival_key="google", resolution=1000)
    # Stay must pass 1,500,000 (ties go to the higher comp value, so strictly above).
    assert ask == 151_000
    after = [META, GOOGLE, replace(STAY, comp_value=STAY.comp_value + ask)]
    assert [r.key for r in rank_options(after, prefs)][:2] == ["meta", "stay"]
    assert flip_ask(options, prefs, "meta", 1.0) == 0


def test_flip_ask_lifts_a_first_year_exclusion():
    prefs = RankingPrefs(weights={"comp": 1, "timezone": 5}, min_first_year_total=400_000)
    options = [TRANSFER, META]
    assert top(options, prefs) == "meta"
    ask = flip_ask(options, prefs, "transfer", gain_per_unit=1.0, first_year_gain_per_unit=1.0)
    assert ask == 10_000
    assert flip_ask(options, prefs, "transfer", gain_per_unit=1.0) is None


def test_flip_ask_none_when_excluded_by_a_non_money_constraint():
    assert flip_ask(OPTIONS, PREFS, "meta", 4.0) is None
    reason = flip_blocker(OPTIONS, PREFS, "meta")
    assert reason is not None
    assert "allows 0 remote weeks a year; you need 26" in reason
    assert flip_blocker(OPTIONS, PREFS, "transfer") is None
    assert flip_blocker(OPTIONS, OPEN_PREFS, "meta") is None


def test_flip_ask_none_when_money_saturates():
    # Pay scores at most 1, so no ask makes the transfer beat TikTok under these weights.
    assert flip_ask(OPTIONS, PREFS, "transfer", 4.0) is None


def test_flip_ask_bad_input():
    with pytest.raises(LogicInputError):
        flip_ask(OPTIONS, PREFS, "nope", 1.0)
    with pytest.raises(LogicInputError):
        flip_ask(OPTIONS, PREFS, "meta", 0.0)
    with pytest.raises(LogicInputError):
        flip_ask(OPTIONS, PREFS, "meta", 1.0, rival_key="meta")


def test_money_value_of_weight_by_hand():
    value = money_value_of_weight(OPTIONS, PREFS, "remote", "stay")
    assert value.amount == pytest.approx(5 / 3 * 1_600_000)
    assert value.currency == "USD"
    assert "remote" in value.explanation
    # Same effect on the total: remote +0.01 point vs comp_value + 0.01 * amount.
    base = by_key(rank_options(OPTIONS, OPEN_PREFS))["stay"].total
    richer = [replace(STAY, comp_value=STAY.comp_value + 0.01 * value.amount)] + OPTIONS[:4]
    richer_total = by_key(rank_options(richer, OPEN_PREFS))["stay"].total
    assert richer_total - base == pytest.approx(0.01 * 5 / 17)


def test_money_value_of_weight_without_comp_weight():
    prefs = RankingPrefs(weights={"remote": 1})
    assert money_value_of_weight(OPTIONS, prefs, "remote", "meta").amount is None
    with pytest.raises(LogicInputError):
        money_value_of_weight(OPTIONS, prefs, "salary", "meta")


@settings(max_examples=80, deadline=None)
@given(
    options=st.lists(option_strategy, min_size=2, max_size=5),
    weights=st.lists(
        st.integers(min_value=0, max_value=10), min_size=len(CRITERIA), max_size=len(CRITERIA)
    ),
    values=st.lists(st.integers(min_value=0, max_value=4_000).map(float), min_size=1, max_size=6),
    remote=st.integers(min_value=0, max_value=52).map(float),
    minimum=st.one_of(st.none(), st.integers(min_value=0, max_value=300).map(float)),
)
def test_rank_probe_equals_a_full_ranking(options, weights, values, remote, minimum):
    """The bisections' probe ranks exactly as rank_options, whatever the trial changes."""
    options = [replace(o, key=f"o{i}", name=f"o{i}") for i, o in enumerate(options)]
    prefs = RankingPrefs(
        weights=dict(zip(CRITERIA, map(float, weights))),
        required_remote_weeks=remote,
        min_first_year_total=minimum,
    )
    target, others = options[0], options[1:]
    probe = RankProbe(others, prefs)

    def full_rank(trial, key):
        return next(r.rank for r in rank_options([*others, trial], prefs) if r.key == key)

    for value in values:  # the best pay changes between probes and back
        for trial in (
            replace(target, comp_value=value),
            # the walk-away's later stages: the remote weeks it needs granted
            replace(target, comp_value=value, remote_weeks_allowed=remote),
            # the money flip: the first-year total rises with the ask
            replace(target, comp_value=value, first_year_total=value / 10),
        ):
            assert probe.rank(trial) == full_rank(trial, "o0")
            assert probe.ahead_of(trial, "o1") == (full_rank(trial, "o0") < full_rank(trial, "o1"))


@pytest.mark.parametrize("criterion", REGISTRY, ids=lambda c: c.key)
def test_only_criteria_declaring_it_read_the_best_pay(criterion):
    """A scorer that reads ScoreContext.best_comp must say so (the probe relies on it)."""
    prefs = RankingPrefs(weights={}, required_remote_weeks=4)
    by_best = {
        best: [
            criterion.score(option, ScoreContext(prefs=prefs, best_comp=best)).score
            for option in (META, GOOGLE, TIKTOK, STAY)
        ]
        for best in (1_700_000.0, 3_400_000.0)
    }
    assert (by_best[1_700_000.0] != by_best[3_400_000.0]) == criterion.reads_best_comp


def test_rank_probe_refuses_a_trial_rank_options_would_refuse():
    probe = RankProbe([META, GOOGLE], RankingPrefs(weights={"comp": 1}))
    with pytest.raises(LogicInputError, match="unique"):
        probe.rank(replace(TIKTOK, key="meta"))
    with pytest.raises(LogicInputError, match="finite"):
        probe.rank(replace(TIKTOK, comp_value=float("nan")))
    assert probe.rank(TIKTOK) == next(
        r.rank for r in rank_options([META, GOOGLE, TIKTOK], probe.prefs) if r.key == "tiktok"
    )
