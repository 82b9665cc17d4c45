"""The tax tables' words read in the user's language: every name and deduction the engine's
tables give is in the one registry (compensation.tax_words) and translated."""

from __future__ import annotations

from django.utils import translation

from compensation.engine.tax.tables import regimes
from compensation.tax_words import TAX_WORDS, tax_word


def _table_words() -> set[str]:
    """Return every name a page can show of the tables: parts, brackets, deductions, levies."""
    words: set[str] = set()
    for regime in regimes().values():
        for year in regime.years:
            for part in year.parts:
                words.add(part.name)
                for brackets in (part.brackets, part.alternative):
                    if brackets is not None:
                        words.update((brackets.name, brackets.deduction_label))
            words.update(c.name for c in year.contributions)
    return words - {""}


def test_every_name_of_the_tables_is_in_the_registry():
    assert sorted(_table_words() - set(TAX_WORDS)) == []


def test_every_tax_word_reads_in_traditional_chinese():
    with translation.override("zh-hant"):
        untranslated = [w for w in TAX_WORDS if tax_word(w) == w]
        assert untranslated == []
        assert tax_word("federal income tax") == "聯邦所得稅"
        assert tax_word("") == ""
    with translation.override("en"):
        assert [tax_word(w) for w in TAX_WORDS] == list(TAX_WORDS)
