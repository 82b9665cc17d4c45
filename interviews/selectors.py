"""Reads for interview processes, rounds and questions; other apps call these."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Max, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.shortcuts import get_object_or_404
from django.utils import timezone

from compensation.models import Company
from interviews.levels import rung
from interviews.models import (
    TERMINAL_STAGES,
    Process,
    Question,
    Round,
    Stage,
    StageChange,
    TeamMatch,
)


def _next_round(now: datetime) -> QuerySet[Round]:
    return Round.objects.filter(process=OuterRef("pk"), scheduled_at__gte=now).order_by(
        "scheduled_at", "id"
    )


def process_list(*, user: AbstractBaseUser) -> QuerySet[Process]:
    """Return the user's processes with company, levels, round count and next round time."""
    now = timezone.now()
    return (
        Process.objects.filter(owner=user)
        .select_related("company", "target_level", "offered_level")
        .annotate(
            round_count=Count("rounds", distinct=True),
            next_round_at=Subquery(_next_round(now).values("scheduled_at")[:1]),
        )
    )


def process_get(*, user: AbstractBaseUser, pk: int) -> Process:
    """Return one of the user's processes with everything its page shows, or 404."""
    queryset = (
        Process.objects.filter(owner=user)
        .select_related(
            "company", "target_level", "offered_level", "debrief", "debrief__level_decided"
        )
        .prefetch_related(
            Prefetch("rounds", queryset=Round.objects.prefetch_related("questions")),
            "stage_changes",
            "team_matches",
        )
    )
    return get_object_or_404(queryset, pk=pk)


def process_get_bare(*, user: AbstractBaseUser, pk: int) -> Process:
    """Return one of the user's processes without its children (for quick writes), or 404."""
    return get_object_or_404(Process.objects.filter(owner=user).select_related("company"), pk=pk)


def process_signals(*, process: Process) -> list[str]:
    """Return the signal values of the process's rounds, in round order."""
    cached = getattr(process, "_prefetched_objects_cache", {}).get("rounds")
    if cached is not None:
        rounds = sorted(cached, key=lambda r: (r.order, r.scheduled_at or timezone.now(), r.pk))
        return [r.signal for r in rounds]
    return list(
        process.rounds.order_by("order", "scheduled_at", "id").values_list("signal", flat=True)
    )


def active_processes(*, user: AbstractBaseUser) -> QuerySet[Process]:
    """Return processes not yet ended, each with `next_round_at` annotated and its future
    rounds prefetched in `upcoming_round_list` (soonest first)."""
    now = timezone.now()
    return (
        process_list(user=user)
        .exclude(stage__in=TERMINAL_STAGES)
        .prefetch_related(
            Prefetch(
                "rounds",
                queryset=Round.objects.filter(scheduled_at__gte=now).order_by("scheduled_at"),
                to_attr="upcoming_round_list",
            )
        )
        .order_by("priority", "deadline", "company__name", "id")
    )


def upcoming_rounds(
    *, user: AbstractBaseUser, now: datetime | None = None, limit: int | None = 10
) -> QuerySet[Round]:
    """Return the user's next rounds of processes still running, soonest first (``limit``
    of them; None: every one)."""
    now = now or timezone.now()
    return (
        Round.objects.filter(owner=user, process__owner=user, scheduled_at__gte=now)
        .exclude(process__stage__in=TERMINAL_STAGES)
        .select_related("process", "process__company")
        .order_by("scheduled_at", "id")[:limit]
    )


def upcoming_deadlines(*, user: AbstractBaseUser, today: date | None = None) -> QuerySet[Process]:
    """Return running processes with a deadline today or later, soonest first."""
    today = today or timezone.localdate()
    return (
        Process.objects.filter(owner=user, deadline__gte=today)
        .exclude(stage__in=TERMINAL_STAGES)
        .select_related("company")
        .order_by("deadline", "id")
    )


def process_board(*, user: AbstractBaseUser) -> list[dict[str, Any]]:
    """Return one column a stage with its processes (one query whatever the count).

    Endings other than "accepted" are flagged `terminal` so the board can hide them when empty.
    """
    by_stage: dict[str, list[Process]] = {s: [] for s in Stage.values}
    for process in process_list(user=user):
        by_stage[process.stage].append(process)
    return [
        {
            "stage": value,
            "label": label,
            "terminal": value in TERMINAL_STAGES and value != Stage.ACCEPTED,
            "processes": by_stage[value],
        }
        for value, label in Stage.choices
    ]


def round_get(*, user: AbstractBaseUser, pk: int) -> Round:
    """Return one of the user's rounds, or 404."""
    return get_object_or_404(
        Round.objects.filter(owner=user, process__owner=user)
        .select_related("process", "process__company")
        .prefetch_related("questions"),
        pk=pk,
    )


def round_next_order(process: Process) -> int:
    """Return the number the next round of `process` takes: one after the highest."""
    return (process.rounds.aggregate(m=Max("order"))["m"] or 0) + 1


def team_match_get(*, user: AbstractBaseUser, pk: int) -> TeamMatch:
    """Return one of the user's team matches, or 404."""
    return get_object_or_404(
        TeamMatch.objects.filter(owner=user, process__owner=user).select_related(
            "process", "process__company"
        ),
        pk=pk,
    )


def company_choices(*, user: AbstractBaseUser) -> QuerySet[Company]:
    """Return the companies a user may pick: shared ones and their own."""
    return Company.objects.filter(Q(owner__isnull=True) | Q(owner=user))


def tag_q(tag: str) -> Q:
    return (
        Q(tags=tag)
        | Q(tags__startswith=f"{tag},")
        | Q(tags__endswith=f",{tag}")
        | Q(tags__contains=f",{tag},")
    )


def question_search(
    *,
    user: AbstractBaseUser,
    tag: str = "",
    company_id: int | None = None,
    kind: str = "",
    text: str = "",
) -> QuerySet[Question]:
    """Return the user's questions filtered by exact tag, company, round kind and text."""
    qs = Question.objects.filter(round__owner=user, round__process__owner=user)
    tag = " ".join(tag.strip().lower().lstrip("#").split())
    if tag:
        qs = qs.filter(tag_q(tag))
    if company_id:
        qs = qs.filter(round__process__company_id=company_id)
    if kind:
        qs = qs.filter(round__kind=kind)
    if text:
        qs = qs.filter(Q(text__icontains=text) | Q(tags__icontains=text))
    return qs.select_related("round", "round__process", "round__process__company").order_by(
        "-round__scheduled_at", "round__process__company__name", "id"
    )


def question_tags(*, user: AbstractBaseUser) -> list[str]:
    """Return every tag the user has used, alphabetically."""
    tags: set[str] = set()
    for raw in Question.objects.filter(round__owner=user).values_list("tags", flat=True):
        tags.update(t for t in raw.split(",") if t)
    return sorted(tags)


def process_companies(*, user: AbstractBaseUser) -> QuerySet[Company]:
    """Return the companies the user has processes with."""
    return Company.objects.filter(interview_processes__owner=user).distinct().order_by("name")


def calendar_rounds(*, user: AbstractBaseUser, now: datetime | None = None) -> QuerySet[Round]:
    """Return every scheduled round from a day ago on, for the calendar export."""
    now = now or timezone.now()
    return (
        Round.objects.filter(
            owner=user, process__owner=user, scheduled_at__gte=now - timedelta(days=1)
        )
        .exclude(process__stage__in=TERMINAL_STAGES)
        .select_related("process", "process__company")
        .order_by("scheduled_at", "id")
    )


def analytics_input(*, user: AbstractBaseUser) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the plain data interviews.analytics.interview_stats reads (three queries)."""
    processes = (
        Process.objects.filter(owner=user)
        .select_related(
            "company", "target_level", "offered_level", "debrief", "debrief__level_decided"
        )
        .prefetch_related(
            Prefetch("stage_changes", queryset=StageChange.objects.order_by("changed_on", "id"))
        )
        .order_by("company__name", "id")
    )

    plain_processes = []
    for p in processes:
        debrief = getattr(p, "debrief", None)  # a missing reverse one-to-one raises
        offered = p.offered_level or (debrief.level_decided if debrief else None)
        plain_processes.append(
            {
                "id": p.pk,
                "name": str(p),
                "company": p.company.name,
                "first_contact": p.first_contact,
                "history": [(c.stage, c.changed_on) for c in p.stage_changes.all()],
                "target_level": rung(p.target_level),
                "offered_level": rung(offered),
            }
        )
    plain_rounds = [
        {
            "process_id": r["process_id"],
            "company": r["process__company__name"],
            "kind": r["kind"],
            "signal": r["signal"],
            "order": r["order"],
        }
        for r in Round.objects.filter(owner=user, process__owner=user)
        .order_by("process_id", "order", "scheduled_at", "id")
        .values("process_id", "process__company__name", "kind", "signal", "order")
    ]
    return plain_processes, plain_rounds


def comparison_processes(*, user: AbstractBaseUser) -> QuerySet[Process]:
    """Return the user's processes for the comparison export, with their round counts."""
    return (
        Process.objects.filter(owner=user)
        .select_related("company", "target_level", "offered_level", "debrief")
        .annotate(n_rounds=Count("rounds"))
        .order_by("company__name", "role", "id")
    )


def comparison_rounds(*, user: AbstractBaseUser) -> QuerySet[Round]:
    """Return the user's rounds for the comparison export, with their questions."""
    return (
        Round.objects.filter(owner=user)
        .select_related("process__company")
        .prefetch_related("questions")
        .order_by("process__company__name", "process__role", "process_id", "order", "id")
    )
