"""Progressive income tax from published tables (``data/*.toml``), and the flat-rate fallback.

A package names a regime (``PackageSpec.tax_regime``, a key of :func:`regimes`) or none, in
which case its flat ``tax_rate_pct`` applies. A regime holds its tables for every tax year
published; each tax year is taxed by its own (`TaxRegime.for_year`). See docs/engine.md, "Tax".
"""

from __future__ import annotations

from .compute import (
    BracketWorking,
    PartWorking,
    TaxedIncome,
    bracket_slices,
    bracket_tax,
    column_contributions,
    joint_tax,
    month_other_tax_years,
    month_tax_years,
    monthly_tax,
    monthly_tax_and_contributions,
    top_rate,
    year_tax_parts,
    yearly_contributions,
    yearly_tax,
)
from .tables import (
    TaxRegime,
    TaxTableError,
    TaxYear,
    load_regimes,
    load_table,
    regime_get,
    regimes,
    tables_for_year,
    tax_year_of,
)

__all__ = [
    "BracketWorking",
    "PartWorking",
    "TaxRegime",
    "TaxTableError",
    "TaxYear",
    "bracket_slices",
    "bracket_tax",
    "column_contributions",
    "joint_tax",
    "TaxedIncome",
    "load_regimes",
    "load_table",
    "month_other_tax_years",
    "month_tax_years",
    "monthly_tax",
    "monthly_tax_and_contributions",
    "regime_get",
    "regimes",
    "tables_for_year",
    "tax_year_of",
    "top_rate",
    "year_tax_parts",
    "yearly_contributions",
    "yearly_tax",
]
