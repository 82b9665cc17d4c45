"""The package's term lists stay derived and agree, so a new term costs no extra list.

An editable Package field is a term unless it is in `NOT_TERMS`; every term is a
`PackageTerms` field (`TERM_FIELDS` is derived from them), on the package page's form,
written by the backup, and an export column unless `NOT_EXPORTED` says why not.
"""

from __future__ import annotations

from dataclasses import fields

import pytest

from compensation.forms import PackageForm
from compensation.models import Package
from compensation.terms import TERM_FIELDS, PackageTerms
from offers.export.backup import backup_schema
from offers.export.columns import TERMS
from offers.forms import PACKAGE_FORM_NAMES, PACKAGE_PAGE_ONLY

# The package's own fields that are not terms: who it is, not what it pays.
NOT_TERMS = {"id", "owner", "name", "company", "is_current_job"}
# Terms the exports' `TERMS` table has no column of their name for, each on purpose.
NOT_EXPORTED = {
    # The bonus timing: the values it gives are in the yearly rows.
    "bonus_cycle",
    "bonus_fiscal_start_month",
    "bonus_payout_month",
    "bonus_prorate_first_year",
    "bonus_cutoff_month",
    "bonus_cutoff_day",
    "bonus_paid_if_left",
    "start_date",  # the column "start": the date valued from
    "level",  # on the options' rows
    "tax_regime",  # the column "tax_rule", in words
}


def model_terms() -> list[str]:
    """Return the Package's editable fields that are terms, in the model's order."""
    return [f.name for f in Package._meta.concrete_fields if f.editable and f.name not in NOT_TERMS]


def gaps(term_fields, form_fields, backed_up, exported) -> dict[str, set[str]]:
    """Return, list by list, the model's terms a list is missing (empty when all agree)."""
    own = {f.name for f in fields(PackageTerms)}
    found = {
        "TERM_FIELDS": set(term_fields),
        "PackageTerms": own,
        "PackageForm": set(form_fields),
        "backup": set(backed_up),
        "exports": set(exported) | NOT_EXPORTED,
        "offer form": set(PACKAGE_FORM_NAMES) | PACKAGE_PAGE_ONLY,
    }
    terms = set(model_terms())
    return {name: terms - names for name, names in found.items() if terms - names}


def today_lists() -> tuple[list[str], list[str], list[str], list[str]]:
    backed_up = backup_schema()["properties"]["packages"]["items"]["properties"]
    return list(TERM_FIELDS), list(PackageForm.base_fields), list(backed_up), [t.key for t in TERMS]


def test_every_term_is_in_every_list():
    assert gaps(*today_lists()) == {}
    assert not NOT_EXPORTED & {t.key for t in TERMS}, "an exported term is listed as not"


@pytest.mark.parametrize(
    ("index", "name"), list(enumerate(["TERM_FIELDS", "PackageForm", "backup", "exports"]))
)
def test_the_guard_catches_a_term_missing_from_one_list(index, name):
    lists = list(today_lists())
    lists[index] = [term for term in lists[index] if term != "relocation"]
    assert gaps(*lists) == {name: {"relocation"}}


def test_a_new_model_term_is_missing_everywhere_until_listed(monkeypatch):
    import tests.compensation.test_term_lists as guard

    terms = [*model_terms(), "bonus_new"]
    monkeypatch.setattr(guard, "model_terms", lambda: terms)
    assert set(gaps(*today_lists())) == {
        "TERM_FIELDS",
        "PackageTerms",
        "PackageForm",
        "backup",
        "exports",
        "offer form",
    }
