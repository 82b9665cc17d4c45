"""Writes for interview processes, rounds, debriefs and team matches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.fields import fields_assign
from accounts.history import object_trash, revision_record
from accounts.locking import save_if_unchanged
from accounts.models import Revision
from accounts.signals import rows_updated
from interviews.models import (
    FUNNEL_STAGES,
    TERMINAL_STAGES,
    Debrief,
    Process,
    Question,
    Round,
    Stage,
    StageChange,
    TeamMatch,
    normalize_tags,
)
from interviews.selectors import round_next_order

QuestionInput = tuple[str, str]  # (text, raw tags)


_NOT_EDITABLE = {"id", "owner", "process", "version", "created_at", "stage"}


def _editable_fields(model: type[models.Model]) -> list[str]:
    """Return the column names (attnames) of the concrete fields a user may change."""
    return [
        f.attname for f in model._meta.concrete_fields if f.name not in _NOT_EDITABLE and f.editable
    ]


def _save_locked(obj: models.Model, *, expected_version: int) -> None:
    """Save every editable field of `obj` if nobody changed it since `expected_version`."""
    fields = _editable_fields(type(obj))
    if hasattr(obj, "updated_at"):
        obj.updated_at = timezone.now()
        fields.append("updated_at")
    save_if_unchanged(obj, expected_version=expected_version, fields=fields)


# Processes ---------------------------------------------------------------------------------


@transaction.atomic
def process_create(
    *,
    user: AbstractBaseUser,
    company: Any,
    role: str,
    stage: str = Stage.APPLIED,
    first_contact: date | None = None,
    **fields: Any,
) -> Process:
    """Create a process and the first entry of its stage history."""
    process = Process(
        owner=user,
        company=company,
        role=role,
        stage=stage,
        first_contact=first_contact or timezone.localdate(),
        **fields,
    )
    process.full_clean()
    process.save()
    StageChange.objects.create(process=process, stage=stage, changed_on=process.first_contact)
    revision_record(user=user, obj=process, action=Revision.Action.CREATED)
    return process


@transaction.atomic
def process_update(
    *, user: AbstractBaseUser, process: Process, expected_version: int, data: dict[str, Any]
) -> Process:
    """Change a process's fields (not its stage); refuse if it changed meanwhile."""
    fields_assign(process, data, _editable_fields(Process))
    process.full_clean()
    _save_locked(process, expected_version=expected_version)
    revision_record(user=user, obj=process, action=Revision.Action.CHANGED)
    return process


@transaction.atomic
def process_move_stage(
    *, user: AbstractBaseUser, process: Process, stage: str, on: date | None = None, note: str = ""
) -> Process:
    """Move a process to `stage`, appending to its stage history."""
    if stage not in Stage.values:
        raise ValidationError({"stage": _("Unknown stage %(stage)s.") % {"stage": stage}})
    if stage == process.stage:
        return process
    changed_on = on or timezone.localdate()
    if changed_on < process.first_contact:
        raise ValidationError({"changed_on": _("A stage cannot change before the first contact.")})
    previous = process.get_stage_display()
    StageChange.objects.create(process=process, stage=stage, changed_on=changed_on, note=note)
    if stage == Stage.DEBRIEF and not Debrief.objects.filter(process=process).exists():
        # The history and the debrief card tell one story: a debrief held is a debrief recorded
        # (pending until its decision is entered).
        # Valid by construction (the process's owner, a pending decision, no level), so no
        # full_clean; by ids, so the caller's process does not cache it as its debrief.
        Debrief.objects.create(owner_id=process.owner_id, process_id=process.pk, held_on=changed_on)
    return _process_set(user, process, summary=f"{previous} -> {Stage(stage).label}", stage=stage)


def _process_set(
    user: AbstractBaseUser, process: Process, *, summary: str, **values: Any
) -> Process:
    """Write fields a fact elsewhere sets on a process: a new version, recorded in its history."""
    Process.objects.filter(pk=process.pk).update(
        **values, version=models.F("version") + 1, updated_at=timezone.now()
    )
    for name, value in values.items():
        setattr(process, name, value)
    process.version += 1
    rows_updated.send(sender=Process, instance=process)
    revision_record(user=user, obj=process, action=Revision.Action.CHANGED, summary=summary)
    return process


def stage_reached(current: str, stage: str) -> bool:
    """Return True if a process at `current` has already reached `stage` (or has ended)."""
    if current in TERMINAL_STAGES and current != Stage.ACCEPTED:
        return True  # an ended process stays ended: a fact elsewhere does not reopen it
    if stage in FUNNEL_STAGES and current in FUNNEL_STAGES:
        return FUNNEL_STAGES.index(current) >= FUNNEL_STAGES.index(stage)
    return current == stage


@transaction.atomic
def process_follow(
    *, user: AbstractBaseUser, process: Process, stage: str, on: date | None = None, note: str = ""
) -> Process:
    """Move a process forward to `stage` because of a fact recorded elsewhere (a debrief, an
    offer's status); never backwards, never out of an ending."""
    if stage_reached(process.stage, stage):
        return process
    day = max(on or timezone.localdate(), process.first_contact)
    return process_move_stage(user=user, process=process, stage=stage, on=day, note=note)


def process_offered_level_follow(
    *, user: AbstractBaseUser, process: Process, level: Any
) -> Process:
    """Record the level an offer names as the process's offered level (the level check reads it).

    Only a level of the process's own company's ladder; the offer's terms are the latest word.
    """
    if level is None or level.company_id != process.company_id:
        return process
    if process.offered_level_id == level.pk:
        return process
    return _process_set(
        user, process, summary=f"offered level {level.code} (from the offer)", offered_level=level
    )


def _process_children(process: Process) -> list[models.Model]:
    rounds = list(process.rounds.all())
    children: list[models.Model] = [*process.stage_changes.all(), *rounds]
    children += list(Question.objects.filter(round__in=rounds))
    children += list(Debrief.objects.filter(process=process))
    children += list(process.team_matches.all())
    return children


@transaction.atomic
def process_delete(*, user: AbstractBaseUser, process: Process) -> Revision:
    """Move a process with its rounds, debrief and team matches to the trash."""
    return object_trash(user=user, obj=process, children=_process_children(process))


# Rounds ------------------------------------------------------------------------------------


def parse_questions(raw: str) -> list[QuestionInput]:
    """Parse one question a line, tags after '#': 'Design a feature store #ml design #infra'."""
    out: list[QuestionInput] = []
    for line in raw.splitlines():
        text, _sep, tags = line.partition("#")
        text = text.strip()
        if text:
            out.append((text[:300], normalize_tags(tags)))
    return out


def format_questions(questions: Sequence[Question]) -> str:
    """Return questions in the one-a-line form parse_questions reads."""
    return "\n".join(f"{q.text} {' '.join('#' + t for t in q.tag_list)}".strip() for q in questions)


def _set_questions(round_: Round, questions: Sequence[QuestionInput]) -> None:
    round_.questions.all().delete()
    Question.objects.bulk_create(
        [Question(round=round_, text=text, tags=normalize_tags(tags)) for text, tags in questions]
    )


@transaction.atomic
def round_create(
    *,
    user: AbstractBaseUser,
    process: Process,
    questions: Sequence[QuestionInput] = (),
    **fields: Any,
) -> Round:
    """Add a round to a process (numbered after the last one unless `order` is given)."""
    if not fields.get("order"):
        fields["order"] = round_next_order(process)
    round_ = Round(owner=user, process=process, **fields)
    round_.full_clean()
    round_.save()
    if questions:
        _set_questions(round_, questions)
    revision_record(user=user, obj=round_, action=Revision.Action.CREATED)
    return round_


@transaction.atomic
def round_update(
    *,
    user: AbstractBaseUser,
    round_: Round,
    expected_version: int,
    data: dict[str, Any],
    questions: Sequence[QuestionInput] | None = None,
) -> Round:
    """Change a round; refuse if it changed since the form was opened."""
    fields_assign(round_, data, _editable_fields(Round))
    round_.full_clean()
    _save_locked(round_, expected_version=expected_version)
    if questions is not None:
        _set_questions(round_, questions)
    revision_record(
        user=user, obj=round_, action=Revision.Action.CHANGED, children=list(round_.questions.all())
    )
    return round_


@transaction.atomic
def round_delete(*, user: AbstractBaseUser, round_: Round) -> Revision:
    """Move a round and its questions to the trash."""
    return object_trash(user=user, obj=round_, children=list(round_.questions.all()))


# Debriefs and team matches -----------------------------------------------------------------


@transaction.atomic
def debrief_save(
    *,
    user: AbstractBaseUser,
    process: Process,
    data: dict[str, Any],
    expected_version: int | None = None,
) -> Debrief:
    """Create or change the debrief of a process."""
    found = Debrief.objects.filter(process=process).first()
    debrief = found or Debrief(owner=user, process=process)
    fields_assign(debrief, data, _editable_fields(Debrief))
    debrief.full_clean()
    if found is None:
        debrief.save()
    else:
        version = debrief.version if expected_version is None else expected_version
        _save_locked(debrief, expected_version=version)
    action = Revision.Action.CREATED if found is None else Revision.Action.CHANGED
    revision_record(user=user, obj=debrief, action=action)
    # A recorded debrief puts the process at least at the debrief stage, on the day it was held.
    process_follow(user=user, process=process, stage=Stage.DEBRIEF, on=debrief.held_on)
    return debrief


@transaction.atomic
def team_match_create(*, user: AbstractBaseUser, process: Process, **fields: Any) -> TeamMatch:
    """Add a team match to a process."""
    match = TeamMatch(owner=user, process=process, **fields)
    match.full_clean()
    match.save()
    revision_record(user=user, obj=match, action=Revision.Action.CREATED)
    return match


@transaction.atomic
def team_match_update(
    *, user: AbstractBaseUser, match: TeamMatch, expected_version: int, data: dict[str, Any]
) -> TeamMatch:
    """Change a team match; refuse if it changed meanwhile."""
    fields_assign(match, data, _editable_fields(TeamMatch))
    match.full_clean()
    _save_locked(match, expected_version=expected_version)
    revision_record(user=user, obj=match, action=Revision.Action.CHANGED)
    return match


@transaction.atomic
def team_match_delete(*, user: AbstractBaseUser, match: TeamMatch) -> Revision:
    """Move a team match to the trash."""
    return object_trash(user=user, obj=match)
