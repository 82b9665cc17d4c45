"""The timeline across companies: hand cases for the asks that align deadlines with rounds."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offers.logic.errors import LogicInputError
from offers.logic.timeline import (
    Decision,
    OfferDeadline,
    ProcessDeadline,
    Round,
    timeline_build,
)

SG = ZoneInfo("Asia/Singapore")
LA = "America/Los_Angeles"
TODAY = date(2026, 11, 30)


def meta(deadline: date, zone: str = LA) -> OfferDeadline:
    return OfferDeadline("1", "Meta", "Meta E5", deadline, zone, process_key="10")


def tiktok_onsite(day: date, hours=(10, 11, 14)) -> list[Round]:
    return [
        Round("20", "TikTok", "coding", datetime(day.year, day.month, day.day, h, tzinfo=SG))
        for h in hours
    ]


def build(offers, rounds=(), **kwargs):
    return timeline_build(
        offers=offers, rounds=rounds, home_zone="Asia/Taipei", today=TODAY, **kwargs
    )


def test_deadline_before_the_other_companys_onsite_gets_one_ask():
    result = build([meta(date(2026, 12, 5))], tiktok_onsite(date(2026, 12, 12)))
    (ask,) = result.asks
    assert ask.company == "Meta"
    assert ask.proposed == date(2026, 12, 19)  # the onsite's day + one week
    assert ask.after.kind == "onsite"
    assert ask.after.rounds == 3
    assert ask.text == (
        "Ask Meta to extend its deadline from 5 Dec to 19 Dec: after the TikTok onsite on "
        "12 Dec, with 7 days to hear back."
    )
    assert ask.tell_other.startswith("Tell TikTok you have an offer with a deadline on 5 Dec")


def test_deadline_after_the_onsite_needs_no_ask():
    result = build([meta(date(2026, 12, 15))], tiktok_onsite(date(2026, 12, 12)))
    assert result.asks == ()
    kinds = [e.kind for e in result.events]
    assert kinds == ["onsite", "offer_deadline"]


def test_the_offers_own_process_and_company_never_ask_to_wait_for_themselves():
    own = [Round("10", "Meta", "team match", datetime(2026, 12, 8, 1, tzinfo=UTC))]
    assert build([meta(date(2026, 12, 5))], own).asks == ()


def test_the_last_late_step_across_companies_sets_the_date():
    rounds = [
        *tiktok_onsite(date(2026, 12, 12)),
        Round("30", "Google", "team match", datetime(2026, 12, 9, 17, tzinfo=UTC)),
    ]
    (ask,) = build([meta(date(2026, 12, 5))], rounds).asks
    assert ask.after.company == "TikTok"
    assert ask.proposed == date(2026, 12, 19)


def test_a_single_round_is_named_by_its_kind():
    rounds = [Round("30", "Google", "team match", datetime(2026, 12, 9, 17, tzinfo=UTC))]
    (ask,) = build([meta(date(2026, 12, 5))], rounds).asks
    assert ask.after.kind == "round"
    assert "after the Google team match on 10 Dec" in ask.text  # 01:00 on 10 Dec in Taipei


def test_the_deadline_day_is_read_in_the_offers_own_time_zone():
    """Meta's 5 Dec is Pacific time. A Singapore round at 09:00 on 6 Dec is still 5 Dec in
    California (17:00), so it comes on the deadline's day: ask. At 15:00 Singapore on 5 Dec it
    is 23:00 on 4 Dec in California: before the deadline's day, no ask, although both fall on
    5 Dec or later in Taipei."""
    late = [Round("20", "TikTok", "coding", datetime(2026, 12, 6, 9, tzinfo=SG))]
    early = [Round("20", "TikTok", "coding", datetime(2026, 12, 5, 15, tzinfo=SG))]
    assert len(build([meta(date(2026, 12, 5))], late).asks) == 1
    assert build([meta(date(2026, 12, 5))], early).asks == ()
    # The same deadline set in Singapore time: the 15:00 round is on its day.
    assert len(build([meta(date(2026, 12, 5), zone="Asia/Singapore")], early).asks) == 1


def test_a_deadline_on_the_day_the_clocks_go_back():
    """1 Nov 2026: California leaves summer time at 02:00. Its day starts at 00:00 PDT, which is
    07:00 UTC (not 08:00 as in winter)."""
    offer = meta(date(2026, 11, 1))
    before = [Round("20", "TikTok", "coding", datetime(2026, 11, 1, 6, 30, tzinfo=UTC))]
    on_the_day = [Round("20", "TikTok", "coding", datetime(2026, 11, 1, 7, 30, tzinfo=UTC))]
    kwargs = {"home_zone": "Asia/Taipei", "today": date(2026, 10, 25)}
    assert timeline_build(offers=[offer], rounds=before, **kwargs).asks == ()
    assert len(timeline_build(offers=[offer], rounds=on_the_day, **kwargs).asks) == 1


def test_a_deadline_on_the_day_the_clocks_go_forward():
    """8 Mar 2026: the California day starts at 00:00 PST, 08:00 UTC."""
    offer = meta(date(2026, 3, 8))
    kwargs = {"home_zone": "Asia/Taipei", "today": date(2026, 3, 1)}
    before = [Round("20", "TikTok", "coding", datetime(2026, 3, 8, 7, 30, tzinfo=UTC))]
    on_the_day = [Round("20", "TikTok", "coding", datetime(2026, 3, 8, 8, 30, tzinfo=UTC))]
    assert timeline_build(offers=[offer], rounds=before, **kwargs).asks == ()
    assert len(timeline_build(offers=[offer], rounds=on_the_day, **kwargs).asks) == 1


def test_an_expected_decision_counts_like_a_round():
    decision = Decision("30", "Google", date(2026, 12, 10))
    (ask,) = build([meta(date(2026, 12, 5))], decisions=[decision]).asks
    assert ask.proposed == date(2026, 12, 17)
    assert "after the Google decision on 10 Dec" in ask.text


def test_process_deadlines_are_shown_and_never_asked_about():
    result = build(
        [meta(date(2026, 12, 5))],
        process_deadlines=[ProcessDeadline("30", "Google", "Pick a team", date(2026, 12, 14))],
    )
    assert result.asks == ()
    assert [e.kind for e in result.events] == ["offer_deadline", "process_deadline"]


def test_past_events_and_deadlines_are_left_out():
    result = build([meta(TODAY - timedelta(days=1))], tiktok_onsite(TODAY - timedelta(days=3)))
    assert result.events == ()
    assert result.asks == ()


def test_events_come_in_order_with_times():
    result = build([meta(date(2026, 12, 5))], tiktok_onsite(date(2026, 12, 1), hours=(10,)))
    assert [e.day for e in result.events] == [date(2026, 12, 1), date(2026, 12, 5)]
    assert result.events[0].at == datetime(2026, 12, 1, 10, tzinfo=SG)


def test_the_words_carry_no_weights_scores_or_figures():
    (ask,) = build([meta(date(2026, 12, 5))], tiktok_onsite(date(2026, 12, 12))).asks
    for text in (ask.text, ask.script, ask.tell_other):
        lowered = text.lower()
        for word in ("weight", "score", "rank", "usd", "value", "%"):
            assert word not in lowered, (word, text)
    # What the recruiter hears names no other company.
    assert "TikTok" not in ask.script
    assert "19 Dec" in ask.script and "5 Dec" in ask.script


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"home_zone": "Mars/Olympus"}, "zone"),
        ({"buffer_days": -1}, "buffer_days"),
    ],
)
def test_bad_input_names_its_field(kwargs, field):
    args = {"offers": [meta(date(2026, 12, 5))], "home_zone": "Asia/Taipei", "today": TODAY}
    with pytest.raises(LogicInputError) as info:
        timeline_build(**{**args, **kwargs})
    assert info.value.field == field


def test_a_naive_round_time_is_refused():
    naive = [Round("20", "TikTok", "coding", datetime(2026, 12, 12, 10))]
    with pytest.raises(LogicInputError):
        build([meta(date(2026, 12, 5))], naive)


ZONES = ["America/Los_Angeles", "Asia/Singapore", "Europe/London", "Asia/Taipei", "UTC"]


@settings(max_examples=200, deadline=None)
@given(
    deadline_offset=st.integers(min_value=0, max_value=60),
    round_minutes=st.lists(
        st.integers(min_value=0, max_value=90 * 24 * 60), min_size=0, max_size=6
    ),
    offer_zone=st.sampled_from(ZONES),
    home_zone=st.sampled_from(ZONES),
)
def test_an_ask_exactly_when_a_round_reaches_the_deadlines_day(
    deadline_offset, round_minutes, offer_zone, home_zone
):
    """Whatever the zones (DST included): an ask if and only if some other company's round
    starts on or after the deadline's day in the offer's zone; it always proposes a later
    date than the deadline, at least a week after the step it names."""
    deadline = TODAY + timedelta(days=deadline_offset)
    start = datetime(2026, 11, 30, 16, tzinfo=UTC)  # 1 Dec 00:00 in Taipei: all still ahead
    rounds = [Round("20", "TikTok", "coding", start + timedelta(minutes=m)) for m in round_minutes]
    offer = meta(deadline, zone=offer_zone)
    result = timeline_build(offers=[offer], rounds=rounds, home_zone=home_zone, today=TODAY)
    day_starts = datetime.combine(deadline, datetime.min.time(), tzinfo=ZoneInfo(offer_zone))
    late = [r for r in rounds if r.at >= day_starts]
    assert len(result.asks) == (1 if late else 0)
    for ask in result.asks:
        assert ask.proposed > ask.deadline
        assert ask.proposed == ask.after.day + timedelta(days=7)
        assert ask.after.at >= day_starts
