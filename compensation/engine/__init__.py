"""Offerdesk compensation engine: pure numeric projection of job offers."""

from __future__ import annotations

from .breakeven import breakeven
from .errors import EngineInputError
from .forfeiture import (
    forfeited_on_leave,
    next_vest_date,
    unvested_schedule,
    vest_events,
)
from .io import package_from_dict
from .projection import (
    annualized,
    assumption_terms,
    assumptions,
    project,
    project_yearly,
)
from .spec import BonusCycle, Grant, PackageSpec, Refresher, SignOn, Stock, check_instalments
from .vesting import (
    VESTING_PRESETS,
    VestingSchedule,
    check_calendar_dates,
    describe_schedule,
    schedule_from_dict,
    tranche_dates,
    vesting_fractions,
)

__all__ = [
    "VESTING_PRESETS",
    "BonusCycle",
    "EngineInputError",
    "Grant",
    "PackageSpec",
    "Refresher",
    "SignOn",
    "Stock",
    "VestingSchedule",
    "annualized",
    "assumption_terms",
    "assumptions",
    "breakeven",
    "check_calendar_dates",
    "check_instalments",
    "describe_schedule",
    "forfeited_on_leave",
    "next_vest_date",
    "package_from_dict",
    "project",
    "project_yearly",
    "schedule_from_dict",
    "tranche_dates",
    "unvested_schedule",
    "vest_events",
    "vesting_fractions",
]
