"""Tax tables as data: load and validate the TOML files in ``data/`` and the regimes built on them.

A table (``us_federal_2025.toml``) is one jurisdiction's tax for one tax year: parts taxing
one kind of income with progressive brackets, and employee contributions levied on cash pay.
A regime (``regimes.toml``) is the tables whose taxes add up for one place, for each tax year
published (`TaxRegime.for_year`). The format is docs/engine.md's, "Tax".
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..currencies import is_currency
from ..errors import EngineInputError

DATA_DIR = Path(__file__).resolve().parent / "data"
APPLIES_TO = ("all", "cash", "equity")
# The pay a contribution is levied on: all cash pay, the ordinary wages (the base salary paid
# every month) or the additional wages (bonus, sign-on, relocation: the other cash pay).
LEVIED_ON = ("cash", "ordinary", "additional")


def tax_year_of(day: datetime.date, year_starts_month: int) -> int:
    """Return the tax year (named by the calendar year it starts in) that ``day`` falls in."""
    return day.year if day.month >= year_starts_month else day.year - 1


class TaxTableError(ValueError):
    """A tax data file is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class Brackets:
    """Progressive brackets: ``rates[i]`` (a fraction) applies from ``starts[i]`` upwards."""

    starts: tuple[float, ...]
    rates: tuple[float, ...]
    deduction: float
    deduction_label: str
    name: str

    @property
    def top_rate(self) -> float:
        """Return the highest marginal rate of these brackets (a fraction)."""
        return max(self.rates)


@dataclass(frozen=True)
class TaxPart:
    """One tax of a table on one kind of income; with an alternative, the lower applies."""

    name: str
    applies_to: str
    brackets: Brackets
    alternative: Brackets | None = None

    @property
    def top_rate(self) -> float:
        """Return the highest marginal rate this part can charge (a fraction)."""
        return self.brackets.top_rate


@dataclass(frozen=True)
class Contribution:
    """An employee contribution on each month's cash pay (Hong Kong's MPF, Singapore's CPF...).

    ``rate`` (a fraction) of the month's pay of the kind ``levied_on`` (all ``cash``, the
    ``ordinary`` wages or the ``additional`` ones, see `LEVIED_ON`), that pay taken up to
    ``monthly_wage_ceiling`` (None: all of it), the contribution at most ``monthly_cap``
    (None: no cap), nothing in a month whose cash pay is below ``monthly_floor``.

    Two yearly rules, over the tax year's months in date order:

    * ``yearly_wage_ceiling``: the year's levied pay is at most this, less the pay the
      contribution named ``ceiling_less`` levied in the whole year (Singapore's additional
      wage ceiling: 102,000 less the ordinary wages subject to CPF);
    * ``exempt_multiple`` of the month's levied pay of the contribution ``exempt_multiple_of``
      (its insured salary; the highest so far in the year) is exempt: a payment is levied on
      the part of the year's running total above it (Taiwan's supplementary premium on the
      bonuses above four times the monthly insured salary).

    A ``deductible`` one comes off the cash income the table's parts tax (those on ``cash`` or
    ``all``). Stock vests are not levied.
    """

    name: str
    rate: float
    monthly_cap: float | None
    monthly_floor: float
    deductible: bool
    levied_on: str = "cash"
    monthly_wage_ceiling: float | None = None
    yearly_wage_ceiling: float | None = None
    ceiling_less: str | None = None
    exempt_multiple: float = 0.0
    exempt_multiple_of: str | None = None


@dataclass(frozen=True)
class TaxTable:
    """One jurisdiction's tax for one tax year, as published (see ``sources``)."""

    key: str
    name: str
    tax_year: int
    year_label: str
    currency: str
    year_starts_month: int
    filing_status: str
    sources: tuple[str, ...]
    parts: tuple[TaxPart, ...]
    contributions: tuple[Contribution, ...] = ()

    @property
    def kind(self) -> str:
        """Return the tax the table is one year of: its key without the year (``us_federal``)."""
        return self.key.removesuffix(f"_{self.tax_year}")


@dataclass(frozen=True)
class TaxYear:
    """The tables of one regime for one tax year, whose taxes add up."""

    tax_year: int
    tables: tuple[TaxTable, ...]

    @property
    def year_label(self) -> str:
        """Return the tax year as the tables name it, e.g. '2025', '2025/26' or 'YA 2026'."""
        return self.tables[0].year_label

    @property
    def parts(self) -> tuple[TaxPart, ...]:
        """Return every part of every table, in order."""
        return tuple(p for t in self.tables for p in t.parts)

    @property
    def contributions(self) -> tuple[Contribution, ...]:
        """Return every employee contribution of every table, in order."""
        return tuple(c for t in self.tables for c in t.contributions)

    def name_of(self, tax_year: int) -> str:
        """Return another tax year named the way this one is ('2025/26' -> '2027/28' for 2027)."""
        shift = tax_year - self.tax_year

        def moved(match: re.Match[str]) -> str:
            digits = match.group()
            if len(digits) == 2:
                return f"{(int(digits) + shift) % 100:02d}"
            return str(int(digits) + shift)

        return re.sub(r"\d+", moved, self.year_label)


@dataclass(frozen=True)
class TableUse:
    """Which tables tax a run of tax years: their own where published, else the nearest.

    ``year_label`` names the tables used ('2026', or '2025-2026'); ``later`` is the latest
    tables' year and the first later year they stand in for, ``earlier`` the earliest
    tables' year and the last earlier year they stand in for (None when none does).
    """

    year_label: str
    later: tuple[str, str] | None = None
    earlier: tuple[str, str] | None = None


@dataclass(frozen=True)
class TaxRegime:
    """One place's tables by tax year (ascending); every year has the same currency and start."""

    key: str
    place: str
    years: tuple[TaxYear, ...]

    @property
    def currency(self) -> str:
        """Return the currency every table of the regime is in."""
        return self.years[0].tables[0].currency

    @property
    def year_starts_month(self) -> int:
        """Return the month (1-12) the regime's tax year starts."""
        return self.years[0].tables[0].year_starts_month

    @property
    def latest(self) -> TaxYear:
        """Return the tables of the latest tax year published."""
        return self.years[-1]

    def for_year(self, tax_year: int) -> TaxYear:
        """Return the tables taxing ``tax_year``: its own, else the latest before it, else the
        earliest published."""
        chosen = self.years[0]
        for year in self.years:
            if year.tax_year <= tax_year:
                chosen = year
        return chosen

    def tax_year_of(self, day: datetime.date) -> int:
        """Return the tax year (named by the calendar year it starts in) holding ``day``."""
        return tax_year_of(day, self.year_starts_month)

    @property
    def year_label(self) -> str:
        """Return the tax years published, e.g. '2025' or '2025-2026'."""
        return _span([y.year_label for y in self.years])

    @property
    def label(self) -> str:
        """Return the regime in words, e.g. 'California + US federal 2025 tax'."""
        return f"{self.place} {self.year_label} tax"

    def use(self, first: int, last: int) -> TableUse:
        """Return which tables tax the tax years ``first`` to ``last``."""
        used: list[TaxYear] = []
        for tax_year in range(first, max(first, last) + 1):
            year = self.for_year(tax_year)
            if year not in used:
                used.append(year)
        latest, earliest = self.years[-1], self.years[0]
        later = earlier = None
        if last > latest.tax_year:
            later = (latest.year_label, latest.name_of(max(first, latest.tax_year + 1)))
        if first < earliest.tax_year:
            earlier = (earliest.year_label, earliest.name_of(min(last, earliest.tax_year - 1)))
        return TableUse(_span([y.year_label for y in used]), later, earlier)

    def label_for(self, first: int, last: int) -> str:
        """Return the regime in words for the tax years ``first`` to ``last``.

        E.g. 'Taiwan 2026 tax (2026 table used for 2027 on)' for 2026 to 2030.
        """
        use = self.use(first, last)
        words = f"{self.place} {use.year_label} tax"
        if use.later is not None:
            words += f" ({use.later[0]} table used for {use.later[1]} on)"
        if use.earlier is not None:
            words += f" ({use.earlier[0]} table used for {use.earlier[1]} and before)"
        return words


@dataclass(frozen=True)
class SharedTable:
    """A table taxing one tax year of a person under several regimes: ``members`` are the
    indices of the regimes holding its kind (the US federal table of California and then
    Washington, the Singapore table of an Employment Pass and then CPF)."""

    table: TaxTable
    members: tuple[int, ...]


def tables_for_year(regimes: Sequence[TaxRegime], tax_year: int) -> tuple[SharedTable, ...]:
    """Return the tables taxing ``tax_year`` for one person under ``regimes``, each kind once.

    One person files one return a year for each tax: the regimes holding a kind of table
    (`TaxTable.kind`) share it, and it taxes their income together. Its year is chosen as
    `TaxRegime.for_year` chooses, among the years of that kind any of them publishes: its own,
    else the latest before it, else the earliest. For one regime these are its own tables.
    """
    found: dict[str, tuple[dict[int, TaxTable], list[int]]] = {}
    for i, regime in enumerate(regimes):
        for published in regime.years:
            for table in published.tables:
                by_year, members = found.setdefault(table.kind, ({}, []))
                by_year.setdefault(table.tax_year, table)
                if i not in members:
                    members.append(i)
    out = []
    for by_year, members in found.values():
        chosen = max((y for y in by_year if y <= tax_year), default=min(by_year))
        out.append(SharedTable(by_year[chosen], tuple(members)))
    return tuple(out)


def _span(labels: list[str]) -> str:
    """Return '2025' for one year and '2025-2026' for a run of them."""
    return labels[0] if len(labels) == 1 else f"{labels[0]}-{labels[-1]}"


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise TaxTableError(f"{where}: missing {key!r}")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TaxTableError(f"{where}: {key!r} has the wrong type ({value!r})")
    return value


def _brackets(data: dict[str, Any], where: str) -> Brackets:
    rows = _need(data, "brackets", list, where)
    if not rows:
        raise TaxTableError(f"{where}: 'brackets' is empty")
    starts: list[float] = []
    rates: list[float] = []
    for i, row in enumerate(rows):
        if (
            not isinstance(row, list)
            or len(row) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in row)
        ):
            raise TaxTableError(f"{where}: brackets[{i}] must be [from, rate %]")
        start, rate = float(row[0]), float(row[1])
        if not 0.0 <= rate <= 100.0:
            raise TaxTableError(f"{where}: brackets[{i}] rate {rate} is not a percentage")
        if (i == 0 and start != 0.0) or (i > 0 and start <= starts[-1]):
            raise TaxTableError(f"{where}: brackets must start at 0 and increase (row {i})")
        starts.append(start)
        rates.append(rate / 100.0)
    deduction = float(_need(data, "deduction", (int, float), where))
    if deduction < 0:
        raise TaxTableError(f"{where}: 'deduction' must not be negative")
    return Brackets(
        starts=tuple(starts),
        rates=tuple(rates),
        deduction=deduction,
        deduction_label=str(data.get("deduction_label", "")),
        name=str(data.get("name", "")),
    )


def _positive(data: dict[str, Any], key: str, where: str) -> float | None:
    """Return ``data[key]`` as a positive number, or None when it is not given."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise TaxTableError(f"{where}: {key!r} must be a positive number")
    return float(value)


def _earlier(data: dict[str, Any], key: str, names: list[str], where: str) -> str | None:
    """Return ``data[key]``, the name of an earlier contribution of the table, or None."""
    value = data.get(key)
    if value is not None and value not in names:
        raise TaxTableError(f"{where}: {key!r} must name an earlier contribution ({value!r})")
    return None if value is None else str(value)


def _contribution(data: Any, where: str, earlier: list[str] | None = None) -> Contribution:
    if not isinstance(data, dict):
        raise TaxTableError(f"{where} must be a table")
    earlier = earlier or []
    rate = float(_need(data, "rate", (int, float), where))
    if not 0.0 <= rate <= 100.0:
        raise TaxTableError(f"{where}: 'rate' {rate} is not a percentage")
    cap = _positive(data, "monthly_cap", where)
    floor = data.get("monthly_floor", 0)
    if isinstance(floor, bool) or not isinstance(floor, int | float) or floor < 0:
        raise TaxTableError(f"{where}: 'monthly_floor' must be a number, 0 or more")
    deductible = data.get("deductible")
    if not isinstance(deductible, bool):
        raise TaxTableError(f"{where}: 'deductible' must be true or false")
    name = _need(data, "name", str, where)
    if name in earlier:
        raise TaxTableError(f"{where}: another contribution is named {name!r}")
    levied_on = data.get("levied_on", "cash")
    if levied_on not in LEVIED_ON:
        raise TaxTableError(f"{where}: 'levied_on' must be one of {', '.join(LEVIED_ON)}")
    yearly = _positive(data, "yearly_wage_ceiling", where)
    less = _earlier(data, "ceiling_less", earlier, where)
    if less is not None and yearly is None:
        raise TaxTableError(f"{where}: 'ceiling_less' needs a 'yearly_wage_ceiling'")
    multiple = _positive(data, "exempt_multiple", where)
    multiple_of = _earlier(data, "exempt_multiple_of", earlier, where)
    if (multiple is None) != (multiple_of is None):
        raise TaxTableError(f"{where}: give both 'exempt_multiple' and 'exempt_multiple_of'")
    if cap is not None and (yearly is not None or multiple is not None):
        raise TaxTableError(f"{where}: a 'monthly_cap' does not go with a yearly rule")
    return Contribution(
        name=name,
        rate=rate / 100.0,
        monthly_cap=cap,
        monthly_floor=float(floor),
        deductible=deductible,
        levied_on=str(levied_on),
        monthly_wage_ceiling=_positive(data, "monthly_wage_ceiling", where),
        yearly_wage_ceiling=yearly,
        ceiling_less=less,
        exempt_multiple=multiple or 0.0,
        exempt_multiple_of=multiple_of,
    )


def _contributions(data: dict[str, Any], where: str) -> tuple[Contribution, ...]:
    rows = data.get("contributions", [])
    if not isinstance(rows, list):
        raise TaxTableError(f"{where}: 'contributions' must be a list of tables")
    out: list[Contribution] = []
    for i, row in enumerate(rows):
        out.append(_contribution(row, f"{where}: contributions[{i}]", [c.name for c in out]))
    return tuple(out)


def parse_table(data: dict[str, Any], where: str) -> TaxTable:
    """Return a validated table from a parsed TOML document (``where`` names it in errors)."""
    key = _need(data, "key", str, where)
    currency = _need(data, "currency", str, where)
    if not is_currency(currency):
        raise TaxTableError(f"{where}: {currency!r} is not an ISO 4217 currency code")
    start_month = _need(data, "year_starts_month", int, where)
    if not 1 <= start_month <= 12:
        raise TaxTableError(f"{where}: 'year_starts_month' must be 1 to 12")
    sources = _need(data, "sources", list, where)
    if not sources or not all(isinstance(s, str) and s.startswith("https://") for s in sources):
        raise TaxTableError(f"{where}: 'sources' must list the official https:// sources")
    parts = []
    for i, part in enumerate(_need(data, "parts", list, where) if "parts" in data else []):
        at = f"{where}: parts[{i}]"
        if not isinstance(part, dict):
            raise TaxTableError(f"{at} must be a table")
        applies_to = _need(part, "applies_to", str, at)
        if applies_to not in APPLIES_TO:
            raise TaxTableError(f"{at}: 'applies_to' must be one of {', '.join(APPLIES_TO)}")
        alternative = part.get("alternative")
        if alternative is not None and not isinstance(alternative, dict):
            raise TaxTableError(f"{at}: 'alternative' must be a table")
        parts.append(
            TaxPart(
                name=_need(part, "name", str, at),
                applies_to=applies_to,
                brackets=_brackets(part, at),
                alternative=None if alternative is None else _brackets(alternative, f"{at}.alt"),
            )
        )
    contributions = _contributions(data, where)
    if not parts and not contributions:
        raise TaxTableError(f"{where}: needs at least one part or contribution")
    return TaxTable(
        key=key,
        name=_need(data, "name", str, where),
        tax_year=_need(data, "tax_year", int, where),
        year_label=_need(data, "year_label", str, where),
        currency=currency,
        year_starts_month=start_month,
        filing_status=_need(data, "filing_status", str, where),
        sources=tuple(sources),
        parts=tuple(parts),
        contributions=contributions,
    )


def load_table(path: Path) -> TaxTable:
    """Return the validated table of one TOML file; its ``key`` must be its file name."""
    with path.open("rb") as handle:
        try:
            data = tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise TaxTableError(f"{path.name}: {error}") from None
    table = parse_table(data, path.name)
    if table.key != path.stem:
        raise TaxTableError(f"{path.name}: key {table.key!r} differs from the file name")
    return table


def load_regimes(data_dir: Path = DATA_DIR) -> dict[str, TaxRegime]:
    """Return every regime of ``regimes.toml`` with its validated tables, by key."""
    tables = {p.stem: load_table(p) for p in sorted(data_dir.glob("*.toml")) if p.stem != "regimes"}
    with (data_dir / "regimes.toml").open("rb") as handle:
        spec = tomllib.load(handle)
    return {key: _regime(key, entry, tables) for key, entry in spec.items()}


def _regime(key: str, entry: Any, tables: dict[str, TaxTable]) -> TaxRegime:
    """Return the regime ``key`` of ``regimes.toml``: its place and its named tables by year."""
    where = f"regimes.toml: [{key}]"
    if not isinstance(entry, dict):
        raise TaxTableError(f"{where} must be a table")
    names = _need(entry, "tables", list, where)
    missing = [n for n in names if n not in tables]
    if not names or missing:
        raise TaxTableError(f"{where}: unknown or no tables {missing}")
    by_year = _by_tax_year([tables[n] for n in names], where)
    if len(key) > 16:
        raise TaxTableError(f"{where}: keys are at most 16 characters")
    return TaxRegime(
        key=key,
        place=_need(entry, "place", str, where),
        years=tuple(TaxYear(y, tuple(by_year[y])) for y in sorted(by_year)),
    )


def _by_tax_year(chosen: list[TaxTable], where: str) -> dict[int, list[TaxTable]]:
    """Return a regime's tables by tax year, checking that they fit together."""
    if len({(t.currency, t.year_starts_month) for t in chosen}) != 1:
        raise TaxTableError(f"{where}: tables differ in currency or tax year start")
    by_year: dict[int, list[TaxTable]] = {}
    for table in chosen:
        by_year.setdefault(table.tax_year, []).append(table)
    # Every year has the same tables (by name without the year: us_federal_2025 ->
    # us_federal), so a year whose state table is missing is not taxed by federal alone.
    kinds = {year: sorted(t.kind for t in group) for year, group in by_year.items()}
    if len({tuple(k) for k in kinds.values()}) != 1:
        raise TaxTableError(f"{where}: every tax year needs the same tables ({kinds})")
    for year, group in by_year.items():
        if len({t.year_label for t in group}) != 1:
            raise TaxTableError(f"{where}: the {year} tables differ in their tax year label")
        names = [c.name for t in group for c in t.contributions]
        if len(set(names)) != len(names):
            raise TaxTableError(f"{where}: two {year} contributions have the same name")
    return by_year


@cache
def regimes() -> dict[str, TaxRegime]:
    """Return the registry of tax regimes (loaded and validated once)."""
    return load_regimes()


def regime_get(key: str) -> TaxRegime:
    """Return the regime named ``key`` or raise EngineInputError."""
    found = regimes().get(key)
    if found is None:
        raise EngineInputError(
            "tax_regime", f"unknown tax regime {key!r} (known: {', '.join(regimes())})"
        )
    return found
