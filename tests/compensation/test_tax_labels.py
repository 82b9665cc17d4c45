"""Tax rules read in the user's language: every regime's place is in the catalogue."""

from __future__ import annotations

from django.utils import translation

from compensation.engine.tax import regimes
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
