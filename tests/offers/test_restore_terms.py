"""A restored package is what the package writer would have written: same terms, same value."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from decimal import Decimal

import pytest

from compensation.models import Package
from compensation.selectors import package_terms
from compensation.services import package_create
from offers.board import board_build
from offers.export.backup import backup_build
from offers.export.restore import backup_restore
from offers.models import Offer
from tests.factories import (
    CompanyFactory,
    FxRateFactory,
    LevelFactory,
    OfferFactory,
    PreferencesFactory,
)
from tests.offers.test_backup import refused

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 12, 1)


def comparable(terms):
    """Return terms without row ids, with the level and place as what a user sees of them."""
    return dataclasses.replace(
        terms,
        level=terms.level.code if terms.level is not None else None,
        location=terms.location.name if terms.location is not None else None,
        sign_ons=tuple(dataclasses.replace(s, id=None) for s in terms.sign_ons),
        grants=tuple(dataclasses.replace(g, id=None) for g in terms.grants),
        refreshers=tuple(dataclasses.replace(r, id=None) for r in terms.refreshers),
    )


@pytest.fixture
def typed_in(alice):
    """A package written by the package service, as the package page writes one."""
    PreferencesFactory(owner=alice, home_currency="TWD", horizon_years=4)
    FxRateFactory(currency="USD", to_currency="TWD", rate=Decimal("32"))
    company = CompanyFactory(owner=alice, name="Amazon-like", share_price=Decimal("180"))
    level = LevelFactory(company=company, code="L6")
    package = package_create(
        user=alice,
        fields={
            "name": "Taipei L6",
            "company": company,
            "level": level,
            "currency": "TWD",
            "base": Decimal("3600000"),
            "bonus_target_pct": Decimal("15"),
            "start_date": dt.date(2027, 3, 1),
        },
        sign_ons=[
            {"amount": Decimal("500000"), "year": 1, "instalments": [[0, 0.5], [6, 0.5]]},
            {"amount": Decimal("300000"), "year": 2},
        ],
        grants=[
            {
                "label": "New-hire grant",
                "shares": Decimal("400"),
                "grant_price": Decimal("180"),
                "price_currency": "USD",
                "vest_start": dt.date(2027, 3, 1),
                "weights": [5, 15, 40, 40],
                "cliff_months": 12,
                "frequency_months": 6,
                "year_frequencies": [12, 12, 6, 6],
            },
            {
                "label": "Quarterly",
                "value": Decimal("40000"),
                "grant_price": Decimal("175.5"),
                "vest_start": dt.date(2027, 3, 1),
                "vest_dates": [[2, 15], [5, 15], [8, 15], [11, 15]],
            },
        ],
        refreshers=[{"yearly_value": Decimal("20000"), "first_year": 2}],
    )
    return OfferFactory(owner=alice, name="Taipei", package=package)


def test_backup_then_restore_gives_the_same_terms_and_the_same_value(alice, bob, typed_in):
    PreferencesFactory(owner=bob, home_currency="TWD", horizon_years=4)
    backup_restore(user=bob, raw=json.dumps(backup_build(user=alice)))
    restored = Offer.objects.get(owner=bob, name="Taipei")
    original = Package.objects.prefetch_related("sign_ons", "grants", "refreshers").get(
        pk=typed_in.package_id
    )
    copy = Package.objects.prefetch_related("sign_ons", "grants", "refreshers").get(
        pk=restored.package_id
    )
    assert copy.pk != original.pk
    assert comparable(package_terms(copy)) == comparable(package_terms(original))
    # The board values them alike, to the unit (a TWD figure over the 4-year window).
    mine = board_build(user=alice, today=TODAY, mc_paths=0).evaluation(str(typed_in.pk))
    theirs = board_build(user=bob, today=TODAY, mc_paths=0).evaluation(str(restored.pk))
    assert not mine.error and not theirs.error
    assert round(theirs.value) == round(mine.value)
    assert mine.value > 0


def test_a_package_the_writer_refuses_is_refused_by_the_restore_with_its_message(alice, bob):
    """A level of another company's ladder: the package page refuses it, so does a restore.

    On the old code the restore wrote the rows directly and took it.
    """
    own = CompanyFactory(owner=alice, name="Own Co")
    other = CompanyFactory(owner=alice, name="Other Co")
    LevelFactory(company=own, code="S1")
    LevelFactory(company=other, code="X9")
    OfferFactory(owner=alice, company=own, name="O1")
    doc = backup_build(user=alice)
    other_level = next(lv["id"] for lv in doc["levels"] if lv["code"] == "X9")
    doc["packages"][0]["level"] = other_level
    assert refused(bob, json.dumps(doc)) == [
        "packages[0].level: Choose a level of the package's company."
    ]


def test_a_grant_the_writer_refuses_names_its_own_record(alice, bob, typed_in):
    """The writer's check of a child row is reported at that row of the file."""
    doc = backup_build(user=alice)
    doc["grants"][1]["vest_dates"] = [[2, 30]]  # 30 February
    errors = refused(bob, json.dumps(doc))
    assert len(errors) == 1 and errors[0].startswith("grants[1].vest_dates:"), errors
