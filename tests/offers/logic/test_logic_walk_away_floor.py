"""The walk-away point honours the first-year floor (issue 35, item 4), figures by hand.

A cut in pay lowers the first year by the same factor as the headline value, so the floor can
set the walk-away point before the ranking does; the plan then says the base that breaks the
floor on its own, found on the engine's first year (here a stand-in, piecewise linear like a
taxed first year).
"""

from __future__ import annotations

from dataclasses import replace

from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.plan_figures import WALK_AWAY_STEP, walk_away
from offers.logic.ranking import OptionFacts, RankingPrefs, rank_options
from tests.offers.logic.test_logic_plan import CTX, OFFER

FLOOR = RankingPrefs(weights={"comp": 1}, min_first_year_total=200_000)


def option(key, value, first_year):
    return OptionFacts(
        key=key, name=key, kind="external", comp_value=value, first_year_total=first_year,
        remote_weeks_allowed=10, remote_policy="remote", overlap_hours=8,
    )  # fmt: skip


def test_the_floor_sets_the_walk_away_before_the_ranking_does():
    # First 1,000,000 (first year 210,000) against 800,000: by rank alone it stays first down
    # to 800,000, but at 1,000,000 x 200,000 / 210,000 = 952,380.95 its first year meets the
    # floor: the walk-away is 952,400 (a step of 100 up), not 800,000.
    options = [option("a", 1_000_000, 210_000), option("b", 800_000, 250_000)]
    walk = walk_away(options, FLOOR, "a")
    assert walk.value_home == 952_400 and walk.floor_home == 200_000
    assert "first year falls under your floor of USD 200,000" in walk.reason
    # Without the floor the ranking sets it (the old answer, for every cut).
    unbound = walk_away(options, replace(FLOOR, min_first_year_total=None), "a")
    assert unbound.value_home == 800_000 and unbound.floor_home is None  # a tie ranks it first


def test_a_floor_far_below_leaves_the_ranking_in_charge():
    options = [option("a", 1_000_000, 300_000), option("b", 800_000, 250_000)]
    walk = walk_away(options, FLOOR, "a")
    # At 800,000 (a tie ranks it first) its first year is 240,000 >= 200,000: the rank decides.
    assert walk.value_home == 800_000 and walk.floor_home is None


def test_at_the_walk_away_the_option_ranks_first_and_a_step_below_it_breaks_the_floor():
    options = [option("a", 1_000_000, 210_000), option("b", 800_000, 250_000)]
    walk = walk_away(options, FLOOR, "a")

    def at(value):
        scaled = replace(options[0], comp_value=value, first_year_total=210_000 * value / 1e6)
        ranking = rank_options([scaled, options[1]], FLOOR)
        return next(r for r in ranking if r.key == "a")

    assert at(walk.value_home).rank == 1 and not at(walk.value_home).excluded
    assert at(walk.value_home - WALK_AWAY_STEP).excluded


def test_the_base_that_breaks_the_floor_on_its_own():
    # The first year at a base b: 0.6 b up to 250,000, then 150,000 + 0.4 (b - 250,000) (a
    # higher bracket keeps less). Today's base 400,000 pays 210,000; the floor of 200,000 is met
    # at 250,000 + 50,000 / 0.4 = 375,000: "a base below about 375,000 breaks it".
    def first_year(b):
        return 0.6 * b if b <= 250_000 else 150_000 + 0.4 * (b - 250_000)

    offer = replace(OFFER, key="a", base=400_000, first_year_at_base=first_year)
    options = [option("a", 1_000_000, first_year(400_000)), option("b", 800_000, 250_000)]
    plan = negotiation_plan(
        replace(CTX, offer=offer), negotiation_points(replace(CTX, offer=offer)),
        options=options, ranking_prefs=FLOOR,
    )  # fmt: skip
    assert plan.walk_away.floor_home == 200_000
    assert plan.walk_away.floor_base == 375_000
    # No floor met by a base cut alone is stated when none binds.
    far = [option("a", 1_000_000, 300_000), option("b", 800_000, 250_000)]
    plan = negotiation_plan(
        replace(CTX, offer=offer), negotiation_points(replace(CTX, offer=offer)),
        options=far, ranking_prefs=FLOOR,
    )  # fmt: skip
    assert plan.walk_away.floor_base is None
