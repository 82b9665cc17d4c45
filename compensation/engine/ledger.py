"""The ledger of an option: every dated event of the window, each a line a calculator rebuilds.

`window_ledger` lists what `window.window_yearly` sums on one price path per segment, placed by
the same functions (`segments`, `segment_tax`), so its lines add up to the window's figures:
each line's ``amount`` is ``quantity x unit_price x share x fx`` in home currency (negative
for tax and contributions), and a window year's lines add up to its ``net`` (``total``
without the tax and contribution lines). Lines by item:

* ``base``: ``quantity`` months of ``unit_price`` monthly base (a run of equal months in one
  window year), ``fx`` into home currency;
* ``bonus``, ``sign_on``, ``relocation``: one payment of ``unit_price``; ``share`` is the share
  of its bonus year worked when it is paid after leaving (else 1);
* ``grant_vest`` / ``refresher_vest``: ``quantity`` shares (a refresher tranche's: its value
  at grant over the price at grant) at ``unit_price`` (the price of the vest's month),
  ``share`` = 1 - the liquidity discount (times ``days`` here over all of them, a transfer's
  vest split by place), ``fx`` the stock's rate into home currency;
  ``taxable`` is the vest's full value (``quantity x unit_price x fx``), the income taxed;
* ``tax``: one part of a tax year's tables: ``unit_price`` is the part's tax on the whole tax
  year's income its table taxes (its slices in `Ledger.tax_years`; both jobs' when a leaving
  option's two jobs share the table: `tax.tables.tables_for_year`), ``share`` the part of
  that income earned by the line's segment in this window year;
* ``flat_tax``: ``quantity`` (the flat rate) of ``unit_price`` (the year's taxable gross: stock
  at its full value);
* ``contribution``: ``quantity`` (the rate) of ``unit_price`` (the pay it is levied on);
  ``share`` is below 1 only where a monthly cap binds.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby

import numpy as np

from .components import COMPONENTS
from .dates import add_months
from .events import ONE_DAY
from .segment_tax import TaxColumns, segment_tax_columns, tax_groups
from .segments import (
    GrantVest,
    RefresherVest,
    Segment,
    SegmentBounds,
    liquidity_keep,
    segment_base,
    segment_bounds,
    segment_payments,
    segment_values,
    segment_vests,
    sourced_segments,
    stock_fx_to_home,
)
from .tax.compute import PartWorking, part_base, year_tax_parts
from .tax.tables import TaxYear, tables_for_year
from .window import checked_prices

# The components of the ledger that are not pay: what comes off gross.
LEVIES = ("tax", "contributions")


@dataclass(frozen=True)
class LedgerLine:
    """One event of the window: ``amount = quantity x unit_price x share x fx`` (home currency).

    ``year`` is the window year (1-based); ``segment`` the index of the segment it belongs to
    (a leaving option's current job is 0). ``component`` is a pay component (`COMPONENTS`),
    ``tax`` or ``contributions``; ``item`` says what the line is (see the module). ``name``
    names a tax part or a contribution; ``grant`` is the grant's (or refresher's) index in its
    package, ``granted`` a refresher grant's day; ``tax_year`` a levy line's tax year.
    """

    year: int
    day: datetime.date
    segment: int
    component: str
    item: str
    quantity: float
    unit_price: float
    unit_currency: str
    share: float
    fx: float
    amount: float
    name: str = ""
    grant: int | None = None
    granted: datetime.date | None = None
    tax_year: int | None = None
    # A vest's full value in home currency, the income it is taxed on (None: not a vest).
    taxable: float | None = None
    # A split vest's days in its place and all its days (`segments.sourced_segments`).
    days: tuple[int, int] | None = None
    # The segment whose place taxes the line when not its own (a transfer's vest before it).
    place: int | None = None


@dataclass(frozen=True)
class TaxYearWorking:
    """How one tax year of segments taxed together was taxed: their whole income (months
    outside the window too, in the regime's currency) from every segment (``segments``;
    ``segment`` the first: a leaving option's two jobs whose regimes share a table are taxed
    together), the tables' parts with their bracket slices (each part's ``income`` is that of
    the segments its table taxes: a state's, its own), and the deductible contributions.

    ``label`` names the tax year ('YA 2027'); ``table_label`` the tables used for it ('YA
    2026' when a later year is taxed by the latest tables). ``fx`` converts the regime's
    currency into home currency.
    """

    segment: int
    tax_year: int
    label: str
    table_label: str
    currency: str
    fx: float
    cash: float
    equity: float
    deductible: float
    parts: tuple[PartWorking, ...]
    segments: tuple[int, ...] = ()

    @property
    def tax(self) -> float:
        """Return the tax year's tax in the regime's currency (all its parts)."""
        return float(sum(p.tax for p in self.parts))


@dataclass(frozen=True)
class Ledger:
    """Every line of an option's window and the workings of each tax year."""

    window_start: datetime.date
    years: int
    currency: str
    lines: tuple[LedgerLine, ...]
    tax_years: tuple[TaxYearWorking, ...]

    def total(self, after_tax: bool = True, year: int | None = None) -> float:
        """Return the sum of the lines (of window ``year``; None: all): after tax (all lines)
        or gross (without the tax and contribution lines)."""
        return float(
            sum(
                line.amount
                for line in self.lines
                if (year is None or line.year == year)
                and (after_tax or line.component not in LEVIES)
            )
        )

    def by_year(self) -> list[tuple[int, list[LedgerLine]]]:
        """Return the lines of each window year, in order."""
        return [(y, [x for x in self.lines if x.year == y]) for y in range(1, self.years + 1)]


def _last_day(window_start: datetime.date, index: int) -> datetime.date:
    """Return the last day of window month ``index`` (0-based)."""
    return add_months(window_start, index + 1) - ONE_DAY


def _base_lines(
    k: int, segment: Segment, window_start: datetime.date, months: int
) -> list[LedgerLine]:
    """Return the segment's base: a run of equal months inside one window year is one line."""
    spec = segment.spec
    fx = spec.fx_to_home
    base = segment_base(segment, window_start, months)
    out: list[LedgerLine] = []
    for (year, monthly), run in groupby(range(months), key=lambda i: (i // 12, base[i])):
        first, *rest = run
        n = 1 + len(rest)
        if monthly > 0:
            out.append(
                LedgerLine(
                    year=year + 1,
                    day=add_months(window_start, first),
                    segment=k,
                    component="base",
                    item="base",
                    quantity=float(n),
                    unit_price=float(monthly),
                    unit_currency=spec.currency,
                    share=1.0,
                    fx=fx,
                    amount=float(n * monthly * fx),
                )
            )
    return out


def _payment_lines(
    k: int, segment: Segment, window_start: datetime.date, months: int
) -> list[LedgerLine]:
    """Return the segment's bonus, sign-on and relocation payments, one line each."""
    spec = segment.spec
    return [
        LedgerLine(
            year=(placed.month - 1) // 12 + 1,
            day=placed.payment.day,
            segment=k,
            component=placed.payment.kind,
            item=placed.payment.kind,
            quantity=1.0,
            unit_price=placed.payment.amount,
            unit_currency=spec.currency,
            share=placed.share,
            fx=spec.fx_to_home,
            amount=placed.amount * spec.fx_to_home,
        )
        for placed in segment_payments(segment, window_start, months)
    ]


def _vest_lines(
    k: int,
    segment: Segment,
    window_start: datetime.date,
    bounds: SegmentBounds,
    prices: np.ndarray,
) -> list[LedgerLine]:
    """Return the segment's grant and refresher vests, one line each."""
    spec = segment.spec
    keep = liquidity_keep(spec)
    stock_fx = stock_fx_to_home(segment)
    grants, refreshers = segment_vests(segment, window_start, bounds.first, bounds.last)

    def vest(item: str, v: GrantVest | RefresherVest, shares: float, grant: int) -> LedgerLine:
        """A vest: shares x the month's price x (1 - discount) x its part here (its days in
        this place) x the stock's rate (taxed at its full value: without the discount)."""
        price = float(prices[v.month - 1])
        return LedgerLine(
            year=(v.month - 1) // 12 + 1,
            day=v.day,
            segment=k,
            component="equity",
            item=item,
            quantity=shares,
            unit_price=price,
            unit_currency=spec.stock_currency,
            share=keep * v.part,
            fx=stock_fx,
            amount=shares * price * keep * v.part * stock_fx,
            grant=grant,
            taxable=shares * price * v.part * stock_fx,
            days=v.days,
        )

    out = [vest("grant_vest", v, v.shares, v.grant) for v in grants]
    for tranches in refreshers:
        for rv in tranches:
            at_grant = (
                spec.stock.price if rv.granted_month == 0 else float(prices[rv.granted_month - 1])
            )
            line = vest("refresher_vest", rv, rv.value / at_grant, rv.refresher)
            out.append(replace(line, granted=rv.granted))
    return out


def _share(part: PartWorking, cash: float, equity: float, c: float, e: float) -> float:
    """Return the share of a part's tax on the income (c, e) out of the year's (cash, equity):
    the engine shares each kind's tax among the months by their income of it."""
    whole = float(part_base(part.applies_to, cash, equity))
    return float(part_base(part.applies_to, c, e)) / whole if whole > 0 else 0.0


def _flat_tax_lines(
    k: int,
    segment: Segment,
    window_start: datetime.date,
    months: int,
    values: dict[str, np.ndarray],
    home: str,
) -> list[LedgerLine]:
    """Return a segment's lines of tax at its flat rate, one a window year."""
    if segment.spec.tax_rate_pct == 0.0:
        return []
    gross = np.asarray(sum(values.values()))
    rate = segment.spec.tax_rate_pct / 100.0
    yearly = [float(gross[12 * (y - 1) : 12 * y].sum()) for y in range(1, months // 12 + 1)]
    return [
        LedgerLine(
            year=year,
            day=_last_day(window_start, 12 * year - 1),
            segment=k,
            component="tax",
            item="flat_tax",
            quantity=rate,
            unit_price=g,
            unit_currency=home,
            share=1.0,
            fx=1.0,
            amount=-rate * g,
        )
        for year, g in enumerate(yearly, start=1)
        if g
    ]


# A table's parts of one tax year and the year's cash and equity income they tax.
Taxed = tuple[float, float, tuple[PartWorking, ...]]


def _tax_lines(
    group: Sequence[int],
    segments: Sequence[Segment],
    window_start: datetime.date,
    months: int,
    prices: Sequence[np.ndarray],
    home: str,
) -> tuple[list[LedgerLine], list[TaxYearWorking]]:
    """Return the tax and contribution lines of segments taxed together (`tax_groups`) and
    the workings of their tax years: each table of a tax year taxes, once, the income of
    every segment whose regime holds it (`tax.tables.tables_for_year`)."""
    values = [segment_values(segments[k], window_start, months, prices[k]) for k in group]
    found = [
        segment_tax_columns(segments[k], window_start, months, prices[k], v)
        for k, v in zip(group, values, strict=True)
    ]
    columns = [c for c in found if c is not None]
    if not columns:
        (k,) = group
        return _flat_tax_lines(k, segments[k], window_start, months, values[0], home), []
    levied = [c.contributions() for c in columns]
    regimes = [c.regime for c in columns]
    lines: list[LedgerLine] = []
    workings: list[TaxYearWorking] = []
    for tax_year in (int(y) for y in np.unique(np.concatenate([c.tax_years for c in columns]))):
        # Each segment's whole income of the year in its regime's currency.
        incomes = [
            tuple(
                float(a[c.tax_years == tax_year].sum()) * c.to_regime
                for a in (c.cash, c.equity, deductible)
            )
            for c, (_, deductible, _) in zip(columns, levied, strict=True)
        ]
        # Each table's parts on the income of the segments it taxes, and their share of it.
        shared = tables_for_year(regimes, tax_year)
        taxed: list[tuple[tuple[int, ...], Taxed]] = []
        for table in shared:
            cash, equity, off = (sum(incomes[i][kind] for i in table.members) for kind in range(3))
            parts = year_tax_parts(TaxYear(tax_year, (table.table,)), cash, equity, off)
            taxed.append((table.members, (cash, equity, parts)))
        earners: list[int] = []
        for i, (k, c, (_, _, by_rule)) in enumerate(zip(group, columns, levied, strict=True)):
            mine = c.tax_years == tax_year
            if (c.cash[mine].any() or c.equity[mine].any()) and k not in earners:
                earners.append(k)
            mine_taxed = [t for members, t in taxed if i in members]
            lines += _segment_tax_lines(k, c, by_rule, tax_year, window_start, months, mine_taxed)
        cash, equity, deductible = (sum(x[kind] for x in incomes) for kind in range(3))
        if (cash == 0.0 and equity == 0.0) or not any(
            (c.tax_years == tax_year)[c.in_window(months)].any() for c in columns
        ):
            # Nothing to work out for a tax year outside the window, or with no income in it
            # (a leaving option's current job after its last day): its tax is nil.
            continue
        tables = TaxYear(tax_year, tuple(s.table for s in shared))
        workings.append(
            TaxYearWorking(
                segment=earners[0] if earners else group[0],
                tax_year=tax_year,
                label=tables.name_of(tax_year),
                table_label=tables.year_label,
                currency=columns[0].regime.currency,
                fx=1.0 / columns[0].to_regime,
                cash=cash,
                equity=equity,
                deductible=deductible,
                parts=tuple(p for _, (_, _, parts) in taxed for p in parts),
                segments=tuple(earners) or (group[0],),
            )
        )
    return lines, workings


def _segment_tax_lines(
    k: int,
    c: TaxColumns,
    by_rule: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]],
    tax_year: int,
    window_start: datetime.date,
    months: int,
    taxed: Sequence[Taxed],
) -> list[LedgerLine]:
    """Return segment ``k``'s lines of one tax year, in each window year it touches: its share
    of each part of the tables ``taxed`` that tax it, and its contributions."""
    to = c.to_regime
    in_window = (c.tax_years == tax_year) & c.in_window(months)
    window_month = c.months - c.lead  # 0-based month of the window
    lines: list[LedgerLine] = []
    for wy in sorted({int(m) // 12 + 1 for m in window_month[in_window]}):
        sel = in_window & (window_month // 12 + 1 == wy)
        day = _last_day(window_start, int(window_month[sel].max()))
        line = LedgerLine(
            year=wy,
            day=day,
            segment=k,
            component="tax",
            item="tax",
            quantity=1.0,
            unit_price=0.0,
            unit_currency=c.regime.currency,
            share=1.0,
            fx=1.0 / to,
            amount=0.0,
            tax_year=tax_year,
        )
        mc = float(c.cash[sel].sum()) * to
        me = float(c.equity[sel].sum()) * to
        for cash, equity, parts in taxed:
            for part in parts:
                share = _share(part, cash, equity, mc, me)
                if part.tax and share:
                    amount = -part.tax * share / to
                    lines.append(
                        replace(
                            line, unit_price=part.tax, share=share, amount=amount, name=part.name
                        )
                    )
        for rule in c.regime.for_year(tax_year).contributions:
            amount_cols, pay_cols = by_rule[tax_year, rule.name]
            amount = float(amount_cols[sel].sum())
            pay = float(pay_cols[sel].sum()) * to
            if amount:
                full = rule.rate * pay
                contribution = replace(
                    line,
                    component="contributions",
                    item="contribution",
                    quantity=rule.rate,
                    unit_price=pay,
                    share=amount * to / full if full else 1.0,
                    amount=-amount,
                    name=rule.name,
                )
                lines.append(contribution)
    return lines


_ORDER = {name: i for i, name in enumerate((*COMPONENTS, *LEVIES))}


def window_ledger(
    segments: Sequence[Segment],
    *,
    window_start: datetime.date,
    years: int,
    prices: Sequence[np.ndarray],
    currency: str,
) -> Ledger:
    """Return the ledger of one option over the window (see the module).

    ``prices[i]`` is segment i's share price per window month, one path (``(months,)``), as
    `window.window_yearly` takes it; ``currency`` is the home currency the lines are in.
    """
    years, paths = checked_prices(segments, years, prices, one_path=True)
    months = 12 * years
    # A transfer's vests split by the days worked in each place, as `window_yearly` taxes them.
    segments, origins = sourced_segments(segments)
    paths = [paths[k] for k, _ in origins]
    lines: list[LedgerLine] = []
    workings: list[TaxYearWorking] = []
    for k, (segment, path) in enumerate(zip(segments, paths, strict=True)):
        bounds = segment_bounds(segment, window_start, months)
        if bounds.first <= bounds.last:  # the segment's base, payments and vests
            lines += _base_lines(k, segment, window_start, months)
            lines += _payment_lines(k, segment, window_start, months)
            lines += _vest_lines(k, segment, window_start, bounds, path)
    for group in tax_groups(segments):
        levied, worked = _tax_lines(group, segments, window_start, months, paths, currency)
        lines += levied
        workings += worked
    # Each line named by the segment it comes from and the place taxing it; a tax year by its
    # place's segments.
    lines = [replace(x, segment=origins[x.segment][0], place=origins[x.segment][1]) for x in lines]
    placed = [k if j is None else j for k, j in origins]
    workings = [
        replace(
            w,
            segment=placed[w.segment],
            segments=tuple(dict.fromkeys(placed[k] for k in w.segments)),
        )
        for w in workings
    ]
    lines.sort(key=lambda x: (x.year, x.day, x.segment, _ORDER[x.component]))
    return Ledger(window_start, years, currency, tuple(lines), tuple(workings))
