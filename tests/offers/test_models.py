"""Offers' models: database constraints refuse bad rows; __str__ and properties."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from offers.models import Job, Offer, Preferences, Scenario
from tests.factories import OfferFactory, PreferencesFactory, ScenarioFactory

pytestmark = pytest.mark.django_db


def _refused(queryset, **values):
    """Return True if the database refuses the update (a CheckConstraint fires)."""
    try:
        with transaction.atomic():
            queryset.update(**values)
    except IntegrityError:
        return True
    return False


@pytest.mark.parametrize(
    "values",
    [
        {"remote_weeks_per_year": 53},
        {"office_days_per_week": 8},
        {"rating_scope": 0},
        {"rating_growth": 6},
        {"rating_team": 0},
        {"rating_learning": 6},
    ],
)
def test_offer_constraints_refuse_bad_rows(alice, values):
    offer = OfferFactory(owner=alice)
    assert _refused(Offer.objects.filter(pk=offer.pk), **values)
    offer.refresh_from_db()
    assert offer.remote_weeks_per_year == 4 and offer.rating_scope is None


def test_offer_constraints_allow_the_edges(alice):
    offer = OfferFactory(owner=alice)
    assert not _refused(
        Offer.objects.filter(pk=offer.pk),
        remote_weeks_per_year=52,
        office_days_per_week=7,
        rating_scope=1,
        rating_growth=5,
        rating_team=None,
    )


@pytest.mark.parametrize(
    "values",
    [
        {"horizon_years": 0},
        {"horizon_years": 11},
        {"required_remote_weeks": 53},
        {"weight_comp": Decimal("-1")},
        {"weight_learning": Decimal("10.5")},
    ],
)
def test_preferences_constraints_refuse_bad_rows(alice, values):
    prefs = PreferencesFactory(owner=alice)
    assert _refused(Preferences.objects.filter(pk=prefs.pk), **values)


@pytest.mark.parametrize(
    "values",
    [
        {"base": Decimal("-1")},
        {"extra_sign_on": Decimal("-1")},
        {"extra_stock_yearly": Decimal("-0.01")},
        {"mc_progress": 101},
    ],
)
def test_scenario_constraints_refuse_bad_rows(alice, values):
    scenario = ScenarioFactory(owner=alice)
    assert _refused(Scenario.objects.filter(pk=scenario.pk), **values)


@pytest.mark.parametrize(
    "values", [{"progress": 101}, {"format": "pdf"}, {"kind": "restore"}, {"kind": "import"}]
)
def test_job_constraints_refuse_bad_rows(alice, values):
    job = Job.objects.create(owner=alice, kind="export", format="csv")
    assert _refused(Job.objects.filter(pk=job.pk), **values)


def test_model_validation_refuses_what_the_constraints_refuse(alice):
    offer = OfferFactory.build(owner=alice, remote_weeks_per_year=53, rating_team=9)
    with pytest.raises(ValidationError) as error:
        offer.full_clean(exclude=["package"])
    assert {"remote_weeks_per_year", "rating_team"} <= set(error.value.message_dict)


def test_str(alice):
    assert str(OfferFactory.build(owner=alice, name="Meta E5")) == "Meta E5"
    assert str(Preferences(owner=alice)) == "Preferences of alice"
    assert str(ScenarioFactory.build(owner=alice, name="Ask for stock")) == "Ask for stock"
    job = Job.objects.create(owner=alice, kind="export", format="xlsx")
    assert str(job) == f"Excel (XLSX) export #{job.pk}"
    job = Job.objects.create(owner=alice, kind="restore")
    assert str(job) == f"restore #{job.pk}"


def test_preferences_weights_are_floats_for_every_criterion(alice):
    prefs = Preferences(owner=alice, weight_comp=Decimal("3.5"), weight_team=Decimal("0"))
    weights = prefs.weights
    weight_fields = [f.name for f in Preferences._meta.fields if f.name.startswith("weight_")]
    assert sorted(weights) == sorted(name.removeprefix("weight_") for name in weight_fields)
    assert weights["comp"] == 3.5 and weights["team"] == 0.0
    assert all(isinstance(w, float) for w in weights.values())


def test_export_job_filename_carries_its_creation_time_and_format(alice):
    job = Job.objects.create(owner=alice, kind="export", format="json")
    job.created_at = dt.datetime(2027, 1, 4, 9, 30, tzinfo=dt.UTC)
    assert job.filename == "offerdesk-comparison-20270104-0930.json"
