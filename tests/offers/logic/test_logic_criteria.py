"""The ranking-criteria registry: well formed, and the ranking reads it instead of a list of its own."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from offers.logic import criteria, ranking
from offers.logic.criteria import (
    BY_KEY,
    CRITERIA,
    KEYS,
    RATINGS,
    OptionFacts,
    RankingPrefs,
    ScoreContext,
)
from offers.logic.errors import LogicInputError
from offers.logic.sensitivity import weight_sensitivity

OPTION = OptionFacts(
    key="a",
    name="A",
    kind="external",
    comp_value=900.0,
    first_year_total=300.0,
    remote_weeks_allowed=4,
    remote_policy="hybrid",
    overlap_hours=2,
    level_order=4,
    target_level_order=5,
    scope=5,
    growth=1,
    team=None,
    learning=3,
)
OTHER = dataclasses.replace(OPTION, key="b", name="B", comp_value=1_000.0)
PREFS = RankingPrefs(weights={"comp": 1.0}, required_remote_weeks=8)


def test_keys_and_field_names_are_unique_identifiers():
    assert len(set(KEYS)) == len(CRITERIA) == len(BY_KEY)
    for criterion in CRITERIA:
        assert criterion.key.isidentifier() and criterion.key.islower()
        assert criterion.weight_field == f"weight_{criterion.key}"
        assert criterion.rating_field == f"rating_{criterion.key}"
        assert Decimal("0") <= criterion.default_weight <= Decimal("10")
        assert criterion.label and criterion.noun and criterion.weight_label
    assert set(KEYS) >= {"comp", "remote", "timezone", "level"}


def test_every_rating_criterion_has_its_fact_on_option_facts():
    fields = {f.name: f for f in dataclasses.fields(OptionFacts)}
    for criterion in RATINGS:
        assert criterion.key in fields, f"OptionFacts needs a field {criterion.key!r}"
        assert fields[criterion.key].default is None
        assert criterion.rating_label and "(1-5)" in criterion.rating_label
    for criterion in CRITERIA:
        if not criterion.is_rating:
            assert criterion.rating_label is None


def test_every_criterion_scores_between_zero_and_one_with_an_explanation():
    context = ScoreContext(prefs=PREFS, best_comp=1_000.0)
    for criterion in CRITERIA:
        scored = criterion.score(OPTION, context)
        assert 0.0 <= scored.score <= 1.0, criterion.key
        assert scored.explanation.strip(), criterion.key
        assert isinstance(scored.figures, dict)


def test_rating_scores_are_linear_and_missing_is_neutral():
    context = ScoreContext(prefs=PREFS, best_comp=1_000.0)
    assert BY_KEY["scope"].score(OPTION, context).score == 1.0
    assert BY_KEY["growth"].score(OPTION, context).score == 0.0
    assert BY_KEY["learning"].score(OPTION, context).score == 0.5
    team = BY_KEY["team"].score(OPTION, context)
    assert team.score == 0.5 and "no team rating" in team.explanation
    assert BY_KEY["level"].score(OPTION, context).score == 0.75


def test_the_ranking_scores_exactly_the_registry_in_its_order():
    assert ranking.CRITERIA == KEYS
    for ranked in ranking.rank_options([OPTION, OTHER], PREFS):
        assert tuple(ranked.criteria) == KEYS
    sensitivity = weight_sensitivity([OPTION, OTHER], PREFS)
    assert tuple(sensitivity.ranges) == KEYS


def test_the_ranking_score_is_the_registry_score():
    context = ScoreContext(prefs=PREFS, best_comp=1_000.0)
    ranked = {r.key: r for r in ranking.rank_options([OPTION, OTHER], PREFS)}["a"]
    for criterion in CRITERIA:
        expected = criterion.score(OPTION, context)
        assert ranked.criteria[criterion.key].score == expected.score
        assert ranked.criteria[criterion.key].explanation == expected.explanation


def test_unknown_weight_names_the_registry_keys():
    with pytest.raises(LogicInputError) as info:
        ranking.rank_options([OPTION], RankingPrefs(weights={"commute": 1.0}))
    assert info.value.field == "weights" and "learning" in str(info.value)


def test_every_rating_is_validated():
    for criterion in RATINGS:
        with pytest.raises(LogicInputError) as info:
            ranking.rank_options([dataclasses.replace(OPTION, **{criterion.key: 0})], PREFS)
        assert info.value.field == criterion.key


def test_labels_fall_back_to_the_key_when_unknown():
    assert criteria.label("comp") == "Compensation"
    assert criteria.noun("comp") == "comp"
    assert criteria.label("commute") == "commute"
    assert criteria.noun("commute") == "commute"
