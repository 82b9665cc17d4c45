"""The demo user's options and preferences: illustrative figures, labelled so."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from compensation.engine.dates import add_months
from compensation.models import Company, Level, LocationPreset, Package
from compensation.package_parts import EquityGrant, Refresher, SignOn
from offers import services
from offers.models import NegotiationEntry, Offer, Preferences, Scenario

K = Decimal(1000)
EVEN = [25.0, 25.0, 25.0, 25.0]
# Meta vests on fixed days whatever the start date (the "meta_quarterly" preset).
META_DATES = [[2, 15], [5, 15], [8, 15], [11, 15]]
ILLUSTRATIVE = "Illustrative figures for the demo; not a real offer."


def _company(name: str) -> Company:
    return Company.objects.get(name=name, owner__isnull=True)


def _level(company: Company, code: str) -> Level:
    return Level.objects.get(company=company, code=code)


def _location(name: str) -> LocationPreset | None:
    return LocationPreset.objects.filter(name=name, owner__isnull=True).first()


def _package(
    user: AbstractBaseUser, name: str, company: Company, level: Level, **fields: Any
) -> Package:
    package = Package(owner=user, name=name, company=company, level=level, **fields)
    package.full_clean()
    package.save()
    return package


def _grant(
    package: Package,
    label: str,
    value: Decimal,
    price: Decimal,
    start: dt.date,
    weights: list[float],
    frequency: int,
    cliff: int = 0,
    price_currency: str = "",
    vest_dates: list[list[int]] | None = None,
) -> EquityGrant:
    grant = EquityGrant(
        package=package,
        label=label,
        value=value,
        grant_price=price,
        price_currency=price_currency,
        vest_start=start,
        weights=weights,
        frequency_months=frequency,
        cliff_months=cliff,
        vest_dates=vest_dates,
    )
    grant.full_clean()
    grant.save()
    return grant


def _offer(user: AbstractBaseUser, package: Package, **fields: Any) -> Offer:
    offer = Offer(owner=user, package=package, **fields)
    offer.full_clean()
    offer.save()
    services.offer_process_follow(user=user, offer=offer)
    return offer


def seed_user(user: AbstractBaseUser, story: dict[str, Any]) -> dict[str, Any]:
    """Create the demo user's preferences and five options, linked to their interview loops."""
    today = timezone.localdate()
    processes: dict[str, Any] = story.get("processes", {})
    northwind, meta, google, tiktok = (
        _company(n) for n in ("Northwind AI", "Meta", "Google", "TikTok")
    )
    start = today + dt.timedelta(days=75)

    Preferences.objects.update_or_create(
        owner=user,
        defaults={
            "home_timezone": "Asia/Taipei",
            "day_start": dt.time(8),
            "day_end": dt.time(23),
            "family_start": dt.time(18),
            "family_end": dt.time(21),
            "required_remote_weeks": 8,
            "min_first_year_total": Decimal("200000"),
            "relocation_ok": True,
            "horizon_years": 4,
            "home_currency": "USD",
            "basis": Preferences.Basis.NET,
            "risk_percentile": Preferences.StockPrice.ASSUMED,
            # The chance of the best choice: unsure by a fifth how much each criterion
            # matters, and averse to risk (a certainty equivalent beside each value).
            "market_correlation": 50,
            "uncertainty_of_weights": 20,
            "risk_aversion": Decimal("2"),
            "weight_comp": Decimal("2"),
            "weight_remote": Decimal("3"),
            "weight_timezone": Decimal("3"),
            "weight_level": Decimal("1"),
            "weight_scope": Decimal("1"),
            "weight_growth": Decimal("1"),
            "weight_team": Decimal("1"),
            "weight_learning": Decimal("1"),
        },
    )

    # The current job: four years in, a large pile of unvested refreshers (golden handcuffs).
    current = _package(
        user,
        "Northwind AI (current job)",
        northwind,
        _level(northwind, "E5"),
        is_current_job=True,
        currency="USD",
        base=Decimal("205000"),
        raise_pct=Decimal("3"),
        bonus_target_pct=Decimal("15"),
        bonus_multiplier=Decimal("1.1"),
        # A calendar-year bonus paid in March, only to those still employed then: leaving
        # before March forfeits the year's bonus. Entered as a person holds it: hired four
        # years ago (raises on its anniversaries), today's base, the grants on their own dates.
        bonus_cycle="calendar",
        bonus_payout_month=3,
        bonus_prorate_first_year=False,
        start_date=add_months(today, -48),
        location=_location("San Francisco Bay Area"),
        tax_regime="us-ca",
    )
    grants = [
        ("Initial grant (2022)", Decimal("360000"), Decimal("95"), dt.date(2022, 12, 1)),
        ("Refresher 2024", Decimal("200000"), Decimal("120"), dt.date(2024, 3, 1)),
        ("Refresher 2025", Decimal("240000"), Decimal("150"), dt.date(2025, 3, 1)),
        ("Refresher 2026", Decimal("280000"), Decimal("170"), dt.date(2026, 3, 1)),
    ]
    for label, value, price, vest_start in grants:
        _grant(current, label, value, price, vest_start, EVEN, 3)
    Refresher.objects.create(
        package=current,
        yearly_value=Decimal("240000"),
        first_year=1,
        weights=EVEN,
        frequency_months=3,
    )
    stay = _offer(
        user,
        current,
        name="Stay at Northwind AI",
        kind=Offer.Kind.STAY,
        status=Offer.Status.RECEIVED,
        team="Ranking ML",
        title="Senior ML Engineer",
        location="Mountain View",
        work_timezone="America/Los_Angeles",
        remote_policy=Offer.RemotePolicy.HYBRID,
        office_days_per_week=3,
        remote_weeks_per_year=2,
        relocation_required=False,
        rating_scope=3,
        rating_growth=2,
        rating_team=4,
        rating_learning=2,
        notes="New manager allows two weeks of remote work a year. " + ILLUSTRATIVE,
    )

    # Internal transfer to the Taipei R&D centre: keeps every unvested grant, local pay.
    transfer = _package(
        user,
        "Northwind AI Taipei (internal transfer)",
        northwind,
        _level(northwind, "E5"),
        currency="TWD",
        base=Decimal("4800000"),
        raise_pct=Decimal("3"),
        bonus_target_pct=Decimal("15"),
        bonus_multiplier=Decimal("1"),
        start_date=start,
        location=_location("Taipei"),
        tax_regime="tw",
    )
    # Pay is in TWD; the parent's stock stays priced in USD, so the refreshers are USD values
    # (a refresher of USD 118,750 is about TWD 3.8 million). Every grant the current job holds
    # on the move date keeps vesting: the valuation adds them, so the transfer holds none.
    Refresher.objects.create(
        package=transfer,
        yearly_value=Decimal("118750"),
        first_year=2,
        weights=EVEN,
        frequency_months=3,
    )
    _offer(
        user,
        transfer,
        name="Internal transfer: Northwind Taipei",
        kind=Offer.Kind.INTERNAL,
        status=Offer.Status.RECEIVED,
        process=processes.get("Northwind AI"),
        team="Applied ML Taipei",
        title="Senior ML Engineer",
        location="Taipei",
        work_timezone="Asia/Taipei",
        remote_policy=Offer.RemotePolicy.HYBRID,
        office_days_per_week=2,
        remote_weeks_per_year=12,
        relocation_required=True,
        deadline=today + dt.timedelta(days=30),
        rating_scope=3,
        rating_growth=3,
        rating_team=3,
        rating_learning=3,
        notes="Keeps the unvested stock; pay localised to Taiwan. " + ILLUSTRATIVE,
    )

    # Meta: target E6, offered E5 at the top of the band; stock raised to E6 level needs VP approval.
    meta_pkg = _package(
        user,
        "Meta E5 offer",
        meta,
        _level(meta, "E5"),
        currency="USD",
        base=Decimal("240000"),
        raise_pct=Decimal("3"),
        bonus_target_pct=Decimal("15"),
        bonus_multiplier=Decimal("1"),
        relocation=Decimal("0"),
        start_date=start,
        location=_location("San Francisco Bay Area"),
        tax_regime="us-ca",
    )
    _grant(
        meta_pkg,
        "New-hire RSUs (E5 top of band)",
        Decimal("600000"),
        meta.share_price,
        start,
        EVEN,
        3,
        vest_dates=META_DATES,
    )
    # Half on the first day, half six months later; leaving within a year of a payment
    # repays it pro rata of the months not served.
    SignOn.objects.create(
        package=meta_pkg,
        amount=Decimal("50000"),
        year=1,
        clawback_months=12,
        clawback_kind="prorated",
        instalments=[[0, 0.5], [6, 0.5]],
    )
    Refresher.objects.create(
        package=meta_pkg,
        yearly_value=Decimal("100000"),
        first_year=2,
        weights=EVEN,
        frequency_months=3,
        vest_dates=META_DATES,
    )
    meta_offer = _offer(
        user,
        meta_pkg,
        name="Meta E5 (Menlo Park)",
        kind=Offer.Kind.EXTERNAL,
        status=Offer.Status.NEGOTIATING,
        process=processes.get("Meta"),
        target_level=_level(meta, "E6"),
        team="Ads Ranking",
        title="Software Engineer, ML",
        location="Menlo Park",
        work_timezone="America/Los_Angeles",
        remote_policy=Offer.RemotePolicy.HYBRID,
        office_days_per_week=3,
        remote_weeks_per_year=4,
        deadline=today + dt.timedelta(days=6),
        shareable=True,
        rating_scope=4,
        rating_growth=4,
        rating_team=4,
        rating_learning=4,
        notes="Base at the top of the E5 band; recruiter says stock can go to E6 level with VP approval. "
        + ILLUSTRATIVE,
    )

    # Google: front-loaded 33/33/22/12 monthly.
    google_pkg = _package(
        user,
        "Google L5 offer",
        google,
        _level(google, "L5"),
        currency="USD",
        base=Decimal("222000"),
        raise_pct=Decimal("3"),
        bonus_target_pct=Decimal("15"),
        bonus_multiplier=Decimal("1"),
        start_date=start,
        location=_location("San Francisco Bay Area"),
        tax_regime="us-ca",
    )
    _grant(
        google_pkg,
        "GSUs",
        Decimal("480000"),
        google.share_price,
        start,
        [33.0, 33.0, 22.0, 12.0],
        1,
    )
    SignOn.objects.create(package=google_pkg, amount=Decimal("30000"), year=1, clawback_months=12)
    Refresher.objects.create(
        package=google_pkg,
        yearly_value=Decimal("90000"),
        first_year=2,
        weights=[33.0, 33.0, 22.0, 12.0],
        frequency_months=1,
    )
    _offer(
        user,
        google_pkg,
        name="Google L5 (Mountain View)",
        kind=Offer.Kind.EXTERNAL,
        status=Offer.Status.RECEIVED,
        process=processes.get("Google"),
        team="Cloud AI",
        title="Senior Software Engineer, ML",
        location="Mountain View",
        work_timezone="America/Los_Angeles",
        remote_policy=Offer.RemotePolicy.HYBRID,
        office_days_per_week=3,
        remote_weeks_per_year=4,
        deadline=today + dt.timedelta(days=14),
        shareable=True,
        rating_scope=3,
        rating_growth=3,
        rating_team=4,
        rating_learning=3,
        notes=ILLUSTRATIVE,
    )

    # TikTok Singapore: Asia time-zone team, private stock, process still running (expected figures).
    tiktok_pkg = _package(
        user,
        "TikTok 2-2 Singapore (expected)",
        tiktok,
        _level(tiktok, "2-2"),
        currency="SGD",
        base=Decimal("300000"),
        raise_pct=Decimal("3"),
        bonus_target_pct=Decimal("25"),
        bonus_multiplier=Decimal("1"),
        relocation=Decimal("25000"),
        start_date=start,
        location=_location("Singapore"),
        tax_regime="sg",
    )
    # Paid in SGD, stock priced in USD: the band median of SGD 90,000 a year over four
    # years is SGD 360,000, quoted as USD 266,400 at 1 SGD = 0.74 USD (illustrative).
    _grant(
        tiktok_pkg,
        "RSUs (private, band median)",
        Decimal("266400"),
        tiktok.share_price,
        start,
        [20.0, 25.0, 25.0, 30.0],
        3,
        cliff=12,
        price_currency="USD",
    )
    tiktok_offer = _offer(
        user,
        tiktok_pkg,
        name="TikTok Singapore (expected)",
        kind=Offer.Kind.EXTERNAL,
        status=Offer.Status.DRAFT,
        process=processes.get("TikTok"),
        team="Recommendation Infra",
        title="ML Engineer",
        location="Singapore",
        work_timezone="Asia/Singapore",
        remote_policy=Offer.RemotePolicy.HYBRID,
        office_days_per_week=3,
        remote_weeks_per_year=10,
        relocation_required=True,
        rating_scope=4,
        rating_growth=4,
        rating_team=3,
        rating_learning=4,
        notes="Team works Asia hours; figures expected from the band until the offer arrives. "
        + ILLUSTRATIVE,
    )
    log = seed_negotiation_log(user, meta_offer, tiktok_offer, today)
    meta_offer.refresh_from_db()
    # The negotiation on Meta: the E6 band's midpoint stock, or comp traded for remote. After
    # the log's revised offer the grant is already at the E6 band's bottom (USD 180,000 a year):
    # the scenario adds only what is missing to the midpoint.
    e6 = e6_midpoint_scenario(user, meta_offer)
    remote = Scenario(
        owner=user,
        offer=meta_offer,
        name="Trade comp for remote",
        remote_weeks_per_year=12,
        extra_stock_yearly=Decimal("0"),
        stock_currency="USD",
        notes="Keep the offered pay and ask for 12 remote weeks a year in writing instead. "
        + ILLUSTRATIVE,
    )
    for scenario in (e6, remote):
        if scenario is None:
            continue
        scenario.full_clean()
        scenario.save()
    # Meta's plan played out as "Play it out" does: the scenario the plan's asks make.
    from_plan = services.scenario_create_from_plan(user=user, offer=meta_offer)
    # TikTok pays in SGD and grants USD-priced stock: its scenario's stock is asked in USD.
    tiktok_stock = services.scenario_create(
        user=user,
        offer=tiktok_offer,
        data={
            "name": "USD 20,000 more stock a year",
            "extra_stock_yearly": Decimal("20000"),
            "notes": "Stock is granted in USD whatever the salary's currency. " + ILLUSTRATIVE,
        },
    )
    return {
        "stay": stay,
        "meta_offer": meta_offer,
        "scenarios": {
            "e6_stock": e6,
            "remote": remote,
            "plan": from_plan,
            "tiktok_stock": tiktok_stock,
        },
        "negotiation_log": log,
    }


# Meta's E6 band stock a year, bottom (compensation/demo.py, illustrative).
E6_BAND_STOCK_MIN = Decimal("180000")


def e6_midpoint_scenario(user: AbstractBaseUser, meta_offer: Offer) -> Scenario | None:
    """Return the scenario asking for the E6 band's midpoint stock (unsaved), or None.

    It adds the difference between the band's midpoint and the stock the offer already has a
    year (both in USD), so it never adds E6 stock on top of E6 stock; None once the offer has
    the midpoint or more.
    """
    from compensation.selectors import band_for, yearly_stock_value

    level = Level.objects.filter(company=meta_offer.company, code="E6").first()
    band = band_for(user=user, level=level, currency=meta_offer.package.currency)
    if band is None:
        return None
    held = yearly_stock_value(meta_offer.package).quantize(Decimal("1"))
    missing = band.stock_mid - held
    if missing <= 0:
        return None
    return Scenario(
        owner=user,
        offer=meta_offer,
        name="E6 midpoint stock (VP approval)",
        extra_stock_yearly=missing,
        stock_currency=band.currency,  # the band's stock (and the offer's pay): USD
        notes=(
            f"Base is capped at the E5 top, and the stock is already at the E6 band's bottom "
            f"(USD {held:,.0f} a year): ask for the E6 midpoint (USD {band.stock_mid:,.0f}), "
            f"i.e. USD {missing:,.0f} a year more. "
        )
        + ILLUSTRATIVE,
    )


def seed_negotiation_log(
    user: AbstractBaseUser, meta_offer: Offer, tiktok_offer: Offer, today: dt.date
) -> list[NegotiationEntry]:
    """Log the story's asks: Meta's re-level (answered with E6 stock) and the deadlines."""
    from offers.services_negotiation import negotiation_entry_create

    releveled = negotiation_entry_create(
        user=user,
        offer=meta_offer,
        data={
            "asked_on": today - dt.timedelta(days=18),
            "channel": NegotiationEntry.Channel.RECRUITER,
            "contact": "Chris Alvarez",
            "topic": NegotiationEntry.Topic.LEVEL,
            # What went well, said as evidence; the weak round is theirs to raise, not ours.
            "ask": "Re-level to E6: the debrief had Strong Hire in both coding rounds, ML design "
            "and behavioural, and the director screen was Strong Hire.",
            "outcome": NegotiationEntry.Outcome.REFUSED,
            "answered_on": today - dt.timedelta(days=12),
            "answer": "E5 stays (re-levelling possible after 6-12 months), but the stock is "
            "raised to the E6 band with VP approval: USD 720,000 over four years.",
            "revised_stock": E6_BAND_STOCK_MIN * 4,
        },
    )
    deadline = negotiation_entry_create(
        user=user,
        offer=meta_offer,
        data={
            "asked_on": today - dt.timedelta(days=2),
            "channel": NegotiationEntry.Channel.RECRUITER,
            "contact": "Chris Alvarez",
            "topic": NegotiationEntry.Topic.DEADLINE,
            "ask": "Move the decision deadline to a week after my last final round next week.",
        },
    )
    tiktok = negotiation_entry_create(
        user=user,
        offer=tiktok_offer,
        data={
            "asked_on": today - dt.timedelta(days=3),
            "channel": NegotiationEntry.Channel.RECRUITER,
            "contact": "Mei Lin",
            "topic": NegotiationEntry.Topic.DEADLINE,
            "ask": "Told Mei Lin I have an offer with a deadline next week; asked how soon after "
            "the onsite the team can decide.",
            "outcome": NegotiationEntry.Outcome.COUNTERED,
            "answered_on": today - dt.timedelta(days=2),
            "answer": "The hiring committee meets weekly: a decision within five working days "
            "of the onsite, the offer letter two days later.",
        },
    )
    budget = negotiation_entry_create(
        user=user,
        offer=tiktok_offer,
        data={
            "asked_on": today - dt.timedelta(days=3),
            "channel": NegotiationEntry.Channel.RECRUITER,
            "contact": "Mei Lin",
            "topic": NegotiationEntry.Topic.OTHER,
            "ask": "Asked whether the role has a budget ceiling at 2-2, before giving a number.",
            "outcome": NegotiationEntry.Outcome.ACCEPTED,
            "answered_on": today - dt.timedelta(days=3),
            "answer": "No budget limit for the right candidate: send your expectations once the "
            "committee has decided and they will be looked at as a whole.",
        },
    )
    return [releveled, deadline, tiktok, budget]
