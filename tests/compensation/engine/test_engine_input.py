"""The engine's JSON input reads every term of PackageSpec by its name (no list of keys by hand)."""

from __future__ import annotations

import dataclasses

import pytest

from compensation.engine import EngineInputError, PackageSpec, Stock, package_from_dict
from compensation.engine.io import TERM_KEYS

BASE = {"start": "2027-01-04", "base": 100_000}
# A value other than the default for each term of today's PackageSpec, by its type.
CHANGED = {"str": "SGD", "float": 7.5, "int": 3, "bool": True}


def test_a_term_added_to_the_spec_is_an_input_at_once():
    # Each term PackageSpec has beyond the ones read by their own rules (dates, lists, stock):
    # given in the JSON, it reaches the spec, so a new term cannot be dropped on the way in.
    hints = {f.name: f.type for f in dataclasses.fields(PackageSpec)}
    assert {"horizon_years", "currency", "raise_pct", "relocation", "current_job"} <= TERM_KEYS
    read = [key for key in sorted(TERM_KEYS) if str(hints[key]).split(" |")[0] in CHANGED]
    assert len(read) >= 10, read
    for key in read:
        kind = str(hints[key]).split(" |")[0]
        value = {"tax_regime": "sg"}.get(key, CHANGED[kind])
        spec = package_from_dict({**BASE, "currency": "SGD", key: value})
        assert getattr(spec, key) == value, key


def test_a_dataclass_term_is_an_object_checked_by_its_own_rules():
    spec = package_from_dict({**BASE, "stock": {"price": 12.5, "growth_pct": 4}})
    assert spec.stock == Stock(price=12.5, growth_pct=4)
    with pytest.raises(EngineInputError, match="stock.price"):
        package_from_dict({**BASE, "stock": {"growth_pct": 4}})
    with pytest.raises(EngineInputError, match="stock.colour"):
        package_from_dict({**BASE, "stock": {"price": 1, "colour": "red"}})
    with pytest.raises(EngineInputError, match="stock"):
        package_from_dict({**BASE, "stock": [1]})
