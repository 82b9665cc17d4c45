"""Writing a checked backup (`offers.export.restore_check`) as the user's rows.

The whole file is checked first, then everything is written in one transaction, as new rows
owned by the target user: all of the backup, or nothing.
"""

from __future__ import annotations

import dataclasses

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from accounts.history import replaced_data_keep, revision_restored_mark
from accounts.models import Revision
from offers.board_cache import board_changed
from offers.export.backup import SECTIONS, BackupError, backup_build
from offers.export.restore_check import BackupCheck, backup_check
from offers.export.restore_parse import backup_document_read, backup_parse, backup_record_count
from offers.models import Preferences

BATCH = 500


@dataclasses.dataclass
class RestoreResult:
    """What a restore created, by section."""

    counts: dict[str, int]
    preferences: bool

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + int(self.preferences)


def owned_data_trash(*, user: AbstractBaseUser) -> Revision | None:
    """Keep the user's data in the trash as one entry (their backup), then delete its rows.

    What "Replace my data" replaces, restorable for TRASH_DAYS days with
    `replaced_data_restore`. Run inside the restore's transaction: a refused or failed restore
    keeps nothing and deletes nothing. An account with no data keeps no entry. History,
    trash, jobs and the account stay; the preferences row is the restore's to replace.
    """
    document = backup_build(user=user)
    records = backup_record_count(document) + int(document["preferences"] is not None)
    kept = replaced_data_keep(user=user, document=document, records=records) if records else None
    # In reverse order: an offer before the package it protects, a process before its company;
    # the children of a row go with it.
    for section in reversed(SECTIONS):
        if section.owned_by == "owner":
            section.model.objects.filter(owner=user).delete()  # type: ignore[misc]
    return kept


def backup_restore(
    *, user: AbstractBaseUser, raw: bytes | str, replace: bool = False
) -> RestoreResult:
    """Check a backup file, then create all of it for ``user`` in one transaction, or nothing.

    ``replace``: in the same transaction, the user's own data is kept in the trash and
    deleted first, so the account then holds exactly the backup's data; a refused file
    deletes nothing and keeps nothing.
    """
    return backup_write(backup_check(user=user, doc=backup_parse(raw), replace=replace))


def backup_write(restore: BackupCheck) -> RestoreResult:
    """Write a checked backup for its user in one transaction: all of it, or BackupError."""
    user, replace = restore.user, restore.replace
    counts: dict[str, int] = {}
    try:
        with transaction.atomic():
            board_changed(owner_id=user.pk)  # bulk_create sends no post_save
            if replace:
                owned_data_trash(user=user)
            for section in SECTIONS:
                objs = list(restore.objects[section.key].values())
                section.model.objects.bulk_create(objs, batch_size=BATCH)
                counts[section.key] = len(objs)
            prefs = restore.objects["preferences"].get(1)
            if prefs is not None:
                existing = Preferences.objects.filter(owner=user).first()
                if existing is not None:
                    prefs.pk = existing.pk
                    prefs.version = existing.version + 1
                prefs.save()
            elif replace:
                Preferences.objects.filter(owner=user).delete()
    except IntegrityError as exc:
        raise BackupError([f"database: the data breaks a rule of the database ({exc})"]) from None
    return RestoreResult(counts=counts, preferences=prefs is not None)


@transaction.atomic
def replaced_data_restore(*, user: AbstractBaseUser, revision: Revision) -> RestoreResult:
    """Put back the data a restore replaced (a trash entry), in place of the data there now.

    Through the replace restore itself, in one transaction with its checks: the data there
    now goes to the trash in turn, and the entry leaves it. Raise BackupError, restoring
    nothing, if the kept document no longer passes them.
    """
    entry = Revision.objects.select_for_update().get(pk=revision.pk)  # restored once
    if entry.owner_id != user.pk or not entry.is_replaced_data or not entry.in_trash:
        raise PermissionError("not replaced data of this user still in the trash")
    doc = backup_document_read(entry.snapshot)
    result = backup_write(backup_check(user=user, doc=doc, replace=True))
    revision_restored_mark(revision=entry)
    return result
