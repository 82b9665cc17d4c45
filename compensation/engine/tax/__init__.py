"""Progressive income tax from published tables (``data/*.toml``), and the flat-rate fallback.

A package names a regime (``PackageSpec.tax_regime``, a key of :func:`regimes`) or none, in
which case its flat ``tax_rate_pct`` applies. A regime holds its tables for every tax year
published; each tax year is taxed by its own (`TaxRegime.for_year`). See docs/engine.md, "Tax".
"""
