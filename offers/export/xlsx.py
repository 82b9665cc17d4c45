"""The comparison as a workbook a person would lay out: six sheets, formats, a chart."""

from __future__ import annotations

import datetime as dt
import io
import math
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, cast

from django.utils import formats
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.chart import BarChart, Reference
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from accounts.wording import choice_label, fit_words
from compensation.engine.components import COMPONENTS
from offers.charts import CHART_OPTIONS, component_label
from offers.export import neutralise
from offers.export.columns import TERMS, Column, Unit
from offers.export.comparison import Comparison, option_warnings
from offers.export.readable import fit_pct, local_time
from offers.export.rows import YearlyRow
from offers.export.xlsx_rows import Rows, Styled, splice
from offers.logic.criteria import label as criterion_label
from offers.scenarios.adjustments import ADJUSTMENTS, Adjustment

HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="3B5BDB")
TITLE_FONT = Font(bold=True, size=14)
SECTION_FONT = Font(bold=True, size=12)
WRAP = Alignment(wrap_text=True, vertical="top")
RATE = Unit.RATE.number_format
FIT = '0"%"'
LOCAL_TIME = "yyyy-mm-dd hh:mm"
DATE = "yyyy-mm-dd"
DATE_TIME = "yyyy-mm-dd hh:mm:ss"
# A line of 11-point text, in points, and the width (characters) of a column left as it is.
LINE_HEIGHT = 15
DEFAULT_WIDTH = 8.43
STYLE_PARTS = ("number_format", "font", "fill", "alignment")  # a style's, as openpyxl names them
# The widths of the scenario outcome's columns (`_outcome_columns`).
OUTCOME_WIDTHS = [16, 16, 14, 9, 9, 14]
# The terms the Assumptions sheet shows (the others are the JSON's).
SHEET_TERMS = tuple(column for column in TERMS if column.heading is not None)
# A table's column (`Sheet.table`): its heading and its cell, as a key of the row (the value as
# it is), a key and a number format (or a function of the row returning one), or a function of
# the row.
TableColumn = tuple[Any, ...]


def _generated(c: Comparison) -> str:
    """Return when the comparison was made, on the user's home clock with the zone's name."""
    zone = c.people.get("home_timezone") or "UTC"
    when = local_time(c.meta["generated_at"], zone)
    return f"{formats.date_format(when, 'DATETIME_FORMAT')} ({zone})" if when else ""


def money_format(currency: str) -> str:
    """Return a number format showing the currency code and thousands separators."""
    return f"[${currency}] #,##0;[${currency}] -#,##0"


def price_format(currency: str) -> str:
    """Return a share price's number format: its currency code, and cents."""
    return f"[${currency}] #,##0.00;[${currency}] -#,##0.00"


class Book:
    """The workbook being written: openpyxl's package and each sheet's rows (xlsx_rows)."""

    def __init__(self) -> None:
        self.wb = Workbook(write_only=True)
        self.sheets: list[Sheet] = []

    def save(self, stream: IO[bytes]) -> None:
        """Write the workbook, every sheet's rows in place, to a binary stream."""
        package = io.BytesIO()
        self.wb.save(package)
        splice(package.getvalue(), {s.ws.title: s.data for s in self.sheets}, stream)


class Sheet:
    """A sheet with a few helpers for headers, styled cells and widths."""

    def __init__(self, book: Book, title: str, widths: Sequence[int], freeze: str) -> None:
        self.ws: WriteOnlyWorksheet = book.wb.create_sheet(title)
        self.ws.freeze_panes = freeze
        self.widths = list(widths)
        for i, width in enumerate(widths, start=1):
            self.ws.column_dimensions[get_column_letter(i)].width = width
        self.data = Rows()
        book.sheets.append(self)
        # Each style once: a style is registered with the workbook by a cell that has it.
        self._styles: dict[tuple[Any, ...], int] = {}

    @property
    def rows(self) -> int:
        return self.data.count

    def style(
        self,
        fmt: str | None = None,
        font: Font | None = None,
        fill: PatternFill | None = None,
        alignment: Alignment | None = None,
    ) -> int:
        """Return the workbook's index of a cell style."""
        key = (fmt, font, fill, alignment)
        style = self._styles.get(key)
        if style is None:
            cell = WriteOnlyCell(self.ws)
            for name, value in zip(STYLE_PARTS, key, strict=True):
                if value is not None:
                    setattr(cell, name, value)
            style = self._styles[key] = cell.style_id
        return style

    def cell(self, value: Any, fmt: str | None = None, font: Font | None = None) -> Any:
        """Return a value to append, with a number format (numbers and times only) and font."""
        value = neutralise(value)
        if fmt is not None and not (
            isinstance(value, int | float | dt.date) and not isinstance(value, bool)
        ):
            fmt = None
        if fmt is None and font is None:
            return value
        return Styled(value, self.style(fmt, font))

    def append(self, values: Iterable[Any]) -> None:
        self.data.append([v if type(v) is Styled else self._plain(v) for v in values])

    def _plain(self, value: Any) -> Any:
        """Return a value appended without a style: a time gets the date format it needs."""
        kind = type(value)
        if kind is float or kind is int or value is None:
            return value
        if isinstance(value, dt.datetime):
            return Styled(value, self.style(DATE_TIME))
        if isinstance(value, dt.date):
            return Styled(value, self.style(DATE))
        return neutralise(value)

    def title(self, text: str, font: Font = TITLE_FONT) -> None:
        self.append([self.cell(text, font=font)])

    def header(self, names: Sequence[str]) -> None:
        """Append a header row, tall enough for its longest heading wrapped in its column."""
        style = self.style(font=HEADER_FONT, fill=HEADER_FILL, alignment=WRAP)
        wraps = [math.ceil(len(str(n)) / max(1.0, self._width(i) - 1)) for i, n in enumerate(names)]
        lines = max(wraps, default=1)
        self.data.append(
            [Styled(neutralise(name), style) for name in names],
            height=LINE_HEIGHT * lines if lines > 1 else None,
        )

    def _width(self, index: int) -> float:
        """Return the width of the column at ``index`` (0 is A), in characters."""
        return self.widths[index] if index < len(self.widths) else DEFAULT_WIDTH

    def blank(self) -> None:
        self.append([])

    def table(self, rows: Iterable[Any], columns: Sequence[TableColumn]) -> None:
        """Append a header and a row of cells per row (see `TableColumn`)."""
        self.header([column[0] for column in columns])
        cells = [self._reader(*column[1:]) for column in columns]
        for row in rows:
            self.append([cell(row) for cell in cells])

    def _reader(self, cell: Any, fmt: Any = None) -> Callable[[Any], Any]:
        if callable(cell):
            return cast(Callable[[Any], Any], cell)
        if fmt is None:
            return operator.itemgetter(cell)
        if callable(fmt):  # the row's own format
            return lambda row: self.cell(row[cell], fmt(row))
        return lambda row: self.cell(row[cell], fmt)

    def unit_cell(self, unit: Unit, value: Any, currency: str) -> Any:
        """Return a value as its unit says (money in ``currency``)."""
        if unit is Unit.PRICES:
            return ", ".join(f"{p:,.2f}" for p in value)
        return self.cell(value, money_format(currency) if unit.money else unit.number_format)


def _yes(flag: bool) -> str:
    return _("yes") if flag else _("no")


def _value_columns(sheet: Sheet, c: Comparison) -> list[TableColumn]:
    """Return the columns of an option's headline value and first year, in home currency."""
    home = c.meta["home_currency"]
    money = money_format(home)
    value = _("%(n)s-year value (%(c)s)") % {"n": c.meta["horizon_years"], "c": home}
    first_year = _("First year (%(c)s)") % {"c": home}
    letter = _("The letter's value (%(c)s)") % {"c": home}
    return [
        (value, "comp_value_home", money),
        (first_year, "first_year_home", money),
        (letter, "letter_value_home", money),
    ]


def _ranking(book: Book, c: Comparison) -> None:
    from offers.models import Offer

    criteria = list(c.options[0]["criteria"]) if c.options and c.options[0]["criteria"] else []
    totals = c.yearly_totals(c.meta["basis"])
    names = list(totals)[:CHART_OPTIONS]
    widths = [6, 34, 16, 18, 12, 8, 16, 16, 16, 10, 48] + [10] * len(criteria)
    widths += [0] * max(0, 1 + len(names) - len(widths))
    # The yearly totals below put an option's money in each of columns B onwards: wide enough
    # for "USD 1,235,864" (narrower, a spreadsheet shows ###).
    widths = [max(w, 15) if 1 <= i <= len(names) else w for i, w in enumerate(widths)]
    sheet = Sheet(book, _("Ranking"), widths, "C5")
    sheet.title(_("Offerdesk comparison"))
    every = _("Every figure: %(basis)s. Generated %(t)s.")
    sheet.append([every % {"basis": c.meta["basis_label"], "t": _generated(c)}])
    sheet.blank()
    sheet.table(
        c.options,
        [
            (_("Rank"), "rank"),
            (_("Option"), "name"),
            (_("Company"), "company"),
            (_("Kind"), lambda o: choice_label(Offer, "kind", o["kind"])),
            (_("Status"), lambda o: choice_label(Offer, "status", o["status"])),
            (_("Fit (%)"), lambda o: sheet.cell(fit_pct(o["score"]), FIT)),
            *_value_columns(sheet, c),
            (_("Excluded"), lambda o: _yes(o["excluded"])),
            (
                _("Exclusion reasons / errors"),
                lambda o: "; ".join(o["exclusion_reasons"]) or o["error"],
            ),
            (_("Warnings"), lambda o: "; ".join(option_warnings(o))),
            *[
                (_("%(c)s fit (%%)") % {"c": criterion_label(name)}, _criterion_fit(sheet, name))
                for name in criteria
            ],
        ],
    )
    if totals:
        _yearly_totals(sheet, c, totals, names)


def _criterion_fit(sheet: Sheet, name: str) -> Callable[[Any], Any]:
    """Return the cell of an option's fit on one criterion (none for an option not ranked)."""
    return lambda o: (
        sheet.cell(fit_pct(o["criteria"][name]["score"]), FIT) if o["criteria"] else None
    )


def _yearly_totals(
    sheet: Sheet, c: Comparison, totals: dict[str, list[float]], names: list[str]
) -> None:
    """Append the top options' yearly totals in home currency, and their bar chart."""
    home = c.meta["home_currency"]
    money = money_format(home)
    years = max(len(v) for v in totals.values())
    sheet.blank()
    top = _("Yearly totals, top %(n)s options: %(basis)s")
    sheet.title(top % {"basis": c.meta["basis_label"], "n": len(names)}, SECTION_FONT)
    sheet.header([_("Year"), *names])
    first = sheet.rows + 1
    for year in range(years):
        figures = [totals[n][year] if year < len(totals[n]) else None for n in names]
        sheet.append([year + 1, *[sheet.cell(figure, money) for figure in figures]])
    chart = BarChart()
    chart.type = "col"
    chart.title = _("Total compensation by year (%(c)s)") % {"c": home}
    chart.y_axis.title = home
    chart.x_axis.title = _("Year")
    chart.y_axis.numFmt = "#,##0"
    chart.height, chart.width = 9, 22
    data = Reference(
        sheet.ws, min_col=2, max_col=1 + len(names), min_row=first - 1, max_row=first + years - 1
    )
    cats = Reference(sheet.ws, min_col=1, min_row=first, max_row=first + years - 1)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(cats)
    sheet.ws.add_chart(chart, f"C{first + years + 2}")


def _year_by_year(book: Book, c: Comparison) -> None:
    from offers.models import Preferences

    # Tax, then the employee contributions (CPF, MPF...) when an option pays any: after tax is
    # the total less both.
    levies = ["tax"]
    if any(row["component"] == "contributions" for row in c.yearly):
        levies.append("contributions")
    widths = [34, 6, 19, 9, 10, *[15] * len(COMPONENTS), 15, *[15] * len(levies)]
    sheet = Sheet(book, _("Year by year"), widths, "B2")
    labels = [_("Option"), _("Year"), _("Basis"), _("Currency"), _("Home currency")]
    sheet.header(
        [*labels, *map(component_label, COMPONENTS), _("Total"), *map(component_label, levies)]
    )
    # One line per option, year, basis and currency: its components side by side.
    figures: dict[tuple[str, int, str, str], dict[str, float]] = {}
    lines: dict[tuple[str, int, str, str], YearlyRow] = {}
    for row in c.yearly:
        key = (row["option_key"], row["year"], row["basis"], row["currency"])
        lines.setdefault(key, row)
        figures.setdefault(key, {})[row["component"]] = row["amount"]
    bold = Font(bold=True)
    for key, row in lines.items():
        money = money_format(row["currency"])
        amounts = figures[key]
        sheet.append(
            [
                row["option"],
                row["year"],
                choice_label(Preferences, "basis", row["basis"]),
                row["currency"],
                _yes(row["in_home_currency"]),
                *[sheet.cell(amounts.get(comp), money) for comp in COMPONENTS],
                sheet.cell(amounts.get("total"), money, bold),
                *[sheet.cell(amounts.get(levy), money) for levy in levies],
            ]
        )


def _assumptions(book: Book, c: Comparison) -> None:
    """Write each option's terms (`TERMS`), its grants' vesting and the exchange rates."""
    sheet = Sheet(book, _("Assumptions"), [t.width for t in SHEET_TERMS], "B2")
    progressive = c.people.get("progressive_tax", {})
    sheet.table(
        c.assumptions, [(str(t.heading), _term(sheet, t, progressive)) for t in SHEET_TERMS]
    )
    sheet.blank()
    sheet.title(_("Vesting schedules"), SECTION_FONT)
    # Every amount names its currency: the share price and a grant's value in the price's
    # currency, the value again in home currency, and the rate between them. Money sits under
    # the table's wide columns (D, F, I): as wide as "USD 1,235,864".
    sheet.table(
        c.vesting,
        [
            (_("Option"), "option"),
            (_("Kind"), lambda v: _("Refresher") if v["kind"] == "refresher" else _("Grant")),
            (_("Label"), "label"),
            (_("Grant price"), "price", lambda v: price_format(v["price_currency"])),
            (_("Shares"), "shares", "#,##0.00"),
            (
                _("Value in the price's currency (per year for refreshers)"),
                "price_value",
                lambda v: money_format(v["price_currency"]),
            ),
            (_("Price currency"), "price_currency"),
            (_("Rate: 1 unit of the price's currency in home currency"), "fx_price_to_home", RATE),
            (_("Value in home currency"), "home_value", lambda v: money_format(v["home_currency"])),
            (_("Home currency"), "home_currency"),
            (_("First year"), "first_year"),
            (_("Vesting start"), "start"),
            (_("Vesting end"), "end"),
            (_("Schedule"), "schedule"),
        ],
    )
    sheet.blank()
    sheet.title(_("Exchange rates used"), SECTION_FONT)
    columns = [(_("1 unit of"), "currency"), (_("buys this many"), "to_currency")]
    sheet.table(c.fx_rates, [*columns, (_("Rate"), "rate", RATE)])


def _term(sheet: Sheet, term: Column, progressive: dict[str, bool]) -> Callable[[Any], Any]:
    """Return the cell of a term as its unit says (money in the option's currency), but the
    tax rule in words where a progressive table applies, and no stock rate without stock."""
    key, unit = term.key, term.unit

    def cell(a: dict[str, Any]) -> Any:
        if key == "tax_rate_pct" and progressive.get(a["option_key"]):
            return sheet.cell(a["tax_rule"])
        if key == "stock_fx_to_home" and not a["stock_currency"]:
            return None
        return sheet.unit_cell(unit, a[key], a["currency"])

    return cell


def _negotiation(book: Book, c: Comparison) -> None:
    """Write each option's negotiation plan: its asks in order, with their amounts and where
    each stands, then the other points as background, without amounts."""
    sheet = Sheet(book, _("Negotiation points"), [34, 12, 44, 14, 9, 24, 20, 60], "B2")
    rows = c.people.get("negotiation_plan") or []
    # A background point has no amount and no currency (`PlanRow`).
    sheet.table(
        rows,
        [
            (_("Option"), "option"),
            (_("Ask (in order)"), lambda n: n["order"] if n["part"] == "ask" else _("Background")),
            (_("Point"), "title"),
            (_("Amount"), "amount", lambda n: money_format(n["currency"] or "USD")),
            (_("Currency"), "currency"),
            (_("Term"), "term"),
            (_("Where it stands"), "status"),
            (_("What to say, or why"), "note"),
        ],
    )
    if not rows:
        sheet.append([_("No negotiation points available.")])


def _scenarios(book: Book, c: Comparison) -> None:
    from offers.models import Scenario

    widths = [34, 28, *OUTCOME_WIDTHS, *(a.unit.width for a in ADJUSTMENTS), 11, 40]
    sheet = Sheet(book, _("Scenarios"), widths, "C2")
    outcomes = c.people.get("scenario_outcomes") or []
    rows = [
        {**s, "outcome": outcomes[i] if i < len(outcomes) else None}
        for i, s in enumerate(c.scenarios)
    ]
    currency_of = {o["key"]: o["currency"] for o in c.options}
    sheet.table(
        rows,
        [
            (_("Option"), "option"),
            (_("Scenario"), "name"),
            *_outcome_columns(sheet, c),
            *[(a.heading, _adjustment(sheet, a, currency_of)) for a in ADJUSTMENTS],
            (_("Monte Carlo"), lambda s: choice_label(Scenario, "mc_status", s["mc_status"])),
            (_("Notes"), "notes"),
        ],
    )


def _adjustment(sheet: Sheet, a: Adjustment, currency_of: dict[str, str]) -> Callable[[Any], Any]:
    """Return the cell of a scenario's adjustment: each amount in its currency, pay in the
    option's, stock in the scenario's own."""

    def cell(s: dict[str, Any]) -> Any:
        pay = currency_of.get(s["option_key"], "USD")
        currency = s["stock_currency"] if a.unit is Unit.STOCK else pay
        return sheet.unit_cell(a.unit, s[a.key], currency)

    return cell


def _outcome_columns(sheet: Sheet, c: Comparison) -> list[TableColumn]:
    """Return the columns of a scenario's outcome as the scenario page shows it (blank where
    it is not worked out, and why in the last: the basis sits in its heading)."""
    home = c.meta["home_currency"]
    money = money_format(home)

    def figure(key: str, fmt: str | None = None) -> Callable[[Any], Any]:
        return lambda s: None if _outcome_note(s) else sheet.cell(s["outcome"][key], fmt)

    return [
        (_("Value with the scenario (%(c)s)") % {"c": home}, figure("value", money)),
        (_("Change vs the offer as it is (%(c)s)") % {"c": home}, figure("change", money)),
        (_("Offer as it is (%(c)s)") % {"c": home}, figure("original_value", money)),
        (_("Rank with the scenario"), figure("rank")),
        (_("Rank as it is"), figure("original_rank")),
        (_("Outcome: %(basis)s") % {"basis": c.meta["basis_label"]}, _outcome_note),
    ]


def _outcome_note(s: dict[str, Any]) -> str | None:
    """Return why a scenario has no outcome in the sheet (None: it has one)."""
    if s["outcome"] is None:
        return _("Open the scenario page for its outcome.")
    if s["outcome"]["error"]:
        return _("Cannot evaluate: %(e)s") % {"e": s["outcome"]["error"]}
    return None


def _interviews(book: Book, c: Comparison) -> None:
    from interviews.models import Debrief, Process, Round

    zone = c.people.get("home_timezone") or "UTC"
    sheet = Sheet(book, _("Interviews"), [22, 30, 16, 16, 9, 8, 22, 14, 14, 14, 14, 30, 40], "B2")
    sheet.table(
        c.processes,
        [
            (_("Company"), "company"),
            (_("Role"), "role"),
            (_("Team"), "team"),
            (_("Stage"), lambda p: choice_label(Process, "stage", p["stage"])),
            (_("Priority"), lambda p: choice_label(Process, "priority", p["priority"])),
            (_("Rounds"), "rounds"),
            (_("Debrief"), lambda p: choice_label(Debrief, "decision", p["debrief_decision"])),
            (_("First contact"), "first_contact"),
            (_("Deadline"), "deadline"),
            (_("Target level"), "target_level"),
            (_("Offered level"), "offered_level"),
            (_("Next step"), "next_step"),
        ],
    )
    sheet.blank()
    sheet.title(_("Rounds"), SECTION_FONT)
    sheet.table(
        c.rounds,
        [
            (_("Company"), "company"),
            (_("Role"), "role"),
            (_("Round"), "order"),
            (_("Kind"), lambda r: choice_label(Round, "kind", r["kind"])),
            (_("Mode"), lambda r: choice_label(Round, "mode", r["mode"])),
            (_("Minutes"), "duration_minutes"),
            (
                _("Scheduled (%(zone)s time)") % {"zone": zone},
                lambda r: sheet.cell(local_time(r["scheduled_at"], zone), LOCAL_TIME),
            ),
            (_("Entered in time zone"), "timezone"),
            (_("Signal"), lambda r: choice_label(Round, "signal", r["signal"])),
            (_("Self-assessment (1-5)"), "self_assessment"),
            (_("Interviewer"), "interviewer"),
            (_("Questions"), lambda r: "; ".join(r["questions"])),
        ],
    )


def _summary(book: Book, c: Comparison) -> None:
    """Write the first sheet: the basis, why the top option wins, each option, the deadlines."""
    from offers.models import Offer

    sheet = Sheet(book, _("Summary"), [12, 40, 18, 20, 20, 20, 16, 14], "A1")
    sheet.title(_("Offerdesk comparison in short"))
    sheet.append([sheet.cell(c.people.get("basis_sentence") or c.meta["basis_label"])])
    if c.people.get("verdict"):
        sheet.append([sheet.cell(c.people["verdict"])])
    sheet.blank()
    sheet.title(_("Options"), SECTION_FONT)
    sheet.table(
        c.options,
        [
            (_("Rank"), lambda o: o["rank"] if o["rank"] is not None else "—"),
            (_("Option"), "name"),
            (_("Kind"), lambda o: choice_label(Offer, "kind", o["kind"])),
            *_value_columns(sheet, c),
            (_("Fit"), _fit_note),
            (_("Deadline"), lambda o: o["deadline"] or ""),
        ],
    )
    deadlines = c.deadline_rows()
    sheet.blank()
    sheet.title(_("Deadlines"), SECTION_FONT)
    if not deadlines:
        sheet.append([_("No deadline ahead.")])
    for row in deadlines:
        sheet.append([row["day"], sheet.cell(row["name"]), row["what"]])


def _fit_note(o: dict[str, Any]) -> str:
    """Return how well an option fits, in words (or why it is not ranked)."""
    if o["error"]:
        return _("cannot evaluate")
    if o["excluded"]:
        return _("excluded: %(why)s") % {"why": "; ".join(o["exclusion_reasons"])}
    return fit_words(o["score"])


def write_xlsx(comparison: Comparison, stream: IO[bytes]) -> None:
    """Write the workbook to a binary stream."""
    book = Book()
    _summary(book, comparison)
    _ranking(book, comparison)
    _year_by_year(book, comparison)
    _assumptions(book, comparison)
    _negotiation(book, comparison)
    _scenarios(book, comparison)
    _interviews(book, comparison)
    book.save(stream)


def xlsx_bytes(comparison: Comparison) -> bytes:
    """Return the workbook as bytes."""
    buffer = io.BytesIO()
    write_xlsx(comparison, buffer)
    return buffer.getvalue()
