"""Whatever a board reads refreshes it: every table read while a board, or anything kept with
it (``board_derived``), is built belongs to a model whose writes replace the board's token."""

from __future__ import annotations

import re
import sys

import pytest
from django.apps import apps
from django.db import connection
from django.urls import reverse

from offers import board, board_cache
from offers.models import Job, Offer, Scenario

pytestmark = pytest.mark.django_db

TABLE = re.compile(r'\b(?:FROM|JOIN)\s+"?(\w+)"?', re.IGNORECASE)
# Frames of the code whose reads a cached board keeps.
KEPT = {board.board_build.__code__, board_cache.board_derived.__code__}


def _kept_reads(pages, client) -> set[str]:
    """GET the pages; return the tables read inside a board's build or a derivation kept with it."""
    tables: set[str] = set()

    def record(execute, sql, params, many, context):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code not in KEPT:
            frame = frame.f_back
        if frame is not None:
            tables.update(TABLE.findall(sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        for url in pages:
            assert client.get(url).status_code == 200, url
    return tables


def _pages(user) -> list[str]:
    offers = Offer.objects.filter(owner=user)
    scenarios = Scenario.objects.filter(owner=user)
    return [
        reverse("offers:dashboard"),
        reverse("offers:dashboard_chance"),
        reverse("offers:offer_compare"),
        reverse("offers:timeline"),
        reverse("offers:export_report"),
        *(reverse("offers:offer_detail", args=[o.pk]) for o in offers),
        *(reverse("offers:negotiation", args=[o.pk]) for o in offers),
        *(reverse("offers:negotiation_log", args=[o.pk]) for o in offers),
        *(reverse("offers:scenario_detail", args=[s.pk]) for s in scenarios),
    ]


def test_every_table_a_board_keeps_reads_from_is_watched(demo_user, client, reauth):
    client.force_login(demo_user)
    reauth(client)  # the export report asks for the password
    Job.objects.create(owner=demo_user, kind="export", format="csv")
    assert Scenario.objects.filter(owner=demo_user).exists()

    read = _kept_reads(_pages(demo_user), client)

    by_table = {m._meta.db_table: m for m in apps.get_models()}
    watched = {m._meta.db_table for m in board_cache.watched_models()}
    assert "offers_negotiationentry" in read  # the plan reads the log
    unwatched = {
        by_table[t]._meta.label_lower
        for t in read - watched
        if t in by_table and by_table[t]._meta.app_label in board_cache.WATCHED_APPS
    }
    assert unwatched == set()


def test_only_rows_of_background_work_are_left_unwatched():
    every = {
        m._meta.label_lower
        for label in board_cache.WATCHED_APPS
        for m in apps.get_app_config(label).get_models()
    }
    watched = {m._meta.label_lower for m in board_cache.watched_models()}
    assert "offers.negotiationentry" in watched
    assert every - watched == {"offers.scenario", "offers.job"}
