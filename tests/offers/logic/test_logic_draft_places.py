"""Issue 35: a draft's remote and time-zone asks say where the user works from and when."""

from __future__ import annotations

from datetime import date

from offers.logic.draft import draft_message
from offers.logic.negotiation import negotiation_points
from offers.logic.plan import negotiation_plan
from offers.logic.rules.base import NegotiationContext, NegotiationPrefs, OfferFacts
from offers.logic.rules.low_overlap import RULE as LOW_OVERLAP
from offers.logic.rules.remote_gap import RULE as REMOTE_GAP
from offers.logic.timezones import place_and_zone, utc_offset_words

# A US team, fully office-based, with half an hour a day of overlap: only the remote and the
# time-zone rules have something to ask.
OFFER = OfferFacts(
    key="option",
    name="Option",
    company="Option Co",
    currency="USD",
    yearly_totals=(300_000.0,) * 4,
    yearly_home=(300_000.0,) * 4,
    base=200_000,
    stock_per_year=100_000,
    remote_weeks_allowed=0,
    overlap_hours=0.5,
    work_zone="America/Los_Angeles",
)


def _ctx(home_zone: str, today: date) -> NegotiationContext:
    prefs = NegotiationPrefs(required_remote_weeks=8, min_overlap_hours=4, home_zone=home_zone)
    return NegotiationContext(offer=OFFER, current=None, prefs=prefs, today=today)


def test_offsets_follow_daylight_saving_on_the_day():
    # New York is UTC-5 in winter, UTC-4 in summer; Taipei has no DST; India is +5:30.
    assert utc_offset_words("America/New_York", date(2026, 7, 15)) == "UTC-4"
    assert utc_offset_words("America/New_York", date(2026, 1, 15)) == "UTC-5"
    assert utc_offset_words("Asia/Taipei", date(2026, 7, 15)) == "UTC+8"
    assert utc_offset_words("Asia/Kolkata", date(2026, 7, 15)) == "UTC+5:30"
    assert utc_offset_words("UTC", date(2026, 7, 15)) == "UTC+0"
    assert place_and_zone("America/New_York", date(2026, 7, 15)) == "New York (UTC-4)"


def test_a_new_york_home_in_july_is_said_as_utc_minus_4_in_both_asks():
    ctx = _ctx("America/New_York", date(2026, 7, 15))
    remote = REMOTE_GAP.evaluate(ctx)
    overlap = LOW_OVERLAP.evaluate(ctx)
    assert remote is not None and overlap is not None
    assert "remotely 8 weeks a year from New York (UTC-4)" in remote.evidence
    # Los Angeles is UTC-7 in July; the office proposed is named by its city.
    assert overlap.evidence.startswith(
        "Working from New York (UTC-4), my day overlaps the team's in "
        "Los Angeles (UTC-7) by less than an hour."
    )
    assert overlap.evidence.endswith("or base me in an office in New York?")
    assert "region" not in overlap.evidence and "home" not in overlap.evidence.lower()


def test_the_draft_says_the_place_and_offset_and_never_the_family_reason():
    ctx = _ctx("America/New_York", date(2026, 7, 15))
    text = draft_message(negotiation_plan(ctx, negotiation_points(ctx)))
    assert "from New York (UTC-4)" in text
    assert "family" not in text.lower()


def test_a_taipei_home_in_winter_is_utc_plus_8_beside_a_winter_pacific_team():
    ctx = _ctx("Asia/Taipei", date(2026, 12, 1))
    overlap = LOW_OVERLAP.evaluate(ctx)
    assert overlap is not None
    assert "from Taipei (UTC+8)" in overlap.evidence
    assert "in Los Angeles (UTC-8)" in overlap.evidence
