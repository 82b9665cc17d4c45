"""interview_stats against hand-counted, demo-like data (no database)."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import plotly.graph_objects as go

from interviews.analytics import furthest_stage_index, interview_stats, offer_date, stats_figures
from interviews.levels import Rung

D0 = date(2026, 9, 1)


def day(n):
    return D0 + timedelta(days=n)


# Levels as the selector gives them: rungs of one ladder (E6 and E5 of the same company's).
E6 = Rung(code="E6", order=4, stage=6, ladder=1)
E5 = Rung(code="E5", order=3, stage=5, ladder=1)
L6 = Rung(code="L6", order=4, stage=6, ladder=2)

PROCESSES = [
    # Meta: all the way to negotiating; offer on day 50; E6 targeted, E5 offered.
    {"id": 1, "name": "Meta MLE", "company": "Meta", "first_contact": D0,
     "history": [("applied", day(0)), ("recruiter_screen", day(3)), ("phone_screen", day(9)),
                 ("onsite", day(25)), ("debrief", day(35)), ("team_match", day(37)),
                 ("offer", day(50)), ("negotiating", day(55))],
     "target_level": E6, "offered_level": E5},
    # Google: skipped the phone screen (referral), now in team match; no offer yet.
    {"id": 2, "name": "Google MLE", "company": "Google", "first_contact": D0,
     "history": [("applied", day(0)), ("recruiter_screen", day(4)), ("onsite", day(28)),
                 ("debrief", day(38)), ("team_match", day(45))],
     "target_level": L6, "offered_level": None},
    # TikTok: onsite scheduled.
    {"id": 3, "name": "TikTok MLE", "company": "TikTok", "first_contact": day(10),
     "history": [("applied", day(10)), ("recruiter_screen", day(14)), ("phone_screen", day(22)),
                 ("onsite", day(30))],
     "target_level": None, "offered_level": None},
    # Rejected after the recruiter screen.
    {"id": 4, "name": "Acme MLE", "company": "Acme", "first_contact": day(5),
     "history": [("applied", day(5)), ("recruiter_screen", day(8)), ("rejected", day(12))],
     "target_level": None, "offered_level": None},
    # Accepted quickly: offer on day 20 after first contact on day 2.
    {"id": 5, "name": "Startup MLE", "company": "Startup", "first_contact": day(2),
     "history": [("applied", day(2)), ("onsite", day(10)), ("offer", day(22)),
                 ("accepted", day(24))],
     "target_level": E6, "offered_level": E6},
]  # fmt: skip

ROUNDS = [
    {"process_id": 1, "company": "Meta", "kind": "team_match", "signal": "strong_hire", "order": 1},
    {"process_id": 1, "company": "Meta", "kind": "coding", "signal": "strong_hire", "order": 2},
    {"process_id": 1, "company": "Meta", "kind": "coding", "signal": "strong_hire", "order": 3},
    {"process_id": 1, "company": "Meta", "kind": "system_design", "signal": "strong_no_hire", "order": 4},
    {"process_id": 1, "company": "Meta", "kind": "ml_design", "signal": "strong_hire", "order": 5},
    {"process_id": 1, "company": "Meta", "kind": "behavioral", "signal": "strong_hire", "order": 6},
    {"process_id": 2, "company": "Google", "kind": "behavioral", "signal": "hire", "order": 1},
    {"process_id": 2, "company": "Google", "kind": "system_design", "signal": "hire", "order": 2},
    {"process_id": 2, "company": "Google", "kind": "coding", "signal": "lean_hire", "order": 3},
    {"process_id": 3, "company": "TikTok", "kind": "coding", "signal": "unknown", "order": 1},
    {"process_id": 5, "company": "Startup", "kind": "coding", "signal": "hire", "order": 1},
]  # fmt: skip


def test_funnel_counts_stages_reached_or_passed():
    stats = interview_stats(PROCESSES, ROUNDS)
    # applied 5; recruiter screen: all but none skipped it before reaching further -> Meta,
    # Google, TikTok, Acme, Startup (passed it on the way to onsite) = 5; phone screen: Meta,
    # Google (passed), TikTok, Startup = 4; onsite 4; debrief: Meta, Google, Startup = 3;
    # team match 3; offer: Meta, Startup = 2; negotiating 2; accepted: Startup = 1.
    assert [r["count"] for r in stats["funnel"]] == [5, 5, 4, 4, 3, 3, 2, 2, 1]


def test_conversions_count_the_processes_decided_not_those_still_open():
    stats = interview_stats(PROCESSES, ROUNDS)
    # Recruiter screen -> onsite: all 5 reached the screen; Meta, Google, TikTok and Startup
    # went on, Acme was rejected: 4 of 5.
    assert stats["conversions"]["recruiter_screen->onsite"] == {"reached": 4, "of": 5, "rate": 0.8}
    # Onsite -> offer: Meta and Startup went on; Google (in team match) and TikTok (onsite)
    # are still open, neither failed: 2 of 2, not 2 of 4.
    assert stats["conversions"]["onsite->offer"] == {"reached": 2, "of": 2, "rate": 1.0}
    steps = {(s["from"], s["to"]): s["rate"] for s in stats["steps"]}
    # Onsite -> debrief: Meta, Google and Startup went on; TikTok is open: 3 of 3.
    assert steps[("onsite", "debrief")] == 1.0
    # Recruiter screen -> phone screen: Meta, Google (past it), TikTok, Startup; Acme ended.
    assert steps[("recruiter_screen", "phone_screen")] == 0.8
    # Negotiating -> accepted: Startup accepted; Meta still negotiating: 1 of 1.
    assert steps[("negotiating", "accepted")] == 1.0


def test_a_process_that_ended_counts_against_the_step_it_stopped_at():
    rejected_after_onsite = {
        "id": 9, "name": "Acme 2", "company": "Acme", "first_contact": D0,
        "history": [("applied", day(0)), ("onsite", day(9)), ("rejected", day(12))],
        "target_level": None, "offered_level": None,
    }  # fmt: skip
    stats = interview_stats([*PROCESSES, rejected_after_onsite], ROUNDS)
    # Onsite -> offer: Meta and Startup of Meta, Startup and the rejected one: 2 of 3.
    assert stats["conversions"]["onsite->offer"] == {"reached": 2, "of": 3, "rate": 0.6667}


def test_signal_distribution_by_round_kind():
    stats = interview_stats(PROCESSES, ROUNDS)
    assert stats["signal_by_kind"] == {
        "behavioral": {"strong_hire": 1, "hire": 1},
        "coding": {"strong_hire": 2, "lean_hire": 1, "hire": 1, "unknown": 1},
        "ml_design": {"strong_hire": 1},
        "system_design": {"hire": 1, "strong_no_hire": 1},
        "team_match": {"strong_hire": 1},
    }


def test_rounds_per_company_and_days_to_offer():
    stats = interview_stats(PROCESSES, ROUNDS)
    assert stats["rounds_per_company"] == {"Google": 3, "Meta": 6, "Startup": 1, "TikTok": 1}
    assert [(d["company"], d["days"]) for d in stats["days_to_offer"]] == [
        ("Meta", 50),
        ("Startup", 20),
    ]
    assert stats["median_days_to_offer"] == 35.0
    assert (stats["process_count"], stats["round_count"]) == (5, 11)


def test_level_check_shows_the_down_level_and_the_signal_behind_it():
    stats = interview_stats(PROCESSES, ROUNDS)
    meta, startup = stats["level_checks"]
    # What the page shows: the levels apart and the way (the signed delta is the check's own).
    assert (meta["target"], meta["offered"], meta["levels_apart"], meta["verdict"]) == (
        "E6",
        "E5",
        1,
        "down",
    )
    assert meta["negative"] == [("system_design", "strong_no_hire")]
    assert Counter(signal for _kind, signal in meta["signals"]) == {
        "strong_hire": 5,
        "strong_no_hire": 1,
    }
    assert meta["signals"][0] == ("team_match", "strong_hire")
    assert (startup["verdict"], startup["negative"]) == ("as_targeted", [])


def test_empty_input():
    stats = interview_stats([], [])
    assert stats["conversions"]["onsite->offer"]["rate"] is None
    assert stats["median_days_to_offer"] is None and stats["level_checks"] == []
    figures = stats_figures(stats, {})
    assert set(figures) == {"funnel", "signals", "per_company", "days"}
    assert figures["signals"].data == ()


def test_helpers():
    assert furthest_stage_index([("applied", D0), ("ghosted", D0)]) == 0
    assert furthest_stage_index([]) == -1
    assert offer_date([("negotiating", day(9)), ("offer", day(7))]) == day(7)


def test_figures_are_plotly_figures_with_the_counted_figures():
    stats = interview_stats(PROCESSES, ROUNDS)
    built = stats_figures(stats, {"onsite": "Onsite"})
    assert all(isinstance(f, go.Figure) for f in built.values())
    figures = {name: f.to_plotly_json() for name, f in built.items()}
    assert figures["funnel"]["data"][0]["x"] == [5, 5, 4, 4, 3, 3, 2, 2, 1]
    assert "Onsite" in figures["funnel"]["data"][0]["y"]
    stacked = {t["name"]: t["x"] for t in figures["signals"]["data"]}  # horizontal bars
    assert stacked["strong_no_hire"] == [0, 0, 0, 1, 0]
