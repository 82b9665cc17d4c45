"""Tax rules read in the user's language: every regime's place is in the catalogue."""

from __future__ import annotations

from django.utils import translation

from compensation.engine.tax.tables import regimes
from compensation.models import TAX_PLACES, tax_regime_choices, tax_regime_label


def test_every_regime_place_is_listed_for_the_catalogue():
    assert {r.place for r in regimes().values()} <= set(TAX_PLACES)


def test_every_regime_reads_in_traditional_chinese():
    with translation.override("zh-hant"):
        for regime in regimes().values():
            label = tax_regime_label(regime)
            assert regime.place not in label, label
            assert regime.year_label in label
        choices = dict(tax_regime_choices())
    assert all(choices[key] != regime.label for key, regime in regimes().items())


def test_in_english_the_label_is_the_tables_own():
    with translation.override("en"):
        for regime in regimes().values():
            assert tax_regime_label(regime) == regime.label


def test_the_words_for_some_years_say_which_table_applied():
    with translation.override("en"):
        for regime in regimes().values():
            for years in ((2024, 2024), (2025, 2026), (2026, 2030), (2023, 2031)):
                assert tax_regime_label(regime, years) == regime.label_for(*years)
    with translation.override("zh-hant"):
        label = tax_regime_label(regimes()["tw"], (2027, 2030))
    assert label == "台灣 2026 稅制（2027 起沿用 2026 稅率表）", label
