"""factory_boy factories for every app (interviews' own live in tests/interviews/factories.py)."""

from __future__ import annotations

import contextlib
import datetime as dt
from decimal import Decimal
from typing import Any

import factory
from django.contrib.auth import get_user_model

from compensation.models import Band, Company, FxRate, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from offers.models import Offer, Preferences, Scenario
from offers.scenarios.adjustments import offer_stock_currency


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "a-long-test-password")

    @classmethod
    def _after_postgeneration(cls, instance: Any, create: bool, results: Any = None) -> None:
        """Store the hashed password set after creation (factory_boy's own save is going away)."""
        if create and results:
            instance.save(update_fields=["password"])


class CompanyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Company

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Company {n}")
    ticker = "ACME"
    currency = "USD"
    share_price = Decimal("100")
    growth_pct = Decimal("5")
    volatility_pct = Decimal("30")


class LevelFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Level

    company = factory.SubFactory(CompanyFactory)
    code = factory.Sequence(lambda n: f"L{n}")
    order = factory.Sequence(lambda n: n)
    title = "Senior Engineer"
    equivalence = 5


class BandFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Band

    owner = None
    level = factory.SubFactory(LevelFactory)
    currency = "USD"
    base_min = Decimal("180000")
    base_mid = Decimal("210000")
    base_max = Decimal("240000")
    stock_min = Decimal("80000")
    stock_mid = Decimal("120000")
    stock_max = Decimal("160000")
    bonus_target_pct = Decimal("15")
    source = "illustrative"
    as_of = dt.date(2026, 10, 1)


class LocationPresetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LocationPreset

    owner = None
    name = factory.Sequence(lambda n: f"Place {n}")
    currency = "USD"
    effective_tax_pct = Decimal("30")


class FxRateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = FxRate

    owner = None
    currency = "SGD"
    to_currency = "USD"
    rate = Decimal("0.74")
    as_of = dt.date(2026, 11, 1)


class PackageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Package

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Package {n}")
    company = factory.SubFactory(CompanyFactory, owner=factory.SelfAttribute("..owner"))
    currency = "USD"
    base = Decimal("200000")
    raise_pct = Decimal("3")
    bonus_target_pct = Decimal("15")
    bonus_multiplier = Decimal("1")
    start_date = dt.date(2027, 1, 4)


class SignOnFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SignOn

    package = factory.SubFactory(PackageFactory)
    amount = Decimal("50000")
    year = 1
    clawback_months = 12


class EquityGrantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EquityGrant

    package = factory.SubFactory(PackageFactory)
    value = Decimal("400000")
    grant_price = Decimal("100")
    weights = [25.0, 25.0, 25.0, 25.0]
    cliff_months = 0
    frequency_months = 3
    vest_start = dt.date(2027, 1, 4)


class RefresherFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Refresher

    package = factory.SubFactory(PackageFactory)
    yearly_value = Decimal("50000")
    first_year = 2
    weights = [25.0, 25.0, 25.0, 25.0]
    frequency_months = 3


class OfferFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Offer

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Offer {n}")
    package = factory.SubFactory(PackageFactory, owner=factory.SelfAttribute("..owner"))
    work_timezone = "America/Los_Angeles"
    remote_policy = Offer.RemotePolicy.HYBRID
    office_days_per_week = 3
    remote_weeks_per_year = 4

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        """Save the package too: company=, level= and start_date= are its terms."""
        offer = super()._create(model_class, *args, **kwargs)
        offer.package.save()
        return offer


class PreferencesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Preferences
        django_get_or_create = ("owner",)

    owner = factory.SubFactory(UserFactory)
    home_timezone = "Asia/Taipei"


class ScenarioFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Scenario

    owner = factory.SubFactory(UserFactory)
    offer = factory.SubFactory(OfferFactory, owner=factory.SelfAttribute("..owner"))
    name = factory.Sequence(lambda n: f"Scenario {n}")
    extra_stock_yearly = Decimal("20000")
    # In the offer's grant price currency, as the services make a scenario (an unsaved
    # offer, from build(): its pay currency).
    stock_currency = factory.LazyAttribute(
        lambda o: offer_stock_currency(o.offer) if o.offer.package.pk else o.offer.package.currency
    )


with contextlib.suppress(ImportError):  # interviews' factories, once that app has them
    from tests.interviews.factories import *  # noqa: F403
