"""Reads of companies, bands, FX rates and packages, and the bridge from packages to the engine.

One module a concern: `queries` (querysets and gets by owner), `fx` (exchange rates), `spec`
(package terms to the engine's PackageSpec), `bands` (band choice and where a package sits),
`charts` (the band figure). The public names are re-exported here: import them from
`compensation.selectors`.
"""

from __future__ import annotations

from compensation.selectors.bands import (
    band_for,
    band_position,
    bands_for_levels,
    grant_value,
    local_band_for,
    next_level,
    yearly_stock_value,
)
from compensation.selectors.fx import (
    FxTable,
    fx_table,
)
from compensation.selectors.queries import (
    band_get_own,
    companies_by_name,
    company_get,
    company_get_own,
    company_list,
    fx_get_own,
    fx_list,
    level_list,
    levels_by_code,
    location_get_own,
    location_list,
    locations_by_name,
    package_get,
    package_list,
)
from compensation.selectors.spec import (
    bonus_cycle_of,
    grant_price_currency,
    package_terms,
    package_to_spec,
    preset_vesting,
    rows_terms,
    schedule_of,
    sign_on_of,
    stock_currency,
    tax_rate_pct,
    tax_rule_words,
    terms_rate,
)

__all__ = [
    "FxTable",
    "band_for",
    "band_get_own",
    "band_position",
    "bands_for_levels",
    "bonus_cycle_of",
    "companies_by_name",
    "company_get",
    "company_get_own",
    "company_list",
    "fx_get_own",
    "fx_list",
    "fx_table",
    "grant_price_currency",
    "grant_value",
    "local_band_for",
    "level_list",
    "levels_by_code",
    "location_get_own",
    "location_list",
    "locations_by_name",
    "next_level",
    "package_get",
    "package_list",
    "package_terms",
    "package_to_spec",
    "preset_vesting",
    "rows_terms",
    "schedule_of",
    "sign_on_of",
    "stock_currency",
    "tax_rate_pct",
    "tax_rule_words",
    "terms_rate",
    "yearly_stock_value",
]
