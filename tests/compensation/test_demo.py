from __future__ import annotations

from decimal import Decimal

import pytest

from compensation import demo, selectors
from compensation.models import Band, Company, FxRate, Level, LocationPreset
from compensation.selectors.fx import fx_rate_for_owner


@pytest.mark.django_db
def test_seed_reference_is_idempotent_and_illustrative():
    demo.seed_reference()
    counts = [m.objects.count() for m in (Company, Level, Band, FxRate, LocationPreset)]
    demo.seed_reference()
    assert [m.objects.count() for m in (Company, Level, Band, FxRate, LocationPreset)] == counts
    assert counts[0] == 6 and counts[1] == 30
    assert not Company.objects.exclude(owner=None).exists()
    assert all("illustrative" in c.notes for c in Company.objects.all())
    assert all("illustrative" in b.source for b in Band.objects.all())
    tiktok = Company.objects.get(name="TikTok")
    assert tiktok.is_private and tiktok.liquidity_discount_pct == 30
    assert Company.objects.get(name="Northwind AI").ticker == "NWND"


@pytest.mark.django_db
def test_seeded_ladders_line_up_across_companies():
    demo.seed_reference()
    senior = {(lv.company.name, lv.code) for lv in Level.objects.filter(equivalence=5)}
    assert {("Google", "L5"), ("Meta", "E5"), ("Amazon", "L6"), ("Apple", "ICT4")} <= senior
    assert ("TikTok", "2-2") in senior and ("Northwind AI", "E5") in senior
    meta_e5 = Band.objects.get(owner=None, level__company__name="Meta", level__code="E5")
    assert (meta_e5.base_min, meta_e5.base_mid, meta_e5.base_max) == (196000, 218000, 240000)
    assert Band.objects.filter(currency="SGD", location="Singapore").count() == 2


@pytest.mark.django_db
def test_seed_user_adds_a_private_recruiter_band_preferred_over_shared(alice, bob):
    story = demo.seed_user(alice)
    band = story["recruiter_band"]
    assert band.owner == alice and "240k" in band.source
    level = story["levels"]["Meta E5"]
    assert selectors.band_for(user=alice, level=level) == band
    assert selectors.band_for(user=bob, level=level).owner is None
    assert demo.seed_user(alice)["recruiter_band"] == band  # idempotent


@pytest.mark.django_db
def test_seeded_fx_rates(alice):
    demo.seed_reference()
    usd_twd = fx_rate_for_owner(owner_id=alice.pk, currency="USD", to_currency="TWD")
    sgd_usd = fx_rate_for_owner(owner_id=alice.pk, currency="SGD", to_currency="USD")
    assert (usd_twd, sgd_usd) == (32, Decimal("0.74"))
