"""One rule for "target level of this option" and "is it a down-level" (no database)."""

from __future__ import annotations

from interviews.levels import Rung, level_check, target_level_of

META_E5 = Rung("E5", order=3, stage=5, ladder="Meta")
META_E6 = Rung("E6", order=4, stage=6, ladder="Meta")
GOOGLE_L6 = Rung("L6", order=4, stage=6, ladder="Google")
MS_63 = Rung("63", order=5, stage=5, ladder="Microsoft")
MS_64 = Rung("64", order=6, stage=5, ladder="Microsoft")


def test_target_e6_came_back_e5_is_one_level_down():
    check = level_check(META_E5, META_E6)
    assert check is not None
    assert (check.delta, check.levels_apart, check.verdict) == (-1, 1, "down")
    assert (check.position, check.target_position) == (3, 4)


def test_one_ladder_compares_rungs_even_within_a_stage():
    check = level_check(MS_63, MS_64)
    assert check is not None and check.verdict == "down" and check.levels_apart == 1


def test_across_ladders_stages_compare():
    check = level_check(META_E5, GOOGLE_L6)
    assert check is not None and (check.position, check.target_position) == (5, 6)
    assert level_check(GOOGLE_L6, META_E6).verdict == "as_targeted"  # type: ignore[union-attr]
    assert level_check(META_E6, META_E5).verdict == "up"  # type: ignore[union-attr]


def test_unknown_when_a_level_or_a_common_scale_is_missing():
    assert level_check(None, META_E6) is None
    assert level_check(META_E5, None) is None
    no_stage = Rung("X2", order=2, stage=None, ladder="Startup")
    assert level_check(no_stage, GOOGLE_L6) is None
    # On its own ladder a level without a stage still compares by rung.
    assert level_check(no_stage, Rung("X3", order=3, ladder="Startup")).verdict == "down"  # type: ignore[union-attr]


def test_the_offer_overrides_the_process_which_overrides_the_company():
    assert target_level_of("own", "process", "company") == "own"
    assert target_level_of(None, "process", "company") == "process"
    assert target_level_of(None, None, "company") == "company"
    assert target_level_of(None, None, None) is None
