"""An option's ledger in words: each line of `compensation.engine.ledger` with what it is and
its working, grouped by window year, for the offer page and the CSV download.

The lines come from the board's evaluation (`offers.board.evaluation_ledger`), so they add up
to the option's headline: after tax every line, gross the pay lines alone.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from compensation.engine.components import DATED_COMPONENTS
from compensation.engine.dates import add_months
from compensation.engine.ledger import LEVIES, Ledger, LedgerLine, TaxYearWorking
from compensation.engine.tax.compute import BracketWorking
from compensation.tax_words import tax_word
from offers.board import Evaluation, evaluation_ledger
from offers.charts import component_label


def figure(value: float, digits: int = 2) -> str:
    """Return a number grouped by thousands with ``digits`` decimals (a calculator's input)."""
    return f"{value:,.{digits}f}"


def exact(value: float) -> str:
    """Return a rate or share with up to six decimals, trailing zeros dropped."""
    text = f"{value:,.6f}".rstrip("0").rstrip(".")
    return text or "0"


@dataclass(frozen=True)
class LedgerRow:
    """One line of the ledger: the engine's line, where it comes from, what it is, its working."""

    line: LedgerLine
    source: str
    description: str
    working: str


@dataclass(frozen=True)
class LedgerYear:
    """One window year's lines, their subtotal and the running total after it."""

    year: int
    rows: tuple[LedgerRow, ...]
    subtotal: float
    running: float


@dataclass(frozen=True)
class TaxPartView:
    """One part of a tax year's tables: its brackets applied, and the alternative if any."""

    name: str
    tax: float
    brackets: BracketWorking
    alternative: BracketWorking | None
    alternative_applied: bool


@dataclass(frozen=True)
class TaxYearView:
    """The working of one tax year: its whole income and each part's brackets."""

    working: TaxYearWorking
    source: str
    parts: tuple[TaxPartView, ...]


@dataclass(frozen=True)
class LedgerView:
    """An option's ledger as the page and the CSV show it."""

    ev: Evaluation
    ledger: Ledger
    years: tuple[LedgerYear, ...]
    tax_years: tuple[TaxYearView, ...]
    total: float

    @property
    def currency(self) -> str:
        return self.ledger.currency

    @property
    def rows(self) -> list[LedgerRow]:
        """Return every row, year after year."""
        return [row for year in self.years for row in year.rows]


def _source(ev: Evaluation, line_segment: int) -> str:
    """Return where a line comes from: the current job (before a leaving option starts)."""
    if len(ev.segments) > 1 and line_segment < len(ev.segments) - 1:
        return _("Current job until %(day)s") % {"day": ev.bridge_until}
    return ""


def _held(ev: Evaluation, line: LedgerLine) -> bool:
    """Return whether a vest is of a grant an internal transfer keeps from the current job."""
    spec = ev.segments[line.segment].spec
    return (
        ev.held > 0
        and line.item == "grant_vest"
        and line.segment == len(ev.segments) - 1
        and line.grant is not None
        and line.grant >= len(spec.grants) - ev.held
    )


def describe(ev: Evaluation, line: LedgerLine) -> str:
    """Return what a line is, in words."""
    if line.item == "base":
        return _("Base salary")
    if line.item in DATED_COMPONENTS:
        return component_label(line.item)
    if line.item == "grant_vest":
        n = (line.grant or 0) + 1
        if _held(ev, line):
            return _("Vest of grant %(n)s, held from your current job") % {"n": n}
        return _("Vest of grant %(n)s") % {"n": n}
    if line.item == "refresher_vest":
        day = ev.basis.day(line.granted) if line.granted else ""
        return _("Vest of the refresher granted %(day)s") % {"day": day}
    if line.item == "flat_tax":
        return _("Tax at the flat rate")
    if line.item in ("tax", "contribution"):  # a tax part's line, or a contribution's
        words = {"year": line.tax_year, "part": tax_word(line.name)}
        if line.place is not None:  # the place before a transfer taxes its share of a vest
            return _("Tax year %(year)s: %(part)s, on the stock earned before the move") % words
        return _("Tax year %(year)s: %(part)s") % words
    return line.item


def working(line: LedgerLine) -> str:
    """Return the line's arithmetic: quantity x unit price x share x rate (the rate left out
    when it is 1), in words; a discounted vest also says the full value it is taxed on."""
    text = _arithmetic(line)
    if text and line.fx != 1.0:
        text += f" × {exact(line.fx)}"
    text += _days(line)
    if line.taxable is not None and not math.isclose(_keep(line), 1.0, rel_tol=1e-9):
        # Private stock: the discount lowers the value compared, not the income taxed.
        text += _("; ") + _("taxed at its full value, %(value)s") % {"value": figure(line.taxable)}
    return text


def _keep(line: LedgerLine) -> float:
    """Return a vest's share after its liquidity discount: its ``share`` without its days'."""
    return line.share if line.days is None else line.share * line.days[1] / line.days[0]


def _days(line: LedgerLine) -> str:
    """Return a split vest's factor, its days in the line's place over all its days, in words."""
    if line.days is None:
        return ""
    if line.place is None:
        words = _("(its days from vesting start to vest worked after the move)")
    else:
        words = _("(its days from vesting start to vest worked before the move)")
    return f" × {line.days[0]:,}/{line.days[1]:,} {words}"


def _arithmetic(line: LedgerLine) -> str:
    values = {
        "n": exact(line.quantity),
        "currency": line.unit_currency,
        "price": figure(line.unit_price),
        "share": exact(line.share),
        "rate": exact(100.0 * line.quantity),
    }
    if line.item == "base":
        return _("%(n)s months × %(currency)s %(price)s") % values
    if line.item in DATED_COMPONENTS:
        if line.share != 1.0:
            return _("%(currency)s %(price)s × %(share)s of the bonus year worked") % values
        return f"{line.unit_currency} {figure(line.unit_price)}"
    if line.item in ("grant_vest", "refresher_vest"):
        # A share price to four decimals: shares x price then rebuilds the amount to the unit
        # (75 x 611.66 is 45,874.50; the price is 611.6559, the amount 45,874.19).
        values["price"] = figure(line.unit_price, 4).rstrip("0").rstrip(".")
        keep = _keep(line)
        if not math.isclose(keep, 1.0, rel_tol=1e-9):
            return _(
                "%(n)s shares × %(currency)s %(price)s × (1 − %(discount)s%% liquidity discount)"
            ) % {**values, "discount": exact(100.0 * (1.0 - keep))}
        return _("%(n)s shares × %(currency)s %(price)s") % values
    if line.item == "tax":
        return (
            _("%(currency)s %(price)s (the tax year's) × %(share)s of its income in this year")
            % values
        )
    if line.item == "flat_tax":
        return _("%(rate)s%% × %(currency)s %(price)s gross") % values
    if line.item == "contribution":
        text = f"{values['rate']}% × {line.unit_currency} {figure(line.unit_price)}"
        if not math.isclose(line.share, 1.0, rel_tol=1e-9):  # a float's residue is no cap
            text += " × " + _("%(share)s (the monthly cap)") % values
        return text
    return ""


def _brackets_in_words(working: BracketWorking) -> BracketWorking:
    """Return a part's brackets with their name and deduction in the reader's language."""
    return replace(
        working, name=tax_word(working.name), deduction_label=tax_word(working.deduction_label)
    )


def _present_value(ev: Evaluation, year: int, amount: float) -> LedgerRow:
    """Return a window year's line that brings its lines to their worth today (the basis's
    discount): their sum times (its year factor - 1), dated the year's last day."""
    basis = ev.basis
    factor = float(basis.year_factors[year - 1])
    line = LedgerLine(
        year=year,
        day=add_months(basis.start, 12 * year) - dt.timedelta(days=1),
        segment=len(ev.segments) - 1,
        component="present_value",
        item="present_value",
        quantity=1.0,
        unit_price=amount,
        unit_currency=basis.currency,
        share=factor - 1.0,
        fx=1.0,
        amount=amount * (factor - 1.0),
    )
    rate = {"rate": exact(basis.discount_pct), "t": exact(year - 0.5)}
    described = _("Year %(n)s worth today at %(rate)s %% a year") % {**rate, "n": year}
    worked = _("%(amount)s × (1 ÷ (1 + %(rate)s %%)^%(t)s − 1)") % {
        **rate,
        "amount": figure(amount),
    }
    return LedgerRow(line, "", described, worked)


def ledger_view(ev: Evaluation) -> LedgerView | None:
    """Return the ledger of an evaluated option in words (None: it could not be valued).

    After tax every line counts; gross, the tax and contribution lines are left out, as the
    headline leaves them out.
    """
    ledger = evaluation_ledger(ev)
    if ledger is None:
        return None
    after_tax = ev.basis.after_tax
    years = []
    running = 0.0
    for year, lines in ledger.by_year():
        rows = tuple(
            LedgerRow(
                line,
                _source(ev, line.segment if line.place is None else line.place),
                describe(ev, line),
                working(line),
            )
            for line in lines
            if after_tax or line.component not in LEVIES
        )
        subtotal = float(sum(r.line.amount for r in rows))
        if ev.basis.discount_pct:
            rows += (discount := _present_value(ev, year, subtotal),)
            subtotal += discount.line.amount
        running += subtotal
        years.append(LedgerYear(year, rows, subtotal, running))
    tax_years = tuple(
        TaxYearView(
            w,
            _("Both jobs together") if len(w.segments) > 1 else _source(ev, w.segment),
            tuple(
                TaxPartView(
                    tax_word(p.name),
                    p.tax,
                    _brackets_in_words(p.brackets),
                    _brackets_in_words(p.alternative) if p.alternative else None,
                    p.alternative_applied,
                )
                for p in w.parts
            ),
        )
        for w in (ledger.tax_years if after_tax else ())
    )
    return LedgerView(ev, ledger, tuple(years), tax_years, running)
