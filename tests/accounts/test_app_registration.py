"""Apps register with accounts in ready(); accounts names no app above it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from accounts import history
from accounts.history import revision_record, revision_restore
from tests.factories import EquityGrantFactory, PackageFactory

ACCOUNTS = Path(__file__).resolve().parents[2] / "accounts"


def test_apps_registered_their_restored_children():
    assert history._restored_children == {
        "compensation.signon",
        "compensation.equitygrant",
        "compensation.refresher",
        "interviews.question",
    }


def test_accounts_names_no_app_above_it():
    above = re.compile(r"\b(compensation|interviews|offers)\b")
    found = [
        f"{path.relative_to(ACCOUNTS)}:{n}: {line.strip()}"
        for path in sorted(ACCOUNTS.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if above.search(line)
    ]
    assert found == []


@pytest.mark.django_db
def test_restoring_a_package_drops_a_grant_added_after_the_snapshot(alice):
    package = PackageFactory(owner=alice)
    kept = EquityGrantFactory(package=package)
    revision = revision_record(
        user=alice, obj=package, action="changed", children=[*package.grants.all()]
    )
    EquityGrantFactory(package=package)  # added later: a registered child, so it goes
    revision_restore(user=alice, revision=revision)
    assert list(package.grants.values_list("pk", flat=True)) == [kept.pk]
