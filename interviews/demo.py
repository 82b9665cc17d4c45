"""The demo user's interview loops (illustrative): Google, Meta, TikTok and an internal move."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from compensation.models import Company, Level
from interviews import services
from interviews.models import Debrief, Process, Round, Signal, Stage, TeamMatch

Kind = Round.Kind
S = Signal


def _company(story: dict[str, Any], name: str) -> Company:
    found = story.get("companies", {}).get(name)
    return found if found is not None else Company.objects.get(name=name, owner=None)


def _level(company: Company, code: str) -> Level:
    return Level.objects.get(company=company, code=code)


def _at(day: date, hour: int, minute: int, zone: str) -> datetime:
    """Return a wall-clock time in `zone` on `day` as a UTC instant."""
    local = datetime.combine(day, time(hour, minute), tzinfo=zoneinfo.ZoneInfo(zone))
    return local.astimezone(UTC)


def _process(
    user: AbstractBaseUser, *, company: Company, history: list[tuple[str, date]], **fields: Any
) -> Process:
    """Create a process and walk it through its stage history."""
    first_stage, first_day = history[0]
    process = services.process_create(
        user=user, company=company, stage=first_stage, first_contact=first_day, **fields
    )
    for stage, day in history[1:]:
        services.process_move_stage(user=user, process=process, stage=stage, on=day)
    return process


def _round(
    user: AbstractBaseUser,
    process: Process,
    kind: str,
    when: datetime | None,
    zone: str,
    *,
    questions: list[tuple[str, str]] | None = None,
    **fields: Any,
) -> Round:
    """Add a round; each question's text carries its #tags."""
    parsed = services.parse_questions("\n".join(text for text, _unused in questions or []))
    return services.round_create(
        user=user,
        process=process,
        kind=kind,
        scheduled_at=when,
        timezone=zone,
        questions=parsed,
        **fields,
    )


@transaction.atomic
def seed_user(user: AbstractBaseUser, story: dict[str, Any]) -> dict[str, Any]:
    """Create the demo user's interview loops; return {"processes": {company name: Process}}."""
    today = timezone.localdate(timezone=zoneinfo.ZoneInfo("Asia/Taipei"))

    def ago(days: int) -> date:
        return today - timedelta(days=days)

    google, meta = _company(story, "Google"), _company(story, "Meta")
    tiktok, northwind = _company(story, "TikTok"), _company(story, "Northwind AI")
    la, taipei, sg = "America/Los_Angeles", "Asia/Taipei", "Asia/Singapore"

    # Google: referral, five virtual rounds, now in team match with two teams.
    g = _process(
        user,
        company=google,
        role="Staff ML Engineer, Search Ranking",
        team="Search Ranking (team match open)",
        source=Process.Source.REFERRAL,
        recruiter="Jamie Park",
        referrer="Wei Chen (former teammate, now L6 at Google)",
        target_level=_level(google, "L6"),
        next_step="Team match calls with YouTube Recs and Cloud AI",
        deadline=today + timedelta(days=14),
        priority=Process.Priority.HIGH,
        notes="Recruiter says hiring committee packet is strong; level not confirmed yet.",
        history=[
            (Stage.APPLIED, ago(62)),
            (Stage.RECRUITER_SCREEN, ago(58)),
            (Stage.ONSITE, ago(34)),
            (Stage.DEBRIEF, ago(24)),
            (Stage.TEAM_MATCH, ago(17)),
        ],
    )
    _round(
        user, g, Kind.RECRUITER_CALL, _at(ago(58), 9, 0, taipei), taipei,
        order=1, duration_minutes=30, interviewer_name="Jamie Park",
        interviewer_background="Technical recruiter, ML infrastructure org",
        stated_comp="Did not give a number; said I'd share expectations once levelled",
        signal=S.UNKNOWN,
    )  # fmt: skip
    google_rounds = [
        (Kind.BEHAVIORAL, 34, 17, "Priya Raman", "Eng manager, Ads quality; asked about conflict with PMs",
         S.HIRE, 4, [("Tell me about a launch you pushed back on #leadership #conflict", ""),
                     ("A time you mentored someone through a failure #mentoring", "")]),
        (Kind.SYSTEM_DESIGN, 33, 17, "Marcus Obi", "Works on ranking infra; asked about feature stores",
         S.HIRE, 4, [("Design a feature store serving 1M QPS for ranking #feature store #system design #ranking", "")]),
        (Kind.CODING, 33, 19, "Lena Hoffmann", "Search backend, C++; https://github.com/",
         S.STRONG_HIRE, 5, [("Merge k sorted streams with bounded memory #heap #streaming", "")]),
        (Kind.CODING, 32, 17, "Arjun Mehta", "YouTube recommendations, candidate generation",
         S.LEAN_HIRE, 3, [("Top-k frequent items in a sliding window #heap #sliding window", "")]),
        (Kind.CODING, 32, 19, "Sofia Duarte", "TPU compiler team",
         S.HIRE, 4, [("Shortest path with at most k edges #graphs #dynamic programming", "")]),
    ]  # fmt: skip
    for i, (kind, days, hour, name, bg, signal, mine, qs) in enumerate(google_rounds, start=2):
        _round(
            user, g, kind, _at(ago(days), hour, 0, la), la,
            order=i, duration_minutes=45, interviewer_name=name, interviewer_background=bg,
            signal=signal, self_assessment=mine, questions=qs,
            stated_comp="Current TC about USD 400K (base 215K)" if kind == Kind.BEHAVIORAL else "",
        )  # fmt: skip
    services.debrief_save(
        user=user,
        process=g,
        data={
            "decision": Debrief.Decision.HIRE,
            "held_on": ago(24),
            "notes": "Hiring committee: hire; the level is settled with the team match.",
        },
    )
    services.team_match_create(
        user=user, process=g, team="YouTube Recommendations", manager="Dana Whitfield",
        scope="Candidate generation for Shorts; 6 engineers; owns two-tower retrieval",
        remote_openness=TeamMatch.RemoteOpenness.HYBRID, time_zone=la,
        status=TeamMatch.Status.SCHEDULED, notes="Call next Tuesday 09:00 Taipei",
    )  # fmt: skip
    services.team_match_create(
        user=user, process=g, team="Cloud AI Platform", manager="Ravi Sundaram",
        scope="Vertex feature store and online serving; staff-level scope",
        remote_openness=TeamMatch.RemoteOpenness.REMOTE_FRIENDLY, time_zone=la,
        status=TeamMatch.Status.TALKED, notes="Good fit for infra background; open to remote from Taipei for 3 months",
    )  # fmt: skip

    # Meta: target E6, came back E5 after one Strong No Hire in system design; negotiating.
    m = _process(
        user,
        company=meta,
        role="Machine Learning Engineer, Ads Ranking",
        team="Ads Ranking",
        source=Process.Source.RECRUITER,
        recruiter="Chris Alvarez",
        target_level=_level(meta, "E6"),
        offered_level=_level(meta, "E5"),
        next_step="Ask for re-levelling to E6 or E6-level stock; counter by Friday",
        deadline=today + timedelta(days=5),
        priority=Process.Priority.HIGH,
        notes="Offer at E5; recruiter hinted at a sign-on bump if I share the Google outcome.",
        history=[
            (Stage.APPLIED, ago(75)),
            (Stage.RECRUITER_SCREEN, ago(72)),
            (Stage.PHONE_SCREEN, ago(66)),
            (Stage.ONSITE, ago(50)),
            (Stage.DEBRIEF, ago(40)),
            (Stage.TEAM_MATCH, ago(38)),
            (Stage.OFFER, ago(25)),
            (Stage.NEGOTIATING, ago(20)),
        ],
    )
    meta_rounds = [
        (Kind.TEAM_MATCH, 66, 8, "Elena Novak (Director, Ads Ranking)", "Director phone screen for team match; owns ads ranking models",
         S.STRONG_HIRE, 4, [("Walk me through your biggest ranking model launch #ranking #impact", "")],
         "Current TC about USD 400K; targeting E6"),
        (Kind.CODING, 50, 9, "Tom Becker", "Feed infra, Python/C++",
         S.STRONG_HIRE, 5, [("Interval scheduling with priorities #intervals #greedy", "")], ""),
        (Kind.CODING, 50, 10, "Yuki Tanaka", "Integrity ML",
         S.STRONG_HIRE, 5, [("Serialize and deserialize an n-ary tree #trees", "")], ""),
        (Kind.SYSTEM_DESIGN, 49, 9, "Sam O'Neill", "Ran the CI for numerical kernels of ads inference (not looked up beforehand); pushed hard on capacity estimates",
         S.STRONG_NO_HIRE, 2, [("Design an ads click aggregation pipeline #system design #streaming #capacity", "")], ""),
        (Kind.ML_DESIGN, 49, 10, "Grace Liu", "Ranking research; asked about calibration and delayed feedback",
         S.STRONG_HIRE, 5, [("Design a CTR model with delayed conversions #ml design #calibration #ranking", "")], ""),
        (Kind.BEHAVIORAL, 48, 9, "Omar Haddad", "Eng manager, Ads Ranking (hiring manager)",
         S.STRONG_HIRE, 4, [("Tell me about a disagreement on roadmap #leadership #conflict", "")],
         "Repeated: current TC about USD 400K"),
    ]  # fmt: skip
    for i, (kind, days, hour, name, bg, signal, mine, qs, stated) in enumerate(meta_rounds, 1):
        _round(
            user, m, kind, _at(ago(days), hour, 0, la), la,
            order=i, duration_minutes=45, interviewer_name=name, interviewer_background=bg,
            signal=signal, self_assessment=mine, questions=qs, stated_comp=stated,
        )  # fmt: skip
    services.debrief_save(
        user=user,
        process=m,
        data={
            "decision": Debrief.Decision.HIRE_LOWER,
            "level_decided": _level(meta, "E5"),
            "held_on": ago(40),
            "notes": "Strong coding and ML design; system design Strong No Hire blocked E6. "
            "Recruiter: re-levelling possible after 6-12 months.",
        },
    )
    services.team_match_create(
        user=user, process=m, team="Ads Ranking — Conversion Modeling", manager="Omar Haddad",
        scope="Delayed-feedback conversion models for ads delivery",
        remote_openness=TeamMatch.RemoteOpenness.ONSITE, time_zone=la,
        status=TeamMatch.Status.MATCHED,
    )  # fmt: skip

    # TikTok: onsite next week in Singapore time; team match with a Singapore manager.
    t = _process(
        user,
        company=tiktok,
        role="Senior ML Engineer, Recommendation",
        team="Global Recommendation",
        source=Process.Source.INBOUND,
        recruiter="Mei Lin",
        target_level=_level(tiktok, "3-1"),
        next_step="Virtual onsite next week (Singapore time)",
        priority=Process.Priority.MEDIUM,
        notes="Asia time-zone work is the big draw; stock is private (buybacks twice a year).",
        history=[
            (Stage.APPLIED, ago(30)),
            (Stage.RECRUITER_SCREEN, ago(26)),
            (Stage.PHONE_SCREEN, ago(18)),
            (Stage.ONSITE, ago(10)),
        ],
    )
    _round(
        user, t, Kind.RECRUITER_CALL, _at(ago(26), 11, 0, sg), sg,
        order=1, duration_minutes=30, interviewer_name="Mei Lin",
        stated_comp="Said expecting total comp above current (USD 400K), no exact number",
    )  # fmt: skip
    _round(
        user, t, Kind.PHONE_SCREEN, _at(ago(18), 10, 0, sg), sg,
        order=2, duration_minutes=60, interviewer_name="Kevin Zhou",
        interviewer_background="Works on short-video ranking; asked about online learning",
        signal=S.HIRE, self_assessment=4, language="English and Mandarin",
        questions=[("Implement an LRU cache with TTL #design #hashing", ""),
                   ("How would you handle feature drift in online training? #online learning #ml design", "")],
    )  # fmt: skip
    next_week = today + timedelta(days=7)
    tiktok_onsite = [
        # The round the prep brief is for: a design round whose interviewer runs CI for
        # numerical kernels (the kind of background the Meta design round was lost on).
        (Kind.SYSTEM_DESIGN, 9, 0, "Ivan Petrov",
         "Runs the CI for numerical kernels (CUDA, HPC) on the ML compute team; maintains the GPU benchmark farm"),
        (Kind.CODING, 10, 15, "Hao Wu", "Recommendation infra, Go"),
        (Kind.ML_DESIGN, 11, 30, "Anna Sato", "Works on multi-task ranking; likes ablation questions"),
        (Kind.HIRING_MANAGER, 14, 0, "Daniel Ng", "Engineering manager, Singapore recommendation team"),
    ]  # fmt: skip
    for i, (kind, hour, minute, name, bg) in enumerate(tiktok_onsite, start=3):
        _round(
            user, t, kind, _at(next_week, hour, minute, sg), sg,
            order=i, duration_minutes=60, interviewer_name=name, interviewer_background=bg,
        )  # fmt: skip
    services.team_match_create(
        user=user, process=t, team="Recommendation Platform (Singapore)", manager="Daniel Ng",
        scope="Multi-task ranking for the For You feed; Asia time-zone work, US overlap 1-2 evenings a week",
        remote_openness=TeamMatch.RemoteOpenness.HYBRID, time_zone=sg,
        status=TeamMatch.Status.INTERESTED,
    )  # fmt: skip

    # Northwind AI: internal transfer, team match with two managers.
    n = _process(
        user,
        company=northwind,
        role="Staff ML Engineer (internal transfer)",
        team="LLM Platform",
        source=Process.Source.INTERNAL_TRANSFER,
        referrer="Current skip-level manager",
        target_level=_level(northwind, "E6"),
        next_step="Pick a manager before the quarterly transfer window closes",
        deadline=today + timedelta(days=21),
        priority=Process.Priority.LOW,
        notes="Keeps vesting and refreshers; no new sign-on.",
        history=[(Stage.APPLIED, ago(20)), (Stage.TEAM_MATCH, ago(12))],
    )
    _round(
        user, n, Kind.HIRING_MANAGER, _at(ago(12), 10, 0, taipei), taipei,
        order=1, duration_minutes=30, interviewer_name="Hannah Kim",
        interviewer_background="Manager, LLM Platform inference", signal=S.STRONG_HIRE,
        questions=[("How would you cut inference cost by 30%? #llm #inference #cost", "")],
    )  # fmt: skip
    _round(
        user, n, Kind.HIRING_MANAGER, _at(ago(10), 15, 0, taipei), taipei,
        order=2, duration_minutes=30, interviewer_name="Luis Romero",
        interviewer_background="Manager, Search Relevance", signal=S.HIRE,
    )  # fmt: skip
    services.team_match_create(
        user=user, process=n, team="LLM Platform — Inference", manager="Hannah Kim",
        scope="Serving and distillation; staff scope", remote_openness=TeamMatch.RemoteOpenness.FULLY_REMOTE,
        time_zone=taipei, status=TeamMatch.Status.INTERESTED,
    )  # fmt: skip
    services.team_match_create(
        user=user, process=n, team="Search Relevance", manager="Luis Romero",
        scope="Learning-to-rank for enterprise search", remote_openness=TeamMatch.RemoteOpenness.HYBRID,
        time_zone=la, status=TeamMatch.Status.TALKED,
    )  # fmt: skip

    return {"processes": {"Google": g, "Meta": m, "TikTok": t, "Northwind AI": n}}
