"""Each user's board, cached in Django's cache and refreshed after every write that feeds it.

The key is a fingerprint of what the board is valued from: the user's data token, the shared
data token, today's date on the user's own clock (`offers.valuation_basis.home_today`: the default decision
date, the same in a page, a Celery worker or a command whatever the server's zone), the active
language (explanations and errors are translated when the board is built) and the code's version
(:data:`CODE_VERSION`, a hash of the source that values and ranks, so a deployment never serves a
board an older release valued). A token is a random string replaced, on commit, by every
write to the user's options, packages and their parts, preferences, FX rates, companies,
levels, bands, location presets, processes and rounds (``post_save``/``post_delete`` of every
model of those apps, and :data:`accounts.signals.rows_updated` for queryset updates); a write to
shared reference data (``owner`` empty) replaces the shared token, which every key contains.
A token is random rather than a counter so that an evicted token can never bring back an old
board. Every model of those apps is watched, the negotiation log included (the plan, its drafts
and the exports read it), except the rows of background work: a row that keeps the id of the
task working on it (a scenario's Monte Carlo run, an export job) is written while that work runs,
and no board reads it (:func:`is_task_row`; ``tests/offers/test_board_reads.py`` records every
table read while a board and what is derived from it are built, and fails for one not watched).

Within a transaction that has written the user's data and not yet committed, the board is built
fresh and not cached (the cache must only hold committed data).

The cache is read and written through :mod:`config.cache`: when it is unreachable the board is
built fresh and not cached. A token this process could not replace (the cache was down when the
write committed) is replaced before this process reads a token again; until then its boards are
built fresh, so the cache coming back never serves a board older than a committed write.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from django.apps import apps
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, models, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import translation

from accounts.signals import rows_updated
from config.cache import cache_add, cache_get, cache_get_many, cache_set
from offers.board import Board, board_build
from offers.models import Preferences
from offers.recent import Recent
from offers.valuation_basis import home_date

BOARD_TIMEOUT = 24 * 3600
WATCHED_APPS = ("compensation", "interviews", "offers")
SHARED = "shared"
RECENT_BOARDS = 64
DERIVED_PER_BOARD = 32
T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
# The files whose content a cached board depends on (beyond the data the tokens follow): the
# engine and its tax tables, the pure ranking and rules, the valuation (its basis, hours and
# Monte Carlo), the bridge from packages to the engine and the translations of its texts.
CODE_SOURCES = (
    "compensation/engine/**/*.py",
    "compensation/engine/tax/data/*.toml",
    "compensation/selectors/*.py",
    "compensation/terms.py",
    "offers/logic/**/*.py",
    "offers/board.py",
    "offers/board_hours.py",
    "offers/board_paths.py",
    "offers/valuation_basis.py",
    "locale/*/LC_MESSAGES/django.mo",
)


def code_version(root: Path = ROOT, patterns: Iterable[str] = CODE_SOURCES) -> str:
    """Return a short hash of the files a board is valued by (their paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted({p for pattern in patterns for p in root.glob(pattern) if p.is_file()}):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# Read once per process: a new release is a new process.
CODE_VERSION = code_version()


def _token_key(scope: object) -> str:
    return f"board-token:{scope}"


def board_key(*, user: AbstractBaseUser) -> str | None:
    """Return the cache key of the user's board as of now (creating missing tokens).

    None when the cache cannot tell: it is unreachable, or a token is still to be replaced.
    """
    if not UNSENT.replace_all():
        return None
    keys = [_token_key(user.pk), _token_key(SHARED)]
    tokens = cache_get_many(keys)
    if tokens is None:
        return None
    for key in keys:
        if key not in tokens:
            cache_add(key, uuid.uuid4().hex, timeout=None)
            tokens[key] = cache_get(key)
            if tokens[key] is None:  # the cache failed, or dropped it again at once
                return None
    zone = _home_zone(user, tokens[keys[0]])
    if zone is None:
        return None
    today = home_date(zone).isoformat()
    language = translation.get_language() or "-"
    return f"board:{user.pk}:{tokens[keys[0]]}:{tokens[keys[1]]}:{today}:{language}:{CODE_VERSION}"


def _home_zone(user: AbstractBaseUser, token: str) -> str | None:
    """Return the user's saved home time zone ("" without saved preferences), None if unknown.

    Kept in the cache under the user's token (a write to the preferences replaces it), so a
    warm page asks the database nothing.
    """
    key = f"board-home:{user.pk}:{token}"
    zone = cache_get(key)
    if zone is None:
        zone = (
            Preferences.objects.filter(owner=user).values_list("home_timezone", flat=True).first()
        )
        zone = zone or ""
        if not cache_set(key, zone, timeout=BOARD_TIMEOUT):
            return None
    return str(zone)


class _Unsent:
    """The tokens this process failed to replace, to be replaced before any token is read."""

    def __init__(self) -> None:
        self.scopes: set[object] = set()
        self.lock = threading.Lock()

    def add(self, scope: object) -> None:
        with self.lock:
            self.scopes.add(scope)

    def replace_all(self) -> bool:
        """Replace each token still unsent; return True when none is left."""
        if not self.scopes:
            return True
        with self.lock:
            for scope in list(self.scopes):
                if not cache_set(_token_key(scope), uuid.uuid4().hex, timeout=None):
                    return False
                self.scopes.discard(scope)
        return True

    def clear(self) -> None:
        with self.lock:
            self.scopes.clear()


UNSENT = _Unsent()


class _Replace:
    """An on-commit callback replacing one token (remembers that it ran)."""

    def __init__(self, scope: object) -> None:
        self.scope = scope
        self.done = False

    def __call__(self) -> None:
        self.done = True
        if not cache_set(_token_key(self.scope), uuid.uuid4().hex, timeout=None):
            UNSENT.add(self.scope)


def _pending(scopes: Iterable[object]) -> bool:
    """Return True if this transaction wrote data of these scopes and has not committed."""
    wanted = set(scopes)
    for entry in getattr(connection, "run_on_commit", ()):
        func = entry[1]
        if isinstance(func, _Replace) and not func.done and func.scope in wanted:
            return True
    return False


def board_changed(*, owner_id: Any) -> None:
    """Refresh the board of ``owner_id`` (None: shared data, every board) once committed."""
    scope = SHARED if owner_id is None else owner_id
    if _pending((scope,)):
        return  # this transaction already refreshes it (a savepoint rolled back drops both)
    # robust: the write is committed; nothing after it may turn it into an error page.
    transaction.on_commit(_Replace(scope), robust=True)


# Unpickling a board of 50 options costs more than rendering its page, so a process keeps the
# boards it used last; the key holds the tokens read from the shared cache on every request, so
# a write seen by any process retires them at once. Boards are read-only.
RECENT: Recent[Board] = Recent(RECENT_BOARDS)


def board_get(*, user: AbstractBaseUser) -> Board:
    """Return the user's board from the cache, building and caching it on a miss."""
    if _pending((user.pk, SHARED)):
        return board_build(user=user)
    key = board_key(user=user)
    if key is None:  # the cache cannot tell: the page still shows fresh figures
        return board_build(user=user)
    board = RECENT.get(key) or cache_get(key)
    if board is None:
        board = board_build(user=user)
        cache_set(key, board, timeout=BOARD_TIMEOUT)
    RECENT.put(key, board)
    return board


def board_cached(*, user: AbstractBaseUser) -> Board | None:
    """Return the user's board if it is cached and current, else None (nothing is built)."""
    if _pending((user.pk, SHARED)):
        return None
    key = board_key(user=user)
    if key is None:  # the cache cannot tell: the caller builds what it needs
        return None
    return RECENT.get(key) or cache_get(key)  # type: ignore[no-any-return]


def board_derived(board: Board, name: str, build: Callable[[Board], T]) -> T:
    """Return what is derived from the board alone (a chart), computed once per board object.

    ``name`` must say everything else the value depends on. The last few values are kept.
    """
    derived: OrderedDict[str, Any] = board.__dict__.setdefault("_derived", OrderedDict())
    if name in derived:
        derived.move_to_end(name)
        return derived[name]  # type: ignore[no-any-return]
    value = build(board)
    derived[name] = value
    while len(derived) > DERIVED_PER_BOARD:
        derived.popitem(last=False)
    return value


def _owner_id(instance: models.Model) -> Any:
    """Return the owner whose board a row feeds (None: shared data)."""
    if hasattr(instance, "owner_id"):
        return instance.owner_id
    # A part of an owned row (a grant of a package, a level of a company): its parent's owner.
    for field in instance._meta.concrete_fields:
        if not isinstance(field, models.ForeignKey):
            continue
        parent = field.related_model
        if not any(f.name == "owner" for f in parent._meta.concrete_fields):
            continue
        parent_id = getattr(instance, field.attname)
        if parent_id is None:
            continue
        if field.is_cached(instance):  # e.g. a stage change created with its process
            return getattr(instance, field.name).owner_id
        owner = parent._default_manager.filter(pk=parent_id).values_list("owner_id", flat=True)
        return owner.first()  # None: the parent is gone, or shared
    return None


def _on_write(sender: type[models.Model], instance: models.Model, **kwargs: Any) -> None:
    board_changed(owner_id=_owner_id(instance))


def is_task_row(model: type[models.Model]) -> bool:
    """Return whether the model's rows are claimed by a background task (a ``*task_id`` field).

    Their writes follow the work (claimed, progress, result): refreshing the board on each would
    rebuild it under the page polling the job, and the board reads none of them.
    """
    return any(f.name.endswith("task_id") for f in model._meta.concrete_fields)


def watched_models() -> list[type[models.Model]]:
    """Return the models whose rows feed a board: every model of its apps but task rows."""
    return [
        model
        for label in WATCHED_APPS
        for model in apps.get_app_config(label).get_models()
        if not is_task_row(model)
    ]


def connect() -> None:
    """Listen to every write of the watched models (called from ``OffersConfig.ready``)."""
    for model in watched_models():
        uid = f"board_cache:{model._meta.label_lower}"
        post_save.connect(_on_write, sender=model, dispatch_uid=uid)
        post_delete.connect(_on_write, sender=model, dispatch_uid=uid)
        rows_updated.connect(_on_write, sender=model, dispatch_uid=uid)
