"""The engine's tax words in the reader's language: one registry for the names the tax tables
(compensation/engine/tax/data/*.toml) give their parts, brackets, deductions and
contributions.

The engine keeps its names in English, as the published tables write them: they are its
stable keys (a contribution's ``ceiling_less`` names another). The pages translate them when
they show them, through `tax_word`; a test fails when a table names something this registry
does not hold, so a new table's words reach the catalogue.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

# Every name and deduction label of the tables, as the catalogue's message ids.
TAX_WORDS = (
    # Parts and their brackets.
    gettext_noop("federal income tax"),
    gettext_noop("Social Security"),
    gettext_noop("Medicare and Additional Medicare"),
    gettext_noop("California income tax"),
    gettext_noop("California SDI"),
    gettext_noop("New York State income tax"),
    gettext_noop("New York supplemental tax"),
    gettext_noop("WA Cares premium"),
    gettext_noop("resident income tax"),
    gettext_noop("CPF on ordinary wages"),
    gettext_noop("CPF on additional wages"),
    gettext_noop("consolidated income tax"),
    gettext_noop("labour insurance"),
    gettext_noop("employment insurance"),
    gettext_noop("national health insurance"),
    gettext_noop("NHI supplementary premium"),
    gettext_noop("salaries tax (progressive rates)"),
    gettext_noop("salaries tax (standard rate)"),
    gettext_noop("MPF mandatory contribution"),
    gettext_noop("comprehensive income (wages)"),
    gettext_noop("equity incentive income (separately)"),
    gettext_noop("pension insurance"),
    gettext_noop("medical insurance"),
    gettext_noop("unemployment insurance"),
    gettext_noop("housing provident fund"),
    # Deductions.
    gettext_noop("standard deduction (single)"),
    gettext_noop("California standard deduction (single)"),
    gettext_noop("New York standard deduction (single)"),
    gettext_noop("earned income relief"),
    gettext_noop("exemption 97,000 + standard deduction 131,000 + salary deduction 218,000"),
    gettext_noop("exemption 101,000 + standard deduction 136,000 + salary deduction 227,000"),
    gettext_noop("basic allowance 132,000 (after MPF)"),
    gettext_noop("none (after MPF)"),
    gettext_noop("basic deduction 5,000 a month"),
)


def tax_word(name: str) -> str:
    """Return a tax table's name (a part, brackets, a deduction, a contribution) in the
    active language; an empty name stays empty."""
    return gettext(name) if name else ""
