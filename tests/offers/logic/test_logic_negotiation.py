from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest

from offers.logic.errors import LogicInputError
from offers.logic.negotiation import negotiation_points
from offers.logic.rules import RULES, RULES_BY_KEY
from offers.logic.rules.base import (
    AlternativeFacts,
    CurrentJobFacts,
    NegotiationContext,
    NegotiationPrefs,
    OfferFacts,
)
from tests.offers.logic.facts import BAND, TODAY

rule_back_loaded = RULES_BY_KEY["back_loaded"].evaluate
rule_below_stay = RULES_BY_KEY["below_stay"].evaluate
rule_clawback = RULES_BY_KEY["clawback"].evaluate
rule_competing_offer = RULES_BY_KEY["competing_offer"].evaluate
rule_down_level = RULES_BY_KEY["down_level"].evaluate
rule_exploding_deadline = RULES_BY_KEY["exploding_deadline"].evaluate
rule_low_overlap = RULES_BY_KEY["low_overlap"].evaluate
rule_make_whole = RULES_BY_KEY["make_whole"].evaluate
rule_relocation = RULES_BY_KEY["relocation"].evaluate
rule_remote_gap = RULES_BY_KEY["remote_gap"].evaluate
rule_start_date = RULES_BY_KEY["start_date"].evaluate
rule_stock_risk = RULES_BY_KEY["stock_risk"].evaluate
rule_top_of_band = RULES_BY_KEY["top_of_band"].evaluate
rule_verdict = RULES_BY_KEY["verdict"].evaluate

# A quiet offer: only the verdict rule should fire.
QUIET_OFFER = OfferFacts(
    key="meta",
    name="Meta E5",
    company="Meta",
    currency="USD",
    yearly_totals=(400_000.0,) * 4,
    yearly_home=(400_000.0,) * 4,
    base=200_000,
    stock_per_year=150_000,
    level_code="E5",
    level_order=5,
    target_level_code="E5",
    target_level_order=5,
    band=BAND,
    remote_weeks_allowed=52,
    overlap_hours=8,
    start_date=date(2026, 2, 1),
    vesting_year_weights=(0.25, 0.25, 0.25, 0.25),
    volatility_pct=30,
)
QUIET_CURRENT = CurrentJobFacts(yearly_totals_if_stay=(300_000.0,) * 4)
QUIET = NegotiationContext(
    offer=QUIET_OFFER,
    current=QUIET_CURRENT,
    prefs=NegotiationPrefs(
        required_remote_weeks=26, money_per_remote_week=5_000, min_overlap_hours=4
    ),
    today=TODAY,
)


def with_offer(ctx=QUIET, **changes):
    return replace(ctx, offer=replace(ctx.offer, **changes))


def with_current(ctx=QUIET, **changes):
    return replace(ctx, current=replace(ctx.current, **changes))


def test_quiet_offer_raises_only_the_verdict():
    assert [p.rule for p in negotiation_points(QUIET)] == ["verdict"]


def test_rules_are_registered_with_matching_slugs():
    assert len(RULES) == 16
    slugs = [rule.key for rule in RULES]
    assert len(set(slugs)) == 16
    assert "verdict" in slugs and "make_whole" in slugs


# 1. below_stay


def test_below_stay_asks_for_the_gap():
    ctx = with_current(yearly_totals_if_stay=(450_000.0,) * 4)
    point = rule_below_stay(ctx)
    assert point is not None
    assert point.ask_amount == 200_000 and point.ask_currency == "USD"
    assert point.figures["stay_value_home"] == 1_800_000
    assert point.priority == 1


def test_below_stay_converts_home_gap_to_offer_currency():
    ctx = replace(
        QUIET,
        offer=replace(QUIET_OFFER, yearly_home=(400_000.0 * 32,) * 4),
        current=CurrentJobFacts(yearly_totals_if_stay=(450_000.0 * 32,) * 4),
        prefs=replace(QUIET.prefs, home_currency="TWD", fx_offer_to_home=32.0),
    )
    point = rule_below_stay(ctx)
    assert point is not None
    assert point.figures["gap_home"] == 6_400_000
    assert point.ask_amount == pytest.approx(200_000)
    # The home-currency gap is the user's own figure: in the reason, never in the script.
    assert "TWD 57,600,000" in point.trigger and "TWD" not in point.evidence


def test_below_stay_quiet_when_offer_beats_staying_or_no_current_job():
    assert rule_below_stay(QUIET) is None
    assert rule_below_stay(replace(QUIET, current=None)) is None


def test_below_stay_uses_only_the_horizon():
    ctx = replace(
        with_current(yearly_totals_if_stay=(300_000.0, 300_000.0, 900_000.0, 900_000.0)),
        prefs=replace(QUIET.prefs, horizon_years=2),
    )
    assert rule_below_stay(ctx) is None


# 2. make_whole


def test_make_whole_shows_value_by_year():
    ctx = with_current(
        unvested_forfeited_by_year=((2026, 120_000.0), (2027, 80_000.0), (2028, 0.0)),
        unvested_total=200_000,
    )
    point = rule_make_whole(ctx)
    assert point is not None
    assert point.ask_amount == 200_000
    assert point.figures["forfeited_2026"] == 120_000
    assert "forfeited_2028" not in point.figures
    assert "2026: USD 120,000, 2027: USD 80,000" in point.evidence
    assert "1 Feb 2026" in point.trigger


def test_make_whole_quiet_without_unvested_stock():
    assert rule_make_whole(QUIET) is None
    assert rule_make_whole(replace(QUIET, current=None)) is None


# 3. clawback


def test_clawback_asks_for_the_repayment():
    point = rule_clawback(with_current(sign_on_clawback=30_000))
    assert point is not None
    assert point.ask_amount == 30_000
    assert rule_clawback(QUIET) is None


# 4. top_of_band


def test_top_of_band_moves_ask_to_next_level_stock():
    point = rule_top_of_band(with_offer(base=240_000))
    assert point is not None
    assert point.ask_amount == 100_000  # E6 stock mid 250,000 - 150,000 a year
    assert point.figures["stretch_ask_per_year"] == 170_000
    assert "E6" in point.ask_term and "approval" in point.ask_term


def test_top_of_band_without_next_level_asks_for_top_of_stock_band():
    band = replace(BAND, next_level_stock_mid=None, next_level_stock_max=None)
    point = rule_top_of_band(with_offer(base=250_000, band=band))
    assert point is not None
    assert point.ask_amount == 50_000
    capped = rule_top_of_band(with_offer(base=250_000, band=band, stock_per_year=200_000))
    assert capped is not None and capped.ask_amount is None
    assert "sign-on" in (capped.ask_term or "")


def test_top_of_band_quiet_below_the_cap_or_without_band():
    assert rule_top_of_band(with_offer(base=239_999)) is None
    assert rule_top_of_band(with_offer(base=240_000, band=None)) is None


# 5. down_level


def test_down_level_cites_the_signals():
    ctx = with_offer(
        target_level_code="E6",
        target_level_order=6,
        signals=("strong_hire",) * 4 + ("hire",),
    )
    point = rule_down_level(ctx)
    assert point is not None
    # Issue 26: the count of ratings is the user's (trigger, private), never in what is said;
    # a strong loop is said as a summary.
    assert "four Strong Hire and one Hire out of five rounds" in point.trigger
    assert "four Strong Hire and one Hire out of five rounds" in point.private
    assert "the team's feedback supports E6" in point.evidence
    assert "Strong Hire" not in point.evidence and "rounds" not in point.evidence
    assert point.priority == 1
    assert point.ask_amount == 100_000
    assert point.ask_term == "re-level to E6, or E6 pay"


def test_down_level_with_weak_signals_is_lower_priority():
    ctx = with_offer(
        target_level_code="E6",
        target_level_order=6,
        signals=("strong_no_hire", "hire", "lean_no_hire"),
        band=None,
    )
    point = rule_down_level(ctx)
    assert point is not None
    assert point.priority == 2 and point.ask_amount is None


def test_down_level_quiet_at_target_or_unknown():
    assert rule_down_level(QUIET) is None
    assert rule_down_level(with_offer(target_level_order=None)) is None
    assert rule_down_level(with_offer(level_order=7, target_level_order=6)) is None


# 6. competing_offer

GOOGLE_PROCESS = AlternativeFacts(
    name="Google L5",
    company="Google",
    value=1_800_000,
    first_year=420_000,
    evidence_kind="active_process",
    next_round_date=TODAY + timedelta(days=25),
    stage="team match",
)
TIKTOK_OFFER = AlternativeFacts(
    name="TikTok 2-2",
    company="TikTok",
    value=1_700_000,
    first_year=400_000,
    evidence_kind="offer_in_hand",
)
MARKET = AlternativeFacts(
    name="Levels median",
    company="market",
    value=2_000_000,
    first_year=500_000,
    evidence_kind="band_median",
)


def test_competing_offer_cites_only_the_offer_in_hand():
    ctx = replace(QUIET, alternatives=(GOOGLE_PROCESS, MARKET, TIKTOK_OFFER))
    point = rule_competing_offer(ctx)
    assert point is not None
    assert point.figures["alternative"] == "TikTok 2-2"
    assert point.ask_amount == 100_000  # 1,700,000 - 4 x 400,000
    assert point.priority == 1
    assert "TikTok" in point.evidence and "USD 1,700,000" in point.trigger
    # The competing value on the user's own basis stays private.
    assert "1,700,000" not in point.evidence
    # A process still running and market data are worth more, but are no offer to cite.
    assert "alternative_2" not in point.figures and "Google" not in point.evidence
    assert rule_competing_offer(replace(QUIET, alternatives=(GOOGLE_PROCESS, MARKET))) is None


def test_competing_offer_hides_unshareable_figures():
    ctx = replace(QUIET, alternatives=(replace(TIKTOK_OFFER, shareable=False),))
    point = rule_competing_offer(ctx)
    assert point is not None
    assert "TikTok" not in point.evidence and "1,700,000" not in point.evidence
    assert point.figures["alternative_value_home"] == 1_700_000


def test_competing_offer_quiet_when_alternatives_are_worth_less():
    ctx = replace(QUIET, alternatives=(replace(TIKTOK_OFFER, value=1_500_000),))
    assert rule_competing_offer(ctx) is None
    assert rule_competing_offer(QUIET) is None


# 7. remote_gap


def test_remote_gap_prices_missing_weeks_with_the_users_weights():
    point = rule_remote_gap(with_offer(remote_weeks_allowed=0))
    assert point is not None
    assert point.ask_term == "written remote arrangement for 26 weeks a year"
    assert point.figures["gap_worth_home"] == 130_000
    # What weeks are worth by the user's weights is for the user, never in the script.
    assert "USD 130,000" in point.private and "weights" not in point.evidence
    assert point.priority == 1


def test_remote_gap_quiet_when_enough():
    assert rule_remote_gap(with_offer(remote_weeks_allowed=26)) is None


# 8. low_overlap


def test_low_overlap():
    point = rule_low_overlap(with_offer(overlap_hours=0.35))
    assert point is not None
    assert point.figures == {"overlap_hours": 0.35, "min_overlap_hours": 4}
    assert "an office in Taipei" in (point.ask_term or "")
    assert rule_low_overlap(with_offer(overlap_hours=5)) is None


# 9. back_loaded


def test_back_loaded_levels_year_one_and_two():
    ctx = with_offer(
        vesting_year_weights=(0.2, 0.25, 0.25, 0.3),
        yearly_totals=(300_000.0, 350_000.0, 400_000.0, 450_000.0),
    )
    point = rule_back_loaded(ctx)
    assert point is not None
    # Average 375,000: year 1 is 75,000 short, year 2 25,000.
    assert point.figures["year_1_gap"] == 75_000
    assert point.figures["year_2_gap"] == 25_000
    assert point.ask_amount == 100_000
    assert "20%/25%/25%/30%" in point.trigger


def test_back_loaded_ignores_small_gaps():
    ctx = with_offer(
        vesting_year_weights=(0.2, 0.25, 0.25, 0.3),
        yearly_totals=(340_000.0, 370_000.0, 370_000.0, 400_000.0),
    )
    point = rule_back_loaded(ctx)
    assert point is not None
    assert point.ask_amount == 30_000
    assert "year_2_gap" not in point.figures


def test_back_loaded_quiet_for_flat_or_front_loaded_vesting():
    low_first = (300_000.0, 400_000.0, 400_000.0, 400_000.0)
    assert rule_back_loaded(with_offer(yearly_totals=low_first)) is None
    google = with_offer(vesting_year_weights=(0.33, 0.33, 0.22, 0.12), yearly_totals=low_first)
    assert rule_back_loaded(google) is None
    unknown = rule_back_loaded(with_offer(vesting_year_weights=(), yearly_totals=low_first))
    assert unknown is not None and unknown.ask_amount == 75_000


# 10. exploding_deadline


def test_exploding_deadline_under_a_week():
    point = rule_exploding_deadline(with_offer(deadline=TODAY + timedelta(days=3)))
    assert point is not None
    assert point.priority == 1
    assert point.ask_term == f"extend the deadline to {TODAY + timedelta(days=10):%-d %b %Y}"


def test_exploding_deadline_before_other_processes_finish():
    ctx = replace(
        with_offer(deadline=TODAY + timedelta(days=20)),
        alternatives=(
            GOOGLE_PROCESS,
            replace(TIKTOK_OFFER, next_round_date=TODAY + timedelta(days=40)),
        ),
    )
    point = rule_exploding_deadline(ctx)
    assert point is not None
    assert point.priority == 2
    assert "Google (team match, next round 4 Feb 2026)" in point.trigger
    assert "TikTok" not in point.trigger  # an offer in hand is not a pending process
    assert point.figures["extend_to"] == "2026-02-11"


def test_exploding_deadline_quiet_when_far_and_nothing_pending():
    assert rule_exploding_deadline(with_offer(deadline=TODAY + timedelta(days=20))) is None
    assert rule_exploding_deadline(QUIET) is None
    done = replace(GOOGLE_PROCESS, next_round_date=TODAY + timedelta(days=5))
    ctx = replace(with_offer(deadline=TODAY + timedelta(days=20)), alternatives=(done,))
    assert rule_exploding_deadline(ctx) is None


# 11. stock_risk


def test_stock_risk_private_uses_liquidity_haircut():
    point = rule_stock_risk(with_offer(is_private=True))
    assert point is not None
    assert point.ask_amount == pytest.approx(0.30 * 150_000 * 4)


def test_stock_risk_prefers_monte_carlo_spread():
    point = rule_stock_risk(
        with_offer(volatility_pct=45, p10_cumulative=900_000, p50_cumulative=1_200_000)
    )
    assert point is not None
    assert point.ask_amount == 300_000


def test_stock_risk_volatile_without_simulation_asks_for_cash_term():
    point = rule_stock_risk(with_offer(volatility_pct=40))
    assert point is not None and point.ask_amount is None
    assert "cash" in (point.ask_term or "")


def test_stock_risk_quiet_for_public_calm_stock():
    assert rule_stock_risk(QUIET) is None
    assert rule_stock_risk(with_offer(volatility_pct=None)) is None


# 12. relocation


def test_relocation():
    point = rule_relocation(with_offer(relocation_required=True))
    assert point is not None and point.priority == 2
    offered = rule_relocation(with_offer(relocation_required=True, relocation_amount=20_000))
    assert offered is not None and offered.priority == 3
    assert offered.figures["relocation_offered"] == 20_000
    assert rule_relocation(QUIET) is None


# 13. start_date


def test_start_date_after_a_nearby_vest():
    point = rule_start_date(with_current(next_vest_date=date(2026, 2, 15), next_vest_value=60_000))
    assert point is not None
    assert point.ask_term == "start on 16 Feb 2026"
    assert point.figures["next_vest_value_home"] == 60_000
    assert point.figures["days_after_start"] == 14


def test_start_date_quiet_when_vest_is_far_or_already_passed():
    far = with_current(next_vest_date=date(2026, 6, 1), next_vest_value=60_000)
    assert rule_start_date(far) is None
    before = with_current(next_vest_date=date(2026, 1, 20), next_vest_value=60_000)
    assert rule_start_date(before) is None
    assert rule_start_date(QUIET) is None


# 14. verdict


def verdict_of(ctx):
    point = rule_verdict(ctx)
    assert point is not None
    return point.figures["verdict"]


def test_verdict_against_band_and_alternatives():
    assert verdict_of(QUIET) == "fair"
    assert verdict_of(with_offer(base=180_000, stock_per_year=140_000)) == "low"
    assert verdict_of(with_offer(base=240_000, stock_per_year=150_000)) == "high"
    assert verdict_of(replace(QUIET, alternatives=(TIKTOK_OFFER,))) == "low"
    # Market medians alone do not make an offer low against alternatives.
    assert verdict_of(replace(QUIET, alternatives=(MARKET,))) == "fair"
    bare = rule_verdict(with_offer(band=None))
    assert bare is not None and "no band or alternative" in bare.evidence


# The first user's Meta offer, all together.


def test_first_user_meta_offer_points_are_sorted():
    ctx = NegotiationContext(
        offer=replace(
            QUIET_OFFER,
            base=240_000,
            target_level_code="E6",
            target_level_order=6,
            signals=("strong_hire",) * 4 + ("hire",),
            remote_weeks_allowed=0,
            overlap_hours=0.35,
            relocation_required=True,
            deadline=TODAY + timedelta(days=5),
        ),
        current=CurrentJobFacts(
            yearly_totals_if_stay=(380_000.0,) * 4,
            unvested_forfeited_by_year=((2026, 150_000.0), (2027, 100_000.0)),
            unvested_total=250_000,
            next_vest_date=date(2026, 2, 15),
            next_vest_value=60_000,
        ),
        alternatives=(TIKTOK_OFFER, GOOGLE_PROCESS),
        prefs=QUIET.prefs,
        today=TODAY,
    )
    points = negotiation_points(ctx)
    rules = [p.rule for p in points]
    assert rules.count("verdict") == 1
    assert set(rules) == {
        "make_whole",
        "top_of_band",
        "down_level",
        "competing_offer",
        "remote_gap",
        "low_overlap",
        "exploding_deadline",
        "relocation",
        "start_date",
        "verdict",
    }
    keys = [(p.priority, p.ask_amount is None, -(p.ask_amount or 0)) for p in points]
    assert keys == sorted(keys)
    # Equal asks keep rule order: down_level is registered before competing_offer.
    assert rules[:3] == ["make_whole", "down_level", "competing_offer"]
    assert rules[-1] == "verdict"


def test_bad_context_raises():
    with pytest.raises(LogicInputError) as info:
        negotiation_points(replace(QUIET, prefs=replace(QUIET.prefs, fx_offer_to_home=0)))
    assert info.value.field == "fx_offer_to_home"
    with pytest.raises(LogicInputError):
        negotiation_points(replace(QUIET, alternatives=(replace(MARKET, evidence_kind="rumour"),)))
