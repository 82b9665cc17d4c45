"""Dated events of a package: each vest, bonus and sign-on instalment on its real date.

Two placement rules put a dated event into a month counted from an origin (a package's
start for its projection, the decision date for the common window):

- A **vest** on day d belongs to month t when ``origin + (t-1) months < d <= origin + t months``
  (`vest_month`): a tranche vesting on the origin day is already vested and not counted; a
  tranche on the last day of the last month (the horizon's last day) is counted.
- A **payment** (bonus, sign-on, relocation) on day d belongs to month t when
  ``origin + (t-1) months <= d < origin + t months`` (`cash_month`): a payment on the first day
  is counted in month 1; a payment on ``origin + 12 H months`` belongs to the next period.

A package year's bonus is paid on its last day (``start + 12 y months - 1 day``), so it stays
in month 12 y; a year-y sign-on on the first day of package year y, month ``12 (y-1) + 1``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from .dates import add_months, whole_months_between
from .spec import BonusCycle, Grant, PackageSpec, Refresher
from .vesting import calendar_dates_from, tranche_dates

ONE_DAY = datetime.timedelta(days=1)


def vest_month(origin: datetime.date, day: datetime.date) -> int:
    """Return the month t (from 1) with ``origin + t-1 months < day <= origin + t months``."""
    months = (day.year - origin.year) * 12 + (day.month - origin.month)
    return months + 1 if day > add_months(origin, months) else months


def cash_month(origin: datetime.date, day: datetime.date) -> int:
    """Return the month t (from 1) with ``origin + t-1 months <= day < origin + t months``.

    Days before ``origin`` return 0 or less.
    """
    if day < origin:
        return 0
    return whole_months_between(origin, day) + 1


@dataclass(frozen=True)
class Payment:
    """A cash payment of the package (package currency) and the period that earned it.

    ``earned_from`` (inclusive) to ``earned_to`` (exclusive) is the bonus year it pays for;
    a sign-on or relocation is earned on its day.
    """

    day: datetime.date
    amount: float
    kind: str
    earned_from: datetime.date
    earned_to: datetime.date
    paid_if_left: bool = False

    def earned_share_before(self, leave: datetime.date) -> float:
        """Return the share of the earning period worked before ``leave`` (0 to 1)."""
        if leave <= self.earned_from:
            return 0.0
        if leave >= self.earned_to:
            return 1.0
        return (leave - self.earned_from).days / (self.earned_to - self.earned_from).days


def package_year(spec: PackageSpec, day: datetime.date) -> int:
    """Return the 1-based package year holding ``day`` (1 before the start)."""
    return max(1, (cash_month(spec.start, day) - 1) // 12 + 1)


def bonus_cycle_payout(cycle: BonusCycle, cycle_end: datetime.date) -> datetime.date:
    """Return the payout day of the bonus year ending the day before ``cycle_end``."""
    last_month = add_months(cycle_end, -1)
    return calendar_dates_from(last_month, ((cycle.payout_month, cycle.payout_day),), 1)[0]


def bonus_payments(spec: PackageSpec, until: datetime.date) -> list[Payment]:
    """Return the bonuses paid from the start through ``until``, each on its payout day.

    Without a bonus cycle each package year's bonus (that year's base x target x multiplier)
    is paid on its last day. With one, bonus years follow the cycle (see `BonusCycle`): the
    bonus is on the base of the package year holding the bonus year's last day.
    """
    rate = spec.bonus_target_pct / 100.0 * spec.bonus_multiplier
    if rate == 0.0:
        return []
    out: list[Payment] = []
    cycle = spec.bonus_cycle
    if cycle is None:
        year = 1
        while True:
            begin = add_months(spec.start, 12 * (year - 1))
            end = add_months(spec.start, 12 * year)
            if end - ONE_DAY > until:
                return out
            amount = spec.base_of_year(year) * rate
            out.append(Payment(end - ONE_DAY, amount, "bonus", begin, end))
            year += 1
    first_year = spec.start.year if spec.start.month >= cycle.start_month else spec.start.year - 1
    begin = datetime.date(first_year, cycle.start_month, 1)
    first = True
    while True:
        end = add_months(begin, 12)
        payout = bonus_cycle_payout(cycle, end)
        if payout > until:
            return out
        amount = spec.base_of_year(package_year(spec, end - ONE_DAY)) * rate
        earned_from = begin
        if first and spec.start > begin:
            earned_from = spec.start
            if cycle.prorate_first_year:
                amount *= (end - spec.start).days / (end - begin).days
            if cycle.cutoff is not None:
                cutoff = calendar_dates_from(begin, (cycle.cutoff,), 1)[0]
                if spec.start > cutoff:
                    amount = 0.0
        if amount > 0.0:
            out.append(
                Payment(payout, amount, "bonus", earned_from, end, paid_if_left=cycle.paid_if_left)
            )
        begin, first = end, False


def sign_on_payments(spec: PackageSpec) -> list[Payment]:
    """Return every sign-on instalment on its payment day."""
    return [
        Payment(day, amount, "sign_on", day, day)
        for item in spec.sign_on
        for day, amount in item.payments(spec.start)
    ]


def cash_payments(spec: PackageSpec, until: datetime.date) -> list[Payment]:
    """Return bonuses, sign-on instalments and the relocation paid through ``until``."""
    out = bonus_payments(spec, until)
    out += [p for p in sign_on_payments(spec) if p.day <= until]
    if spec.relocation:
        out.append(Payment(spec.start, spec.relocation, "relocation", spec.start, spec.start))
    return out


def grant_vest_start(spec: PackageSpec, grant: Grant) -> datetime.date:
    """Return the day a grant starts vesting (the package start when not given)."""
    return grant.vest_start or spec.start


def grant_tranches(spec: PackageSpec, grant: Grant) -> list[tuple[datetime.date, float]]:
    """Return each tranche of ``grant``: its real vest day and its shares."""
    shares = grant.share_count(spec.stock.price)
    return [
        (day, shares * fraction)
        for day, fraction in tranche_dates(grant.schedule, grant_vest_start(spec, grant))
    ]


def refresher_grant_days(
    start: datetime.date,
    refresher: Refresher,
    until: datetime.date,
    since: datetime.date | None = None,
) -> list[tuple[int, datetime.date]]:
    """Return (g, day) of each refresher grant through ``until``: granted at anniversary g.

    ``start`` is the package start; the grant of package year g + 1 is made on ``start`` +
    12 g months. ``since`` (a spec's ``as_of``, the decision date) drops the grants before
    it: a held job's past refreshers are grants with their own dates and prices, not a
    modelled series priced at today's share price.
    """
    out = []
    g = refresher.first_year - 1
    while (day := add_months(start, 12 * g)) <= until:
        if since is None or day >= since:
            out.append((g, day))
        g += 1
    return out


def refresher_tranches(
    refresher: Refresher, granted: datetime.date
) -> list[tuple[datetime.date, float]]:
    """Return each tranche of one refresher grant: its vest day and its value at grant price."""
    return [
        (day, refresher.yearly_value * fraction)
        for day, fraction in tranche_dates(refresher.schedule, granted)
    ]
