"""Issue 35: the pure timeline reads the dates the log holds as answered."""

from __future__ import annotations

from datetime import date

from offers.logic.timeline import Decision, LoggedDate, OfferDeadline, timeline_build

TODAY = date(2026, 12, 1)
META = OfferDeadline("meta", "Meta", "Meta E5", date(2026, 12, 14), "America/Los_Angeles")
GOOGLE = OfferDeadline("google", "Google", "Google L5", date(2026, 12, 15), "America/Los_Angeles")
GUESS = Decision("p-tiktok", "TikTok", date(2026, 12, 10))
SAID = (
    LoggedDate("tiktok", "TikTok", "logged_decision", date(2026, 12, 16), date(2026, 11, 29), "p-tiktok"),
    LoggedDate("tiktok", "TikTok", "logged_letter", date(2026, 12, 18), date(2026, 11, 29), "p-tiktok"),
)  # fmt: skip


def _build(**kw):
    return timeline_build(offers=[META, GOOGLE], home_zone="Asia/Taipei", today=TODAY, **kw)


def test_an_expected_decision_before_the_deadlines_aligns_nothing_and_asks_when():
    assert _build(decisions=[GUESS]).asks == ()
    late = Decision("p-tiktok", "TikTok", date(2026, 12, 16))
    asks = _build(decisions=[late]).asks
    assert [a.company for a in asks] == ["Meta", "Google"]
    assert all("ask how soon after 16 Dec" in a.tell_other for a in asks)


def test_what_the_company_said_replaces_the_guess_and_is_not_asked_again():
    timeline = _build(decisions=[GUESS], logged=SAID)
    kinds = [(e.kind, e.day) for e in timeline.events if e.company == "TikTok"]
    # The guess of 10 Dec is gone: TikTok said 16 Dec, and the letter about 18 Dec.
    assert kinds == [("logged_decision", date(2026, 12, 16)), ("logged_letter", date(2026, 12, 18))]
    assert [a.company for a in timeline.asks] == ["Meta", "Google"]
    for ask in timeline.asks:
        # 18 Dec + 7 days = 25 Dec.
        assert ask.proposed == date(2026, 12, 25) and ask.after.kind == "logged_letter"
        assert "after the TikTok offer letter on 18 Dec" in ask.text
        assert "ask how soon" not in ask.tell_other
        assert (
            "TikTok said on 29 Nov that it decides by 16 Dec and sends the offer letter about "
            "18 Dec" in ask.tell_other
        )


def test_a_companys_own_logged_dates_never_align_its_own_deadline():
    own = LoggedDate("meta", "Meta", "logged_decision", date(2026, 12, 20), date(2026, 11, 30))
    assert [a.company for a in _build(logged=[own]).asks] == ["Google"]
