"""Synthetic users with many options and interview rounds, for the export benchmark alone.

A size the product never meets (1,000 options), so it lives with the benchmarks, not the app.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from compensation.models import Company, FxRate, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from interviews.models import Debrief, Process, Question, Round, StageChange, TeamMatch
from offers.models import Offer, Preferences, Scenario

BATCH = 1000
KINDS = ("coding", "system_design", "ml_design", "behavioral", "hiring_manager")
SIGNALS = ("strong_hire", "hire", "lean_hire", "lean_no_hire", "unknown")


@transaction.atomic
def generate_user_data(
    *, user: AbstractBaseUser, offers: int = 1000, rounds: int = 10_000
) -> dict[str, Any]:
    """Create a user's preferences, companies, ``offers`` options and ``rounds`` rounds in bulk."""
    start = dt.date(2027, 1, 4)
    Preferences.objects.create(owner=user, home_currency="USD", horizon_years=4)
    companies = Company.objects.bulk_create(
        [
            Company(
                owner=user,
                name=f'=HYPERLINK("http://x","Co {i}")' if i == 0 else f"Company {i}",
                ticker=f"C{i}",
                currency="USD",
                share_price=Decimal("100"),
                growth_pct=Decimal("5"),
                volatility_pct=Decimal("30"),
            )
            for i in range(10)
        ]
    )
    levels = Level.objects.bulk_create(
        [
            Level(company=c, code=f"L{n}", order=n, title="Engineer", equivalence=n)
            for c in companies
            for n in (4, 5, 6)
        ]
    )
    place = LocationPreset.objects.create(
        owner=user, name="My place", currency="SGD", effective_tax_pct=Decimal("17")
    )
    FxRate.objects.create(
        owner=user, currency="SGD", to_currency="USD", rate=Decimal("0.75"), as_of=start
    )
    packages = Package.objects.bulk_create(
        [
            Package(
                owner=user,
                name=f"Package {i}",
                company=companies[i % len(companies)],
                # A level of the package's own company (three per company, in order).
                level=levels[(i % len(companies)) * 3 + (i // len(companies)) % 3],
                currency="SGD" if i % 3 == 0 else "USD",
                base=Decimal(180_000 + 97 * i),
                raise_pct=Decimal("3"),
                bonus_target_pct=Decimal("15"),
                start_date=start,
                location=place if i % 3 == 0 else None,
            )
            for i in range(offers)
        ],
        batch_size=BATCH,
    )
    SignOn.objects.bulk_create(
        [SignOn(package=p, amount=Decimal("40000"), year=1) for p in packages], batch_size=BATCH
    )
    EquityGrant.objects.bulk_create(
        [
            EquityGrant(
                package=p,
                label="New hire",
                value=Decimal(300_000 + 13 * i),
                grant_price=Decimal("100"),
                vest_start=start,
                weights=[25.0, 25.0, 25.0, 25.0],
                frequency_months=3,
            )
            for i, p in enumerate(packages)
        ],
        batch_size=BATCH,
    )
    Refresher.objects.bulk_create(
        [Refresher(package=p, yearly_value=Decimal("50000"), first_year=2) for p in packages],
        batch_size=BATCH,
    )
    n_processes = max(1, offers // 2)
    processes = Process.objects.bulk_create(
        [
            Process(
                owner=user,
                company=companies[i % len(companies)],
                role=f"ML Engineer {i}",
                target_level=levels[(i % len(companies)) * 3 + 1],
                stage="onsite",
                first_contact=dt.date(2026, 9, 1),
                notes="-5 and @mention stay text",
            )
            for i in range(n_processes)
        ],
        batch_size=BATCH,
    )
    StageChange.objects.bulk_create(
        [
            StageChange(process=p, stage="onsite", changed_on=dt.date(2026, 10, 1))
            for p in processes
        ],
        batch_size=BATCH,
    )
    base_time = dt.datetime(2026, 10, 1, 1, 0, tzinfo=dt.UTC)
    round_rows = Round.objects.bulk_create(
        [
            Round(
                owner=user,
                process=processes[i % n_processes],
                order=i // n_processes + 1,
                kind=KINDS[i % len(KINDS)],
                scheduled_at=base_time + dt.timedelta(hours=i),
                signal=SIGNALS[i % len(SIGNALS)],
                interviewer_name=f"Interviewer {i}",
            )
            for i in range(rounds)
        ],
        batch_size=BATCH,
    )
    Question.objects.bulk_create(
        [
            Question(round=r, text=f"Design a feature store #{i}", tags="ml")
            for i, r in enumerate(round_rows[::2])
        ],
        batch_size=BATCH,
    )
    Debrief.objects.bulk_create(
        [Debrief(owner=user, process=p, decision="hire") for p in processes[::5]], batch_size=BATCH
    )
    TeamMatch.objects.bulk_create(
        [TeamMatch(owner=user, process=p, team="Ranking") for p in processes[::3]],
        batch_size=BATCH,
    )
    offer_rows = Offer.objects.bulk_create(
        [
            Offer(
                owner=user,
                name=f"Offer {i}",
                package=p,
                company=p.company,
                level=p.level,
                process=processes[i % n_processes] if i % 2 == 0 else None,
                remote_weeks_per_year=i % 20,
                start_date=start,
                rating_scope=1 + i % 5,
            )
            for i, p in enumerate(packages)
        ],
        batch_size=BATCH,
    )
    Scenario.objects.bulk_create(
        [
            # No stock adjustment: its currency is named all the same (a scenario always does).
            Scenario(
                owner=user,
                offer=o,
                name="Ask for more",
                extra_sign_on=Decimal("10000"),
                stock_currency="USD",
            )
            for o in offer_rows[::10]
        ],
        batch_size=BATCH,
    )
    return {"offers": offer_rows, "rounds": round_rows, "processes": processes}
