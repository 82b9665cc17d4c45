"""Each user's board is cached and refreshed by every committed write that feeds it."""

from __future__ import annotations

import datetime as dt
import pickle
from decimal import Decimal

import pytest
import time_machine
from django.core.cache import cache
from django.utils import timezone, translation

from accounts.locking import save_if_unchanged
from compensation.models import Band, FxRate
from interviews.services import process_move_stage
from offers import board_cache, services
from offers.board import Board, board_build
from offers.board_cache import board_get, board_key
from offers.export.backup import backup_bytes
from offers.export.restore import backup_restore
from offers.models import NegotiationEntry, Preferences
from tests.factories import (
    BandFactory,
    CompanyFactory,
    EquityGrantFactory,
    FxRateFactory,
    LevelFactory,
    LocationPresetFactory,
    OfferFactory,
    PreferencesFactory,
    RefresherFactory,
    ScenarioFactory,
    SignOnFactory,
)
from tests.interviews.factories import ProcessFactory, RoundFactory

pytestmark = pytest.mark.django_db


def summary(board: Board) -> tuple[object, ...]:
    """Return every figure a page reads from a board: values, ranking and Monte Carlo."""
    return (
        board.basis,
        [
            (e.key, e.offer.name, e.values, e.component("tax"), e.remote_weeks, e.error)
            for e in board.evaluations
        ],
        [(r.key, r.rank, r.total, r.excluded, r.exclusion_reasons) for r in board.ranking],
        None if board.mc is None else {k: v.tolist() for k, v in board.mc.cumulative.items()},
        None if board.sensitivity is None else board.sensitivity.ranges,
    )


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a function as a committed write (its on-commit callbacks run)."""

    def run(fn):
        with django_capture_on_commit_callbacks(execute=True):
            return fn()

    return run


@pytest.fixture
def world(alice, bob, commit):
    """Alice: two options (one paid in SGD, one linked to a process), bob: one option."""

    def make():
        location = LocationPresetFactory(owner=alice, effective_tax_pct=Decimal("30"))
        PreferencesFactory(owner=alice, basis=Preferences.Basis.NET, home_currency="USD")
        shared_rate = FxRateFactory(currency="SGD", to_currency="USD", rate=Decimal("0.74"))
        company = CompanyFactory(owner=alice)
        level = LevelFactory(company=company, equivalence=5)
        process = ProcessFactory(owner=alice, company=company, target_level=level)
        usd = OfferFactory(
            owner=alice,
            name="Usd",
            package__company=company,
            package__location=location,
            level=level,
            process=process,
        )
        grant = EquityGrantFactory(package=usd.package)
        sgd = OfferFactory(owner=alice, name="Sgd", package__currency="SGD")
        EquityGrantFactory(package=sgd.package)
        bobs = OfferFactory(owner=bob, name="Bob's")
        PreferencesFactory(owner=bob)
        return {
            "usd": usd,
            "sgd": sgd,
            "grant": grant,
            "company": company,
            "level": level,
            "process": process,
            "location": location,
            "shared_rate": shared_rate,
            "bobs": bobs,
        }

    return commit(make)


def _save(obj, **fields):
    for name, value in fields.items():
        setattr(obj, name, value)
    obj.save()


WRITES = {
    # name: (write, whether the figures change)
    "offer (versioned update)": (
        lambda w, alice: save_if_unchanged(
            _set(w["usd"], remote_weeks_per_year=30),
            expected_version=w["usd"].version,
            fields=["remote_weeks_per_year"],
        ),
        True,
    ),
    "offer created": (lambda w, alice: OfferFactory(owner=alice, name="New"), True),
    "offer deleted": (lambda w, alice: services.offer_delete(user=alice, offer=w["sgd"]), True),
    "package": (lambda w, alice: _save(w["usd"].package, base=Decimal("310000")), True),
    "sign-on": (lambda w, alice: SignOnFactory(package=w["usd"].package), True),
    "grant changed": (lambda w, alice: _save(w["grant"], value=Decimal("900000")), True),
    "grant deleted": (lambda w, alice: w["grant"].delete(), True),
    "refresher": (lambda w, alice: RefresherFactory(package=w["usd"].package), True),
    "preferences": (
        lambda w, alice: services.preferences_save(
            user=alice,
            data={"horizon_years": 3},
            expected_version=Preferences.objects.get(owner=alice).version,
        ),
        True,
    ),
    "own FX rate": (
        lambda w, alice: FxRateFactory(
            owner=alice, currency="SGD", to_currency="USD", rate=Decimal("0.80")
        ),
        True,
    ),
    "shared FX rate": (lambda w, alice: _save(w["shared_rate"], rate=Decimal("0.70")), True),
    "location preset": (
        lambda w, alice: _save(w["location"], effective_tax_pct=Decimal("40")),
        True,
    ),
    "company": (lambda w, alice: _save(w["company"], name="Renamed Inc"), False),
    "level": (lambda w, alice: _save(w["level"], equivalence=6), False),
    "band (shared)": (lambda w, alice: BandFactory(level=w["level"]), False),
    "process": (
        lambda w, alice: _save(w["process"], target_level=LevelFactory(equivalence=7)),
        True,
    ),
    "process stage (queryset update)": (
        lambda w, alice: process_move_stage(
            user=alice, process=w["process"], stage="offer", on=dt.date(2026, 3, 1)
        ),
        False,
    ),
    "round": (lambda w, alice: RoundFactory(owner=alice, process=w["process"]), False),
    "scenario accepted": (
        lambda w, alice: services.scenario_accept(
            user=alice,
            scenario=ScenarioFactory(
                owner=alice, offer=w["usd"], extra_stock_yearly=Decimal("50000")
            ),
        ),
        True,
    ),
    "negotiation entry (an answer in words)": (
        lambda w, alice: NegotiationEntry.objects.create(
            owner=alice,
            offer=w["usd"],
            asked_on=dt.date(2026, 11, 30),
            ask="Remote",
            outcome="refused",
        ),
        False,
    ),
    "backup restored (bulk_create)": (
        lambda w, alice: backup_restore(user=alice, raw=backup_bytes(user=w["bobs"].owner)),
        True,
    ),
}


def _set(obj, **fields):
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


@pytest.mark.parametrize("name", list(WRITES))
def test_a_committed_write_refreshes_the_cached_board(name, world, alice, commit):
    write, changes = WRITES[name]
    before = board_get(user=alice)
    key = board_key(user=alice)
    assert board_get(user=alice) is before  # warm: served from the cache

    commit(lambda: write(world, alice))

    assert board_key(user=alice) != key
    after = board_get(user=alice)
    assert after is not before
    assert summary(after) == summary(board_build(user=alice))
    if changes:
        assert summary(after) != summary(before)


def test_another_users_write_leaves_the_board_alone(world, alice, bob, commit):
    before = board_get(user=alice)
    key = board_key(user=alice)
    commit(lambda: _save(world["bobs"].package, base=Decimal("999000")))
    commit(lambda: OfferFactory(owner=bob))
    assert board_key(user=alice) == key
    assert board_get(user=alice) is before


def test_a_scenario_edit_leaves_the_board_alone(world, alice, commit):
    scenario = commit(lambda: ScenarioFactory(owner=alice, offer=world["usd"]))
    before = board_get(user=alice)
    commit(
        lambda: services.scenario_update(
            user=alice,
            scenario=scenario,
            data={"extra_stock_yearly": Decimal("70000")},
            expected_version=scenario.version,
            record=False,
        )
    )
    assert board_get(user=alice) is before  # the board does not read scenarios


def test_the_cached_board_equals_a_fresh_build(world, alice):
    cached = board_get(user=alice)
    assert cache.get(board_key(user=alice)) is not None
    fresh = board_build(user=alice)
    assert summary(cached) == summary(fresh)
    assert [r.key for r in cached.ranking] == [r.key for r in fresh.ranking]
    assert len(cached.evaluations) == 2


def test_the_board_survives_pickling(world, alice):
    """The shared cache (Redis) stores the board pickled."""
    board = board_get(user=alice)
    copy = pickle.loads(pickle.dumps(board, pickle.HIGHEST_PROTOCOL))
    assert summary(copy) == summary(board)
    assert copy.evaluations[0].offer.package.grants.all()[0].value > 0  # prefetched, no query


def test_a_used_board_pickles_without_what_the_process_derived(world, alice):
    """Derived values (rendered HTML, a plan whose drafts are written on demand) stay local."""
    from offers.negotiation import plan_view_for

    board = board_get(user=alice)
    offer = board.evaluations[0].offer
    plan_view_for(user=alice, offer=offer, board=board)
    assert board.__dict__["_derived"]
    copy = pickle.loads(pickle.dumps(board, pickle.HIGHEST_PROTOCOL))
    assert "_derived" not in copy.__dict__ and summary(copy) == summary(board)


def test_uncommitted_writes_are_seen_and_not_cached(world, alice):
    before = board_get(user=alice)
    OfferFactory(owner=alice, name="Not committed yet")
    during = board_get(user=alice)
    assert "Not committed yet" in [e.offer.name for e in during.evaluations]
    assert board_get(user=alice) is not during  # built fresh each time, never cached
    assert "Not committed yet" not in [e.offer.name for e in before.evaluations]


def test_the_key_follows_the_day_and_the_language(world, alice):
    key = board_key(user=alice)
    with translation.override("zh-hant"):
        assert board_key(user=alice) != key
    # A day later on every clock, the user's home zone's included (not the server's date + 1,
    # which is the home date already for part of each day when home is ahead of the server).
    with time_machine.travel(timezone.now() + dt.timedelta(days=1), tick=False):
        assert board_key(user=alice) != key


def test_the_key_follows_the_code_version(world, alice, monkeypatch):
    key = board_key(user=alice)
    monkeypatch.setattr(board_cache, "CODE_VERSION", "another-release")
    assert board_key(user=alice) != key
    assert board_key(user=alice).endswith(":another-release")


def test_the_code_version_is_a_hash_of_the_valuations_source(tmp_path):
    (tmp_path / "engine.py").write_text("RATE = 1\n")
    first = board_cache.code_version(tmp_path, ["*.py"])
    assert board_cache.code_version(tmp_path, ["*.py"]) == first
    (tmp_path / "engine.py").write_text("RATE = 2\n")
    assert board_cache.code_version(tmp_path, ["*.py"]) != first
    # The real version covers the engine, its tax tables and the board itself.
    covered = {
        p.relative_to(board_cache.ROOT).as_posix()
        for pattern in board_cache.CODE_SOURCES
        for p in board_cache.ROOT.glob(pattern)
    }
    assert {
        "offers/board.py",
        "offers/board_hours.py",
        "offers/board_paths.py",
        "offers/valuation_basis.py",
        "compensation/engine/window.py",
        "compensation/engine/tax/data/taiwan_2025.toml",
        "offers/logic/ranking.py",
    } <= covered
    assert board_cache.code_version() == board_cache.CODE_VERSION


# 16:30 UTC on 30 Nov 2026 is already 00:30 on 1 Dec in Taipei.
NEAR_MIDNIGHT_TAIPEI = dt.datetime(2026, 11, 30, 16, 30, tzinfo=dt.UTC)


def test_a_worker_near_midnight_in_taipei_keys_the_users_date(alice, commit, monkeypatch):
    """A worker's clock is UTC; the board is valued from, and keyed by, the user's day."""
    commit(lambda: PreferencesFactory(owner=alice, home_timezone="Asia/Taipei"))
    commit(lambda: OfferFactory(owner=alice))
    before = dt.datetime(2026, 11, 30, 15, 30, tzinfo=dt.UTC)  # 23:30 on 30 Nov in Taipei
    monkeypatch.setattr("django.utils.timezone.now", lambda: before)
    yesterday = board_get(user=alice)
    assert yesterday.basis.start == dt.date(2026, 11, 30)
    assert ":2026-11-30:" in board_key(user=alice)

    # An hour later the server (UTC) is still on 30 Nov; the user is on 1 Dec.
    monkeypatch.setattr("django.utils.timezone.now", lambda: NEAR_MIDNIGHT_TAIPEI)
    from django.utils import timezone

    assert timezone.localdate() == dt.date(2026, 11, 30)
    key = board_key(user=alice)
    assert ":2026-12-01:" in key
    today = board_get(user=alice)
    assert today is not yesterday
    assert today.basis.start == dt.date(2026, 12, 1)
    assert cache.get(key) is not None  # cached under the user's date


def test_a_warm_key_asks_the_database_nothing(world, alice, django_assert_num_queries):
    board_key(user=alice)
    with django_assert_num_queries(0):
        board_key(user=alice)


def test_saving_the_home_zone_moves_the_keys_date(alice, commit, monkeypatch):
    monkeypatch.setattr("django.utils.timezone.now", lambda: NEAR_MIDNIGHT_TAIPEI)
    prefs = commit(lambda: PreferencesFactory(owner=alice, home_timezone="Europe/London"))
    assert ":2026-11-30:" in board_key(user=alice)
    prefs.home_timezone = "Asia/Taipei"
    commit(prefs.save)
    assert ":2026-12-01:" in board_key(user=alice)


def test_a_lost_token_never_brings_back_an_old_board(world, alice):
    key = board_key(user=alice)
    cache.delete(f"board-token:{alice.pk}")
    assert board_key(user=alice) != key


def test_a_cache_that_is_down_still_gives_fresh_figures(world, alice, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get_many", down)
    board = board_get(user=alice)
    assert summary(board) == summary(board_build(user=alice))


def test_a_write_while_the_cache_is_down_is_seen_when_it_returns(world, alice, commit, monkeypatch):
    """The token the write could not replace is replaced before any board is read again."""
    from config import cache as guarded

    before = board_get(user=alice)

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    with monkeypatch.context() as patch:
        patch.setattr(cache, "set", down)
        commit(lambda: _save(world["usd"].package, base=Decimal("999000")))
    during = board_get(user=alice)  # the cache is left alone for a moment: built fresh
    guarded.reset()  # the moment has passed: the cache is asked again, and answers
    after = board_get(user=alice)
    assert summary(during) == summary(after) == summary(board_build(user=alice))
    assert summary(after) != summary(before)
    assert board_get(user=alice) is after  # cached again


def test_every_model_of_the_boards_apps_is_watched():
    labels = {m._meta.label_lower for m in board_cache.watched_models()}
    assert {
        "offers.offer",
        "offers.preferences",
        "compensation.package",
        "compensation.signon",
        "compensation.equitygrant",
        "compensation.refresher",
        "compensation.fxrate",
        "compensation.company",
        "compensation.level",
        "compensation.band",
        "compensation.locationpreset",
        "interviews.process",
        "interviews.round",
        "offers.negotiationentry",
    } <= labels
    assert "offers.scenario" not in labels


def test_shared_rows_refresh_every_board(world, alice, bob, commit):
    keys = (board_key(user=alice), board_key(user=bob))
    commit(lambda: FxRate.objects.filter(owner=None).first().delete())
    assert board_key(user=alice) != keys[0]
    assert board_key(user=bob) != keys[1]
    assert Band.objects.count() == 0


def test_a_scenarios_board_follows_its_adjustments(world, alice, commit):
    from offers.scenarios.evaluation import scenario_view

    scenario = commit(lambda: ScenarioFactory(owner=alice, offer=world["usd"]))
    first = scenario_view(user=alice, scenario=scenario)
    commit(
        lambda: services.scenario_update(
            user=alice,
            scenario=scenario,
            data={"extra_stock_yearly": Decimal("90000")},
            expected_version=scenario.version,
            record=False,
        )
    )
    warm = scenario_view(user=alice, scenario=scenario)
    assert warm.original is first.original  # the board itself stayed cached
    cache.clear()
    board_cache.RECENT.clear()
    cold = scenario_view(user=alice, scenario=scenario)
    assert warm.ev.values == cold.ev.values != first.ev.values
    assert summary(warm.board)[1:3] == summary(cold.board)[1:3]
    assert [(r.key, r.rank) for r in warm.rows] == [(r.key, r.rank) for r in cold.rows]


def test_an_export_takes_the_cached_board_and_builds_none_into_the_cache(world, alice, monkeypatch):
    from offers.export import jobs

    warm = board_get(user=alice)
    seen = []
    real = jobs.comparison_build
    monkeypatch.setattr(
        jobs, "comparison_build", lambda **kw: seen.append(kw["board"]) or real(**kw)
    )
    with_cache = jobs.comparison_file(user=alice, fmt="csv")
    assert seen[0] is warm
    cache.clear()
    board_cache.RECENT.clear()
    cold = jobs.comparison_file(user=alice, fmt="csv")
    assert seen[1] is None
    assert cache.get(board_key(user=alice)) is None
    # Without the Monte Carlo band the figures and ranking are the same.
    assert cold == with_cache
