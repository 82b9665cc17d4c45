"""An option's company, level and start date have one owner: its package."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

from django.urls import reverse

from compensation.models import Package
from offers.export.backup import backup_build
from offers.export.restore import backup_restore
from offers.models import Offer
from tests.factories import (
    CompanyFactory,
    EquityGrantFactory,
    LevelFactory,
    OfferFactory,
    PreferencesFactory,
)
from tests.rendered_forms import form_values

BEFORE = [("offers", "0009_transfer_held_grants")]
AFTER = [("offers", "0010_offer_terms_on_the_package")]


def test_the_option_reads_its_packages_company_level_and_start(db, alice):
    offer = OfferFactory(owner=alice)
    level = LevelFactory(company=offer.package.company)
    Package.objects.filter(pk=offer.package_id).update(level=level, start_date=dt.date(2027, 5, 3))
    offer.refresh_from_db()
    assert (offer.company, offer.level, offer.start_date) == (
        offer.package.company,
        level,
        dt.date(2027, 5, 3),
    )
    assert not {"company", "level", "start_date"} & {f.name for f in Offer._meta.fields}


def test_a_new_start_date_on_the_offer_form_moves_a_new_jobs_grants(db, client_alice, alice):
    """The package owns the start date; a new job's grants start with it, as they were valued."""
    PreferencesFactory(owner=alice)
    offer = OfferFactory(owner=alice, package__start_date=dt.date(2027, 1, 4))
    EquityGrantFactory(package=offer.package, vest_start=dt.date(2027, 1, 4))
    url = reverse("offers:offer_edit", args=[offer.pk])
    data = form_values(client_alice.get(url).content, action=url, page=url)
    assert data["start_date"] == "2027-01-04"
    data["start_date"] = "2027-03-01"
    assert client_alice.post(url, data).status_code == 302
    package = Package.objects.get(pk=offer.package_id)
    assert package.start_date == dt.date(2027, 3, 1)
    assert package.grants.get().vest_start == dt.date(2027, 3, 1)


def test_an_older_backup_moves_the_options_terms_to_its_package(db, alice, bob):
    company = CompanyFactory(owner=alice, name="Meta")
    offer = OfferFactory(
        owner=alice, package__company=company, package__start_date=dt.date(2027, 1, 4)
    )
    EquityGrantFactory(package=offer.package, vest_start=dt.date(2027, 1, 4))
    doc = backup_build(user=alice)
    # As a backup made before the package owned them: the option's own copies.
    doc["offers"][0].update(
        company=doc["packages"][0]["company"], level=None, start_date="2027-02-01"
    )
    backup_restore(user=bob, raw=json.dumps(doc))
    package = Package.objects.get(owner=bob)
    assert package.start_date == dt.date(2027, 2, 1)
    assert package.grants.get().vest_start == dt.date(2027, 2, 1)  # moved 28 days with it


def test_the_migration_gives_each_package_its_options_terms(migrate_to):
    apps = migrate_to(BEFORE)
    User = apps.get_model("auth", "User")
    Company = apps.get_model("compensation", "Company")
    Level = apps.get_model("compensation", "Level")
    Package = apps.get_model("compensation", "Package")
    Grant = apps.get_model("compensation", "EquityGrant")
    OldOffer = apps.get_model("offers", "Offer")
    user = User.objects.create(username="migrant")
    meta = Company.objects.create(owner=user, name="Meta")
    e6 = Level.objects.create(company=meta, code="E6", order=6)
    start = dt.date(2027, 1, 4)
    made = {}
    for kind in ("external", "internal"):
        package = Package.objects.create(
            owner=user, name=kind, base=Decimal("1"), start_date=start, currency="USD"
        )
        Grant.objects.create(
            package=package, value=Decimal("100"), grant_price=Decimal("1"), vest_start=start
        )
        made[kind] = OldOffer.objects.create(
            owner=user,
            name=kind,
            kind=kind,
            package=package,
            company=meta,
            level=e6,
            start_date=dt.date(2027, 3, 1),
        )
    apps = migrate_to(AFTER)
    Package = apps.get_model("compensation", "Package")
    Grant = apps.get_model("compensation", "EquityGrant")
    for kind, moved in (("external", dt.date(2027, 3, 1)), ("internal", start)):
        package = Package.objects.get(pk=made[kind].package_id)
        assert (package.company_id, package.level_id) == (meta.pk, e6.pk)
        assert package.start_date == dt.date(2027, 3, 1)
        # A new job's grants moved with its start, as it was valued; a transfer's did not.
        assert Grant.objects.get(package=package).vest_start == moved
