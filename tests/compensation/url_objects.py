"""Alice's objects behind every compensation URL with an id (private ones: others get 404)."""

from __future__ import annotations

from tests.factories import (
    BandFactory,
    CompanyFactory,
    FxRateFactory,
    LevelFactory,
    LocationPresetFactory,
    PackageFactory,
)


def _company(user):
    return {"pk": CompanyFactory(owner=user).pk}


def _band(user):
    level = LevelFactory(company=CompanyFactory(owner=user))
    return {"pk": BandFactory(owner=user, level=level).pk}


URL_OBJECTS = {
    "compensation:company_detail": _company,
    "compensation:company_edit": _company,
    "compensation:level_create": _company,
    "compensation:band_edit": _band,
    "compensation:band_delete": _band,
    "compensation:fx_edit": lambda user: {"pk": FxRateFactory(owner=user).pk},
    "compensation:location_edit": lambda user: {"pk": LocationPresetFactory(owner=user).pk},
    "compensation:package_detail": lambda user: {"pk": PackageFactory(owner=user).pk},
    "compensation:package_edit": lambda user: {"pk": PackageFactory(owner=user).pk},
}
