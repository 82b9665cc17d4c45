"""Record revisions of user-owned objects, move deletions to a trash, and restore them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models, transaction
from django.utils import formats, timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from accounts.models import TRASH_ACTIONS, TRASH_DAYS, Revision


def revision_record(
    *,
    user: AbstractBaseUser,
    obj: models.Model,
    action: str,
    children: Sequence[models.Model] = (),
    summary: str = "",
) -> Revision:
    """Store a snapshot of `obj` and its children as they are now."""
    return Revision.objects.create(
        owner=user,
        content_type=ContentType.objects.get_for_model(obj),
        object_id=obj.pk,
        object_repr=str(obj)[:200],
        action=action,
        snapshot=json.loads(serializers.serialize("json", [obj, *children])),
        summary=summary[:300],
    )


@transaction.atomic
def object_trash(
    *,
    user: AbstractBaseUser,
    obj: models.Model,
    children: Sequence[models.Model] = (),
    also_delete: Sequence[models.Model] = (),
) -> Revision:
    """Snapshot `obj` with its children, then delete it; restorable for TRASH_DAYS days."""
    revision = revision_record(
        user=user, obj=obj, action=Revision.Action.DELETED, children=children
    )
    obj.delete()
    for extra in also_delete:
        if extra.pk is not None:
            extra.delete()
    return revision


def replaced_data_keep(
    *, user: AbstractBaseUser, document: dict[str, Any], records: int
) -> Revision:
    """Keep the data a restore is about to replace in the trash, as one entry.

    ``document``: the user's own backup of it (the app that builds backups restores it too).
    """
    return Revision.objects.create(
        owner=user,
        content_type=ContentType.objects.get_for_model(user),
        object_id=user.pk,
        object_repr=str(user)[:200],
        action=Revision.Action.REPLACED,
        snapshot=document,
        records=records,
    )


def trash_list(*, user: AbstractBaseUser) -> models.QuerySet[Revision]:
    """Return the user's deletions (and data replaced by a restore) that can still be undone."""
    cutoff = timezone.now() - timedelta(days=TRASH_DAYS)
    return (
        Revision.objects.filter(
            owner=user, action__in=TRASH_ACTIONS, restored_at__isnull=True, created_at__gte=cutoff
        )
        .select_related("content_type")
        # Replaced data can be megabytes; the list shows none of it.
        .defer("snapshot")
    )


def history_for(*, user: AbstractBaseUser, obj: models.Model) -> models.QuerySet[Revision]:
    """Return the revisions of one object, newest first."""
    return Revision.objects.filter(
        owner=user, content_type=ContentType.objects.get_for_model(obj), object_id=obj.pk
    )


@transaction.atomic
def revision_restore(*, user: AbstractBaseUser, revision: Revision) -> models.Model:
    """Write a snapshot back: re-create a deleted object or roll a changed one back."""
    if revision.owner_id != user.pk:
        raise PermissionError("not your revision")
    if revision.is_replaced_data:
        raise ValueError("replaced data is restored by the restore of backups, not here")
    objs = list(serializers.deserialize("json", json.dumps(revision.snapshot)))
    for deserialized in objs:
        owner_id = getattr(deserialized.object, "owner_id", user.pk)
        if owner_id is not None and owner_id != user.pk:
            raise PermissionError("snapshot belongs to another user")
    _drop_missing_links(objs)
    main = objs[0].object
    model = type(main)
    if revision.action != Revision.Action.DELETED and model.objects.filter(pk=main.pk).exists():
        # Rolling back: children not in the snapshot were added later; keep the snapshot's set.
        current = model.objects.get(pk=main.pk)
        revision_record(
            user=user, obj=current, action=Revision.Action.CHANGED, summary="before restore"
        )
    for deserialized in objs:
        deserialized.save()
    if revision.action != Revision.Action.DELETED:
        _drop_children_added_later(objs)
    if hasattr(main, "version"):
        model.objects.filter(pk=main.pk).update(version=models.F("version") + 1)
    revision_restored_mark(revision=revision)
    revision_record(user=user, obj=model.objects.get(pk=main.pk), action=Revision.Action.RESTORED)
    return model.objects.get(pk=main.pk)


def revision_restored_mark(*, revision: Revision) -> None:
    """Take a restored entry out of the trash."""
    revision.restored_at = timezone.now()
    revision.save(update_fields=["restored_at"])


def _drop_missing_links(objs: list[Any]) -> None:
    """Clear optional links to rows deleted since the snapshot (an offer's deleted process).

    A required link to a missing row cannot be restored: it raises a ValidationError.
    """
    in_snapshot = {(d.object._meta.label_lower, d.object.pk) for d in objs}
    for deserialized in objs:
        obj = deserialized.object
        for field in obj._meta.concrete_fields:
            if not field.is_relation or field.related_model is None:
                continue
            target_id = getattr(obj, field.attname)
            if target_id is None:
                continue
            target = field.related_model
            if (target._meta.label_lower, target_id) in in_snapshot:
                continue
            if target._default_manager.filter(pk=target_id).exists():
                continue
            if not field.null:
                raise ValidationError(
                    _("“%(obj)s” cannot be restored: its %(field)s was deleted.")
                    % {"obj": obj, "field": field.verbose_name}
                )
            setattr(obj, field.attname, None)


# Child rows that belong wholly to a restored parent: rows added after the snapshot are removed,
# so that a restored version has exactly the grants, sign-ons and questions it had then. Each app
# names its own in AppConfig.ready(), so this module names no app above it.
_restored_children: set[str] = set()


def restored_children_register(*child_models: type[models.Model]) -> None:
    """Declare child models whose rows a restore resets to exactly the snapshot's rows."""
    _restored_children.update(m._meta.label_lower for m in child_models)


def _drop_children_added_later(objs: list[Any]) -> None:
    kept: dict[str, set[Any]] = {}
    for deserialized in objs:
        kept.setdefault(deserialized.object._meta.label_lower, set()).add(deserialized.object.pk)
    for deserialized in objs:
        parent = deserialized.object
        for relation in parent._meta.related_objects:
            child = relation.related_model
            if child._meta.label_lower not in _restored_children or not relation.one_to_many:
                continue
            stale = child.objects.filter(**{relation.field.name: parent.pk}).exclude(
                pk__in=kept.get(child._meta.label_lower, set())
            )
            stale.delete()


def trash_purge(*, now: Any = None) -> int:
    """Delete trash entries (deletions, replaced data) older than TRASH_DAYS; return how many."""
    cutoff = (now or timezone.now()) - timedelta(days=TRASH_DAYS)
    count, _ = Revision.objects.filter(action__in=TRASH_ACTIONS, created_at__lt=cutoff).delete()
    return count


def snapshots_readable(
    *, user: AbstractBaseUser, snapshots: Sequence[Sequence[dict[str, Any]]]
) -> list[list[tuple[str, str, str]]]:
    """Return each snapshot as a person reads it: (model, field, value) rows with the fields'
    verbose names, choices by their labels, yes/no, dates in the house format (Django's
    formats) and links by the linked row's name; empty values and the owner left out."""
    targets = _link_targets(user=user, snapshots=snapshots)
    return [
        [
            (str(capfirst(model._meta.verbose_name)), str(capfirst(field.verbose_name)), shown)
            for row in snapshot
            if (model := _snapshot_model(row)) is not None
            for name, value in row.get("fields", {}).items()
            if value not in (None, "", [], {}) and name != "owner"
            if (field := _snapshot_field(model, name)) is not None
            if (shown := _shown(field, value, targets))
        ]
        for snapshot in snapshots
    ]


def _snapshot_model(row: dict[str, Any]) -> type[models.Model] | None:
    try:
        return apps.get_model(str(row.get("model", "")))
    except (LookupError, ValueError):  # a model removed since the snapshot
        return None


def _snapshot_field(model: type[models.Model], name: str) -> models.Field[Any, Any] | None:
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:  # a field removed since the snapshot
        return None
    return field if isinstance(field, models.Field) else None


def _link_targets(
    *, user: AbstractBaseUser, snapshots: Sequence[Sequence[dict[str, Any]]]
) -> dict[tuple[type[models.Model], Any], str]:
    """Return the names of the rows the snapshots link to, one query per linked model."""
    wanted: dict[type[models.Model], set[Any]] = {}
    for snapshot in snapshots:
        for row in snapshot:
            model = _snapshot_model(row)
            for name, value in row.get("fields", {}).items() if model else ():
                field = _snapshot_field(model, name) if model else None
                if field is not None and field.many_to_one and value is not None:
                    wanted.setdefault(field.related_model, set()).add(value)  # type: ignore[arg-type]
    names: dict[tuple[type[models.Model], Any], str] = {}
    for target, pks in wanted.items():
        rows = target._default_manager.filter(pk__in=pks)
        if any(f.name == "owner" for f in target._meta.get_fields()):
            rows = rows.filter(models.Q(owner=user) | models.Q(owner__isnull=True))
        elif target is not type(user):
            continue  # not the user's own data: named by nothing
        names.update(((target, row.pk), str(row)) for row in rows)
    return names


def _shown(
    field: models.Field[Any, Any], value: Any, targets: dict[tuple[type[models.Model], Any], str]
) -> str:
    """Return one stored value as the pages write it."""
    if field.many_to_one:
        return targets.get((field.related_model, value), "—")  # type: ignore[arg-type]
    if isinstance(field, models.BooleanField):
        return _("Yes") if value else _("No")
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.DateTimeField):
        moment = parse_datetime(str(value))
        if moment is not None:
            return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")
    if isinstance(field, models.DateField):
        day = parse_date(str(value))
        if day is not None:
            return formats.date_format(day, "DATE_FORMAT")
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
