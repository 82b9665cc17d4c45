"""Parse JSON-style dicts into engine inputs (shared by the CLI and the Django app)."""

from __future__ import annotations

import dataclasses
import datetime
import typing
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypeVar

from .errors import EngineInputError, check_int, check_number
from .spec import BonusCycle, Grant, PackageSpec, Refresher, SignOn, Stock
from .vesting import SCHEDULE_KEYS, VestingSchedule, schedule_from_dict

T = TypeVar("T")


def _keys(kind: type) -> frozenset[str]:
    """Return the keys a JSON object of dataclass ``kind`` may hold: its fields' names."""
    return frozenset(f.name for f in dataclasses.fields(kind))


# ``tax_unknown`` is the app's flag, not an input; a schedule's keys stand for its ``schedule``.
PACKAGE_KEYS = _keys(PackageSpec) - {"tax_unknown"}
SIGN_ON_KEYS = _keys(SignOn)
BONUS_CYCLE_KEYS = _keys(BonusCycle)
GRANT_KEYS = SCHEDULE_KEYS | (_keys(Grant) - {"schedule"})
REFRESHER_KEYS = SCHEDULE_KEYS | (_keys(Refresher) - {"schedule"})
# The package's other terms, read as they are named: a term added to PackageSpec is an input at
# once (its checks are PackageSpec's), a dataclass one (``Stock``, ``Terms | None``) an object.
TERM_KEYS = PACKAGE_KEYS - {
    "name", "start", "base", "bonus_cycle", "sign_on", "grants", "refreshers", "stock", "as_of"
}  # fmt: skip


def _dataclass_in(hint: Any) -> type | None:
    """Return the dataclass a type hint names (``Stock``, ``Terms | None``), else None."""
    kinds = (hint, *typing.get_args(hint))
    return next((t for t in kinds if isinstance(t, type) and dataclasses.is_dataclass(t)), None)


# Each PackageSpec field's dataclass, read once (None: a plain value).
TERM_KINDS = {key: _dataclass_in(hint) for key, hint in typing.get_type_hints(PackageSpec).items()}


def _term(key: str, value: Any, strict: bool) -> Any:
    """Return a package term's value: an object of a dataclass term built, any other as given."""
    kind = TERM_KINDS[key]
    if kind is None or value is None:
        return value
    keys = _keys(kind)

    def build() -> Any:
        d = _object("", value, keys, strict)
        try:
            return kind(**{k: v for k, v in d.items() if k in keys})
        except TypeError:  # a field without a default left out
            fields = dataclasses.fields(kind)
            missing = [
                f.name for f in fields if f.name not in d and f.default is dataclasses.MISSING
            ]
            raise EngineInputError(missing[0] if missing else "", "is required") from None

    return _nested(key, build)


def _nested(prefix: str, build: Callable[[], T]) -> T:
    """Run ``build`` and re-raise input errors with their field nested under ``prefix``."""
    try:
        return build()
    except EngineInputError as error:
        raise error.with_prefix(prefix) from None


def _object(field: str, value: Any, keys: frozenset[str], strict: bool) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise EngineInputError(field, f"must be an object (got {type(value).__name__})")
    if strict:
        unknown = sorted(set(value) - keys)
        if unknown:
            name = f"{field}.{unknown[0]}" if field else unknown[0]
            raise EngineInputError(name, "unknown field")
    return value


def as_list(field: str, value: Any) -> list[Any]:
    """Return ``value`` as a list (None is empty) or raise naming ``field``."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise EngineInputError(field, f"must be a list (got {type(value).__name__})")
    return list(value)


def parse_date(field: str, value: Any) -> datetime.date:
    """Return an ISO ``YYYY-MM-DD`` string (or a date) as a date."""
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value
    try:
        return datetime.date.fromisoformat(value)  # TypeError: not a string
    except (TypeError, ValueError):
        raise EngineInputError(
            field, f"must be an ISO date like 2025-01-31 (got {value!r})"
        ) from None


def _required(d: Mapping[str, Any], key: str) -> Any:
    if d.get(key) is None:
        raise EngineInputError(key, "is required")
    return d[key]


def _schedule(d: Mapping[str, Any]) -> VestingSchedule:
    return schedule_from_dict({k: v for k, v in d.items() if k in SCHEDULE_KEYS})


def _sign_on(d: Mapping[str, Any]) -> SignOn:
    instalments = d.get("instalments")
    return SignOn(
        amount=check_number("amount", _required(d, "amount"), minimum=0.0),
        year=check_int("year", d.get("year", 1), minimum=1),
        clawback_months=check_int("clawback_months", d.get("clawback_months", 12), minimum=0),
        instalments=(
            ((0, 1.0),) if instalments is None else tuple(as_list("instalments", instalments))
        ),
        clawback_kind=d.get("clawback_kind", "prorated"),
    )


def _bonus_cycle(item: Any, strict: bool) -> BonusCycle:
    d = _object("", item, BONUS_CYCLE_KEYS, strict)
    cutoff = d.get("cutoff")
    return BonusCycle(
        start_month=d.get("start_month", 1),
        payout_month=d.get("payout_month", 3),
        payout_day=d.get("payout_day", 15),
        prorate_first_year=d.get("prorate_first_year", True),
        cutoff=None if cutoff is None else as_list("cutoff", cutoff),  # type: ignore[arg-type]
        paid_if_left=d.get("paid_if_left", False),
    )


def _grant(d: Mapping[str, Any], start: datetime.date) -> Grant:
    vest_start = d.get("vest_start")
    if d.get("value") is None and d.get("shares") is None:
        raise EngineInputError("value", "give exactly one of value or shares")
    return Grant(
        value=d.get("value"),
        shares=d.get("shares"),
        grant_price=d.get("grant_price"),
        schedule=_schedule(d),
        vest_start=start if vest_start is None else parse_date("vest_start", vest_start),
    )


def _refresher(d: Mapping[str, Any]) -> Refresher:
    return Refresher(
        yearly_value=_required(d, "yearly_value"),
        schedule=_schedule(d),
        first_year=d.get("first_year", 2),
    )


def _item(
    build: Callable[[Mapping[str, Any]], T], keys: frozenset[str], strict: bool, item: Any
) -> T:
    """Return ``build`` of ``item``, an object of ``keys`` (with ``strict``, of no others)."""
    return build(_object("", item, keys, strict))


def _items(
    pkg: Mapping[str, Any],
    field: str,
    build: Callable[[Mapping[str, Any]], T],
    keys: frozenset[str],
    strict: bool,
) -> tuple[T, ...]:
    """Return each item of the list ``pkg[field]`` built (`_item`), errors naming its index."""
    return tuple(
        _nested(f"{field}[{i}]", partial(_item, build, keys, strict, item))
        for i, item in enumerate(as_list(field, pkg.get(field)))
    )


def package_from_dict(
    d: Mapping[str, Any], *, strict: bool = True, prefix: str = ""
) -> PackageSpec:
    """Build a PackageSpec from a JSON-style dict; errors name the field like ``grants[0].weights``.

    With ``strict`` unknown keys are errors (they are usually typos).
    """

    def build() -> PackageSpec:
        pkg = _object("", d, PACKAGE_KEYS, strict)
        start = parse_date("start", _required(pkg, "start"))
        sign_on = _items(pkg, "sign_on", _sign_on, SIGN_ON_KEYS, strict)
        grants = _items(pkg, "grants", partial(_grant, start=start), GRANT_KEYS, strict)
        refreshers = _items(pkg, "refreshers", _refresher, REFRESHER_KEYS, strict)
        stock_dict = pkg.get("stock")
        stock = Stock(price=1.0) if stock_dict is None else _term("stock", stock_dict, strict)
        if (grants or refreshers) and stock_dict is None:
            raise EngineInputError("stock", "is required when there are grants or refreshers")
        cycle = pkg.get("bonus_cycle")
        bonus_cycle = (
            None if cycle is None else _nested("bonus_cycle", partial(_bonus_cycle, cycle, strict))
        )
        return PackageSpec(
            name=pkg.get("name", "offer"),
            start=start,
            base=_required(pkg, "base"),
            bonus_cycle=bonus_cycle,
            sign_on=sign_on,
            grants=grants,
            refreshers=refreshers,
            stock=stock,
            as_of=None if pkg.get("as_of") is None else parse_date("as_of", pkg["as_of"]),
            **{key: _term(key, pkg[key], strict) for key in TERM_KEYS if key in pkg},
        )

    return _nested(prefix, build) if prefix else build()


def options_from_dict(d: Any, *, strict: bool = True) -> list[PackageSpec]:
    """Return the packages of ``{"options": [...]}`` or of a single package object."""
    if isinstance(d, Mapping) and "options" in d:
        items = as_list("options", d["options"])
        if not items:
            raise EngineInputError("options", "needs at least one package")
        return [
            package_from_dict(item, strict=strict, prefix=f"options[{i}]")
            for i, item in enumerate(items)
        ]
    return [package_from_dict(d, strict=strict)]
